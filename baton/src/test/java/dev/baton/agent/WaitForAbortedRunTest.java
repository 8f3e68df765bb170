package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A wait on an aborted run still saving its progress returns soon after the save lands, although
 * the save changes only the finish reason, which no status notification reports.
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

  @Test
  void aWaitOnAnAbortingRunReturnsAtThePollIntervalNotTheHeartbeatInterval() throws Exception {
    CountingStore counting = new CountingStore(store);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch saving = new CountDownLatch(1);
    // A run that, once aborted, takes its time to stop (and so to save its progress).
    Agent slow =
        baton.defineCustomAgent(
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
                .waitPollInterval(Duration.ofMillis(20))
                .build());
    AgentOutput detached =
        slow.run(
            baton.context(),
            AgentInput.text("work").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(slow.abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);

    int before = counting.reads.get();
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> slow.waitForSnapshot(detached.snapshotId()));
    // The wait has read the row as still saving, more than once, before the save lands.
    await().atMost(Duration.ofSeconds(10)).until(() -> counting.reads.get() >= before + 3);
    saving.countDown();

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }
}
