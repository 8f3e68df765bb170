package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * When {@code waitForSnapshot} reads the row again: on a status notification, every heartbeat
 * interval while it is subscribed, and every poll interval after a failed read or while an aborted
 * run saves its progress, a save that changes only the finish reason, which no status notification
 * reports. On fake time: the wait's timer fires only when a test advances the clock, so each test
 * says exactly which interval ends a wait.
 */
class WaitForSnapshotTest extends AgentTestSupport {
  private static final Duration POLL = Duration.ofSeconds(1);

  @Override
  boolean onFakeTime() {
    return true;
  }

  /** The store, counting snapshot reads. */
  static final class CountingStore extends ForwardingSessionStore {
    final AtomicInteger reads = new AtomicInteger();

    CountingStore(InMemorySessionStore store) {
      super(store);
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      reads.incrementAndGet();
      return super.getSnapshot(context, snapshotId);
    }
  }

  private final CountingStore counting = new CountingStore(store);
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch saving = new CountDownLatch(1);

  /**
   * A run that, once aborted, takes its time to stop (and so to save its progress): until the test
   * opens {@link #saving}. Its heartbeat is far apart from the poll interval.
   */
  private Agent slowToStop() {
    return baton.defineCustomAgent(
        "slow",
        runner -> {
          runner.run(
              (ctx, input) -> {
                entered.countDown();
                CountDownLatch cancelled = new CountDownLatch(1);
                try (var onCancel = ctx.cancellation().onCancel(cancelled::countDown)) {
                  cancelled.await();
                  saving.await();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                ctx.cancellation().throwIfCancelled();
                return TurnResult.STOP;
              });
          return runner.result();
        },
        AgentOptions.builder()
            .sessionStore(counting)
            .heartbeat(Duration.ofSeconds(30), Duration.ofSeconds(60))
            .waitPollInterval(POLL)
            .build());
  }

  /** Starts a detached run of the agent and aborts it once it is working; returns its snapshot. */
  private String detachAndAbort(Agent slow) throws InterruptedException {
    AgentOutput detached =
        slow.run(
            baton.context(),
            AgentInput.text("work").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(slow.abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    return Objects.requireNonNull(detached.snapshotId());
  }

  /** Waits until {@code count} timers are armed: the wait's among them once it is between reads. */
  private void awaitTimers(int count) {
    promptly().until(time::pendingTasks, n -> n == count);
  }

  /**
   * A wait on a thread of its own: a wait left blocked by a failed test must not hold a thread that
   * the next test needs, as one of the common pool's could.
   */
  private static CompletableFuture<SessionSnapshot> waitInBackground(Agent agent, String id) {
    return CompletableFuture.supplyAsync(
        () -> agent.waitForSnapshot(id), task -> Thread.ofVirtual().start(task));
  }

  /** Advances the time a poll interval at a time until {@code waiting} is done. */
  private void advanceUntilDone(CompletableFuture<?> waiting) {
    promptly()
        .until(
            () -> {
              time.advance(POLL);
              return waiting.isDone();
            });
  }

  @Test
  void aWaitOnAnAbortingRunReturnsAtThePollIntervalNotTheHeartbeatInterval() throws Exception {
    Agent slow = slowToStop();
    String snapshotId = detachAndAbort(slow);
    CompletableFuture<SessionSnapshot> waiting = waitInBackground(slow, snapshotId);
    // The heartbeat ticker, the end of an aborted run's beats, and the wait's poll.
    awaitTimers(3);

    // Every poll interval the wait reads the row again, and finds it still saving.
    int before = counting.reads.get();
    time.advance(POLL);
    promptly().until(() -> counting.reads.get() == before + 1);
    awaitTimers(3);

    saving.countDown();
    promptly()
        .until(
            () -> store.getSnapshot(baton.context(), snapshotId),
            row -> row != null && row.finishReason() != null);
    assertThat(waiting).as("the save of an aborted run's progress notifies no one").isNotDone();
    time.advance(POLL);

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }

  @Test
  void anAbortedRowStillBeingSavedIsNotSettledAndTheWaitReturnsItSettled() throws Exception {
    Agent slow = slowToStop();
    String snapshotId = detachAndAbort(slow);

    SessionSnapshot aborting = slow.getSnapshot(snapshotId);
    assertThat(aborting.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(aborting.isSettled()).as("read while its worker saves its progress").isFalse();

    CompletableFuture<SessionSnapshot> waiting = waitInBackground(slow, snapshotId);
    saving.countDown();
    advanceUntilDone(waiting);

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.isSettled()).isTrue();
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }

  @Test
  void aWaitRereadsAPendingRowEveryHeartbeatIntervalUntilTheRunSettles() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "waited",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(counting)
                .heartbeat(POLL, Duration.ofMinutes(1))
                .waitPollInterval(POLL)
                .build());
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<SessionSnapshot> waiting = waitInBackground(agent, detached.snapshotId());
    // The heartbeat ticker and the wait's re-read a heartbeat interval away.
    awaitTimers(2);

    // Across several heartbeats of the pending row the wait reads it again and goes on waiting.
    for (int i = 0; i < 5; i++) {
      int before = counting.reads.get();
      time.advance(POLL);
      promptly().until(() -> counting.reads.get() > before);
      awaitTimers(2);
    }
    assertThat(waiting).isNotDone();

    // The run's end is notified: the wait returns without the time moving.
    gate.countDown();
    assertThat(waiting.get(10, TimeUnit.SECONDS).status()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aWaitRidesOutTransientReadFailures() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger failingReads = new AtomicInteger();
    Agent agent =
        gated(
            "flaky-reads",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(
                    new FlakyStore(store, new AtomicBoolean(), failingReads, new AtomicInteger()))
                .heartbeat(POLL, Duration.ofMinutes(1))
                .waitPollInterval(POLL)
                .build());
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<SessionSnapshot> waiting = waitInBackground(agent, detached.snapshotId());

    // Plain runtime exceptions, not only BatonExceptions, count as transient: three in a row pass.
    failingReads.set(3);
    gate.countDown();
    advanceUntilDone(waiting);

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(failingReads).hasValue(0);
  }
}
