package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionContext;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/** How a detached run's heartbeat behaves when the store is slow. */
class HeartbeatTest extends AgentTestSupport {

  @Test
  void aBeatStillWritingMakesTheNextOnesSkipRatherThanPileUp() {
    StallingStore stalling = new StallingStore(InMemorySessionStore.create());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "slow-store",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(stalling)
                .heartbeat(Duration.ofMillis(20), Duration.ofSeconds(10))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);

    stalling.stall(detached.snapshotId());
    await().until(() -> stalling.inFlight.get() == 1);
    // A dozen beats fall due while the first is stuck; none of them starts another write.
    await()
        .during(Duration.ofMillis(250))
        .atMost(Duration.ofSeconds(5))
        .until(() -> stalling.inFlight.get() == 1);

    stalling.release();
    gate.countDown();
    SessionSnapshot settled =
        await()
            .until(
                () -> agent.snapshots().get(detached.snapshotId()),
                row -> row.status() == SnapshotStatus.COMPLETED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.STOP);
  }

  /**
   * A store whose writes of one row, once asked to, wait until released, counting those waiting.
   */
  private static final class StallingStore extends ForwardingSessionStore {
    private final AtomicReference<@Nullable String> stalled = new AtomicReference<>();
    private final CountDownLatch released = new CountDownLatch(1);
    final AtomicInteger inFlight = new AtomicInteger();

    StallingStore(InMemorySessionStore delegate) {
      super(delegate);
    }

    void stall(String snapshotId) {
      stalled.set(snapshotId);
    }

    void release() {
      stalled.set(null);
      released.countDown();
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      if (snapshotId != null && snapshotId.equals(stalled.get())) {
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
