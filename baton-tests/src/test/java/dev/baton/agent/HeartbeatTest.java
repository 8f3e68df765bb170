package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * How a detached run's heartbeat behaves: it skips beats while one is still writing, keeps its row
 * alive for as long as it beats, lets it expire a heartbeat timeout after the last beat, and goes
 * on for a heartbeat timeout after an abort. On fake time: a beat falls due only when a test
 * advances the clock, and each beat lands before the next advance.
 */
class HeartbeatTest extends AgentTestSupport {
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  @Override
  boolean onFakeTime() {
    return true;
  }

  /** Advances one heartbeat interval and waits for the beat it brings to land in the row. */
  private void beat(String snapshotId) {
    time.advance(INTERVAL);
    Instant now = time.instant();
    promptly().until(() -> heartbeatOf(snapshotId), now::equals);
  }

  private @Nullable Instant heartbeatOf(String snapshotId) {
    return Objects.requireNonNull(store.getSnapshot(baton.context(), snapshotId)).heartbeatAt();
  }

  @Test
  void aBeatStillWritingMakesTheNextOnesSkipRatherThanPileUp() {
    StallingStore stalling = new StallingStore(store);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "slow-store",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(stalling)
                .heartbeat(INTERVAL, Duration.ofMinutes(1))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    promptly().until(() -> entered.getCount() == 0);

    stalling.stall(detached.snapshotId());
    time.advance(INTERVAL);
    promptly().until(() -> stalling.inFlight.get() == 1);
    // A dozen beats fall due while the first is stuck; none of them starts another write.
    time.advance(INTERVAL.multipliedBy(12));
    assertThat(stalling.writes).hasValue(1);

    stalling.release();
    gate.countDown();
    SessionSnapshot settled =
        promptly()
            .until(
                () -> agent.snapshots().get(detached.snapshotId()),
                row -> row.status() == SnapshotStatus.COMPLETED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(stalling.writes).as("the stuck beat, then the final write").hasValue(2);
  }

  @Test
  void aWorkerWhoseHeartbeatsStopReadsAsExpiredOnceItsLastBeatIsOlderThanTheTimeout() {
    AtomicBoolean storeDown = new AtomicBoolean();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "stale",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(new FlakyStore(store, storeDown))
                .heartbeat(INTERVAL, TIMEOUT)
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    String id = detached.snapshotId();
    promptly().until(() -> entered.getCount() == 0);
    assertThat(heartbeatOf(id)).isEqualTo(time.instant());

    // While the worker beats, the row outlives the timeout three times over and stays pending.
    for (int i = 0; i < 15; i++) {
      beat(id);
    }
    assertThat(agent.snapshots().get(id).status()).isEqualTo(SnapshotStatus.PENDING);

    // Reads still work while writes fail, as with a worker that lost its connection to the store.
    storeDown.set(true);
    time.advance(TIMEOUT);
    assertThat(agent.snapshots().get(id).status())
        .as("a heartbeat timeout after the last beat")
        .isEqualTo(SnapshotStatus.PENDING);
    time.advance(Duration.ofMillis(1));
    assertThat(agent.snapshots().get(id).status()).isEqualTo(SnapshotStatus.EXPIRED);
    assertThat(agent.snapshots().waitFor(id).status()).isEqualTo(SnapshotStatus.EXPIRED);
    assertThat(store.getSnapshot(baton.context(), id).status())
        .as("expired is computed on read, never stored")
        .isEqualTo(SnapshotStatus.PENDING);
    storeDown.set(false);
    gate.countDown();
  }

  @Test
  void anAbortedRunWhoseWorkerIsSlowToStopReadsAsSavingForAHeartbeatTimeoutThenAsStuck() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger runs = new AtomicInteger();
    Agent agent =
        baton.defineCustomAgent(
            "stubborn",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    if (runs.incrementAndGet() == 2) {
                      entered.countDown();
                      // Ignores cancellation, as a tool blocked in a call without a timeout would.
                      try {
                        assertThat(gate.await(60, TimeUnit.SECONDS)).isTrue();
                      } catch (InterruptedException e) {
                        throw new AssertionError(e);
                      }
                    }
                    runner.session().addMessage(Message.model("late"));
                    return AgentFinishReason.STOP;
                  });
              return runner.result();
            },
            AgentOptions.builder().sessionStore(store).heartbeat(INTERVAL, TIMEOUT).build());
    AgentOutput first = agent.runText("hi");
    AgentOutput detached =
        agent.run(
            baton.context(),
            AgentInput.text("work").withDetach(true),
            AgentInit.ofSnapshot(first.snapshotId()),
            StreamCallback.discard());
    String id = detached.snapshotId();
    promptly().until(() -> entered.getCount() == 0);
    assertThat(agent.snapshots().abort(id)).isEqualTo(SnapshotStatus.ABORTED);
    Instant abortedAt = time.instant();
    // The abort arms the end of the beats, a heartbeat timeout away, beside the ticker.
    promptly().until(time::pendingTasks, n -> n == 2);

    // While the worker may still write, continuing is refused rather than forking from the parent.
    assertContinuingIsRefused(agent, id);
    // Beats go on after the abort, so the row does not look as if its worker died.
    for (int i = 0; i < 4; i++) {
      beat(id);
    }
    // A heartbeat timeout after the abort the beats stop, before the beat due then, and the
    // ticker with them.
    time.advance(INTERVAL);
    assertThat(time.pendingTasks()).isZero();
    Instant lastBeat = abortedAt.plus(INTERVAL.multipliedBy(4));
    assertThat(heartbeatOf(id)).isEqualTo(lastBeat);

    // Once the last beat is older than the timeout, the task can be continued, from the last state
    // saved before it, although its worker is stuck.
    time.advance(Duration.between(time.instant(), lastBeat.plus(TIMEOUT)));
    assertContinuingIsRefused(agent, id);
    time.advance(Duration.ofMillis(1));
    AgentOutput continued = agent.runText("more", AgentInit.continueFrom(id));
    assertThat(continued.isFailed()).isFalse();
    assertThat(continued.text()).isEqualTo("late");
    assertThat(gate.getCount()).as("the detached worker is still stuck").isEqualTo(1);

    // When the stuck worker finally returns, its progress still lands in the aborted row. The
    // stored row, not the agent's shaped read: that one already shows the stuck row as finished.
    gate.countDown();
    promptly()
        .until(
            () -> Objects.requireNonNull(store.getSnapshot(baton.context(), id)).finishReason(),
            Objects::nonNull);
    SessionSnapshot settled = agent.snapshots().get(id);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.heartbeatAt()).isNull();
    assertThat(settled.state().messages())
        .extracting(Message::text)
        .containsExactly("hi", "late", "work", "late");
  }

  private static void assertContinuingIsRefused(Agent agent, String id) {
    assertThatThrownBy(() -> agent.runText("more", AgentInit.continueFrom(id)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("is still being aborted");
  }

  /**
   * A store whose writes of one row, once asked to, wait until released, counting them and those
   * waiting.
   */
  private static final class StallingStore extends ForwardingSessionStore {
    private final AtomicReference<@Nullable String> watched = new AtomicReference<>();
    private final CountDownLatch released = new CountDownLatch(1);
    final AtomicInteger writes = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();

    StallingStore(InMemorySessionStore delegate) {
      super(delegate);
    }

    void stall(String snapshotId) {
      watched.set(snapshotId);
    }

    void release() {
      released.countDown();
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      if (snapshotId != null && snapshotId.equals(watched.get())) {
        writes.incrementAndGet();
        inFlight.incrementAndGet();
        try {
          assertThat(released.await(10, TimeUnit.SECONDS)).as("the test released it").isTrue();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          inFlight.decrementAndGet();
        }
      }
      return super.saveSnapshot(context, snapshotId, update);
    }
  }
}
