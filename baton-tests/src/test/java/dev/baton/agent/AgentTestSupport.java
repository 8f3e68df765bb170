package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.FakeTime;
import dev.baton.testing.ForwardingSessionStore;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.awaitility.core.ConditionFactory;
import org.jspecify.annotations.Nullable;

/**
 * What the agent runtime tests share: a fresh experimental {@link Baton} with a programmable model
 * "pm" and an in-memory store per test, agent builders, and a store that fails on demand. A class
 * whose tests are about time (heartbeats, expiry, waits) runs its instance on {@link #time}.
 */
abstract class AgentTestSupport {
  final FakeTime time = FakeTime.create();
  final Baton baton =
      onFakeTime()
          ? Baton.builder().experimental().clock(time).scheduler(time.scheduler()).build()
          : Baton.builder().experimental().build();
  final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  final InMemorySessionStore store = InMemorySessionStore.create();

  /**
   * Whether the instance reads its clock from {@link #time} and runs its timers on its scheduler,
   * so heartbeats beat, rows expire and waits re-read only when a test advances the time. Called
   * while the instance is built: return a constant.
   */
  boolean onFakeTime() {
    return false;
  }

  /**
   * Awaitility for what another thread does at once, such as a beat's write after the time moved:
   * checked straight away, then often, since fake time leaves nothing to wait out.
   */
  static ConditionFactory promptly() {
    return await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(2));
  }

  AgentOptions.Builder server() {
    return server(store);
  }

  static AgentOptions.Builder server(SessionStore store) {
    return AgentOptions.builder()
        .sessionStore(store)
        .heartbeat(Duration.ofMillis(50), Duration.ofMillis(400))
        .waitPollInterval(Duration.ofMillis(10));
  }

  Agent chat(AgentOptions options) {
    return baton.defineAgent(
        "chat", InlinePrompt.builder().model("pm").system("Be brief.").build(), options);
  }

  static ModelResponse reply(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }

  /** A custom agent whose turns wait for a gate (or cancellation), then answer "done". */
  Agent gated(String name, CountDownLatch entered, CountDownLatch gate, AgentOptions options) {
    return baton.defineCustomAgent(
        name,
        runner -> {
          runner.run(
              (ctx, input) -> {
                entered.countDown();
                awaitOrCancel(ctx, gate);
                runner.session().addMessage(Message.model("done"));
                return TurnResult.STOP;
              });
          return runner.result();
        },
        options);
  }

  static void awaitOrCancel(ActionContext ctx, CountDownLatch gate) {
    try (var wake = ctx.cancellation().onCancel(gate::countDown)) {
      assertThat(gate.await(60, TimeUnit.SECONDS)).as("the test opened the gate").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    ctx.cancellation().throwIfCancelled();
  }

  /**
   * A store that refuses every write while {@code down} is set, as a dead disk would; fails as many
   * snapshot reads as {@code failingReads} says, as a flaky connection would; and hangs as many as
   * {@code hangingReads} says until their thread is interrupted, as a dead connection would.
   */
  static final class FlakyStore extends ForwardingSessionStore {
    private final AtomicBoolean down;
    private final AtomicInteger failingReads;
    private final AtomicInteger hangingReads;

    <S extends SessionStore & SnapshotSubscriber> FlakyStore(
        S delegate, AtomicBoolean down, AtomicInteger failingReads, AtomicInteger hangingReads) {
      super(delegate);
      this.down = down;
      this.failingReads = failingReads;
      this.hangingReads = hangingReads;
    }

    <S extends SessionStore & SnapshotSubscriber> FlakyStore(S delegate, AtomicBoolean down) {
      this(delegate, down, new AtomicInteger(), new AtomicInteger());
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      if (failingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new IllegalStateException("connection reset");
      }
      if (hangingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        try {
          new CountDownLatch(1).await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("read interrupted", e);
        }
      }
      return super.getSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      if (down.get()) {
        throw BatonException.of(Status.UNAVAILABLE, "disk gone");
      }
      return super.saveSnapshot(context, snapshotId, update);
    }
  }
}
