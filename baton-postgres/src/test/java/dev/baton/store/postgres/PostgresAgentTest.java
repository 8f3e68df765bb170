package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Agents on two machines (two Baton instances, each with its own store instance over one schema): a
 * wait on one wakes when a run on the other settles, and an abort on one stops a run on the other.
 * Heartbeats are far apart here, so only a notification can end a wait in time.
 */
class PostgresAgentTest {
  private static final Duration SLOW_BEATS = Duration.ofSeconds(20);

  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch gate = new CountDownLatch(1);
  private final WatchedStore storeB = new WatchedStore(schema.open());
  private final Agent machineA = worker(schema.open());
  private final Agent machineB = worker(storeB);
  // The client's context: the two machines' agents run and wait in it.
  private final ActionContext context = Baton.builder().build().context();

  @AfterEach
  void dropSchema() throws SQLException {
    gate.countDown();
    schema.close();
  }

  /** A custom agent whose turn waits for {@link #gate} (or its cancellation), then answers. */
  private Agent worker(SessionStore store) {
    Baton baton = Baton.builder().experimental().build();
    return baton.defineCustomAgent(
        "worker",
        runner -> {
          runner.run(
              (context, input) -> {
                entered.countDown();
                try (var wake = context.cancellation().onCancel(gate::countDown)) {
                  assertThat(gate.await(60, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                  throw new AssertionError(e);
                }
                context.cancellation().throwIfCancelled();
                runner.session().addMessage(Message.model("done"));
                return AgentFinishReason.STOP;
              });
          return runner.result();
        },
        AgentOptions.builder()
            .sessionStore(store)
            .heartbeat(SLOW_BEATS, SLOW_BEATS.multipliedBy(3))
            .waitPollInterval(SLOW_BEATS)
            .build());
  }

  @Test
  void aWaitOnOneMachineWakesWhenTheRunOnAnotherCompletes() throws Exception {
    AgentOutput detached = machineA.run(context, AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> machineB.snapshots().waitFor(detached.snapshotId()));
    // B's wait has subscribed and then read the run as pending, and B's store listens: from now on
    // only a notification can wake the wait in time.
    assertThat(storeB.readPendingSinceSubscribing.await(10, TimeUnit.SECONDS)).isTrue();
    await().atMost(Duration.ofSeconds(10)).until(storeB.store::listenerPid, Objects::nonNull);

    gate.countDown();

    // Well before the wait's own re-read (every 20 s): the notification woke it.
    SessionSnapshot settled = waiting.get(5, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("go", "done");
  }

  /**
   * B's store, which tells the test when a wait has subscribed to a row and read it as pending
   * after that.
   */
  private static final class WatchedStore implements SessionStore, SnapshotSubscriber {
    final PostgresSessionStore store;
    final CountDownLatch subscribed = new CountDownLatch(1);
    final CountDownLatch readPendingSinceSubscribing = new CountDownLatch(1);

    WatchedStore(PostgresSessionStore store) {
      this.store = store;
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      SessionSnapshot row = store.getSnapshot(context, snapshotId);
      if (subscribed.getCount() == 0 && row != null && row.status() == SnapshotStatus.PENDING) {
        readPendingSinceSubscribing.countDown();
      }
      return row;
    }

    @Override
    public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
      return store.getLatestSnapshot(context, sessionId);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      return store.saveSnapshot(context, snapshotId, update);
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      StatusSubscription subscription = store.onSnapshotStatusChange(context, snapshotId);
      subscribed.countDown();
      return subscription;
    }
  }

  @Test
  void anAbortOnOneMachineStopsTheRunOnAnother() {
    AgentOutput detached = machineA.run(context, AgentInput.text("work").withDetach(true));
    await().until(() -> entered.getCount() == 0);

    assertThat(machineB.snapshots().abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);

    SessionSnapshot settled =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> machineB.snapshots().get(detached.snapshotId()),
                s -> s.finishReason() != null);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("work");
  }
}
