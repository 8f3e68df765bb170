package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A wait on an aborted run still saving its progress returns soon after the save lands, although
 * the save changes only the finish reason, which no status notification reports; until then the row
 * reads as not settled.
 */
class WaitForAbortedRunTest extends AgentTestSupport {

  /** The store, counting snapshot reads. */
  static final class CountingStore extends ForwardingSessionStore {
    final AtomicInteger reads = new AtomicInteger();

    CountingStore(dev.baton.agent.store.InMemorySessionStore store) {
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
   * opens {@link #saving}.
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
                return AgentFinishReason.STOP;
              });
          return runner.result();
        },
        AgentOptions.builder()
            .sessionStore(counting)
            .heartbeat(Duration.ofSeconds(30), Duration.ofSeconds(60))
            .waitPollInterval(Duration.ofMillis(20))
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
    assertThat(slow.snapshots().abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    return Objects.requireNonNull(detached.snapshotId());
  }

  @Test
  void aWaitOnAnAbortingRunReturnsAtThePollIntervalNotTheHeartbeatInterval() throws Exception {
    Agent slow = slowToStop();
    String snapshotId = detachAndAbort(slow);

    int before = counting.reads.get();
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> slow.snapshots().waitFor(snapshotId));
    // The wait has read the row as still saving, more than once, before the save lands.
    await().atMost(Duration.ofSeconds(10)).until(() -> counting.reads.get() >= before + 3);
    saving.countDown();

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }

  @Test
  void anAbortedRowStillBeingSavedIsNotSettledAndTheWaitReturnsItSettled() throws Exception {
    Agent slow = slowToStop();
    String snapshotId = detachAndAbort(slow);

    SessionSnapshot aborting = slow.snapshots().get(snapshotId);
    assertThat(aborting.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(aborting.isSettled()).as("read while its worker saves its progress").isFalse();

    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> slow.snapshots().waitFor(snapshotId));
    saving.countDown();

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.isSettled()).isTrue();
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }
}
