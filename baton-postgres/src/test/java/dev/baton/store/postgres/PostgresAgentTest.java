package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.TurnResult;
import dev.baton.ai.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
  private final Agent machineA = worker(schema.open());
  private final Agent machineB = worker(schema.open());

  @AfterEach
  void dropSchema() throws SQLException {
    gate.countDown();
    schema.close();
  }

  /** A custom agent whose turn waits for {@link #gate} (or its cancellation), then answers. */
  private Agent worker(PostgresSessionStore store) {
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
                return TurnResult.STOP;
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
    AgentOutput detached = machineA.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> machineB.waitForSnapshot(detached.snapshotId()));
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> machineB.getSnapshot(detached.snapshotId()).status() == SnapshotStatus.PENDING);

    gate.countDown();

    // Well before the wait's own re-read (every 20 s): the notification woke it.
    SessionSnapshot settled = waiting.get(5, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("go", "done");
  }

  @Test
  void anAbortOnOneMachineStopsTheRunOnAnother() {
    AgentOutput detached = machineA.run(AgentInput.text("work").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);

    assertThat(machineB.abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);

    SessionSnapshot settled =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> machineB.getSnapshot(detached.snapshotId()), s -> s.finishReason() != null);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("work");
  }
}
