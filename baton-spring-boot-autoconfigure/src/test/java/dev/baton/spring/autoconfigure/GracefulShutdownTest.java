package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing the application closes Baton gracefully: the turns and detached runs in flight get the
 * shutdown grace, then are aborted, so that a detached run settles as an {@code aborted} row that
 * the next start of the application continues from the same store.
 */
class GracefulShutdownTest {
  private final String schema = TestDatabase.newSchemaName();
  private final CountDownLatch gate = new CountDownLatch(1);

  @TempDir Path directory;

  @AfterEach
  void cleanUp() throws SQLException {
    gate.countDown();
    TestDatabase.dropSchema(schema);
  }

  private static ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(TestApplication.class)
        .web(WebApplicationType.NONE)
        .properties(Contexts.NO_PROVIDER_VARIABLES)
        .properties(properties)
        .run();
  }

  /** Detaches a turn whose model call waits for {@link #gate}, and returns once the call waits. */
  private AgentOutput detachALongJob(ConfigurableApplicationContext context)
      throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    context
        .getBean(ProgrammableModel.class)
        .step()
        .signalOnEntry(entered)
        .blockUntil(gate)
        .respondText("finished in time");
    AgentOutput detached =
        context
            .getBean(Agent.class)
            .run(
                context.getBean(Baton.class).context(),
                AgentInput.text("a long job").withDetach(true),
                AgentInit.NEW,
                StreamCallback.discard());
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    assertThat(entered.await(10, TimeUnit.SECONDS)).as("the model call waits").isTrue();
    return detached;
  }

  /** Closes the context, which must not take the default 30 s grace. */
  private static void close(ConfigurableApplicationContext context) throws Exception {
    CompletableFuture.runAsync(context::close).get(20, TimeUnit.SECONDS);
  }

  /**
   * A second start on the same store finds the aborted row and continues it: the unfinished turn
   * runs again and answers.
   */
  private static void continueAfterRestart(String snapshotId, String... properties) {
    try (ConfigurableApplicationContext restarted = start(properties)) {
      Agent agent = restarted.getBean(Agent.class);
      SessionSnapshot row = agent.snapshots().get(snapshotId);
      assertThat(row.status()).isEqualTo(SnapshotStatus.ABORTED);
      assertThat(row.finishReason()).as("settled").isEqualTo(AgentFinishReason.ABORTED);
      assertThat(row.state().messages()).extracting(Message::text).containsExactly("a long job");

      ProgrammableModel model = restarted.getBean(ProgrammableModel.class);
      model.respondText("done after the restart");
      AgentOutput continued =
          agent.run(
              restarted.getBean(Baton.class).context(),
              AgentInput.retryTurn(),
              AgentInit.continueFrom(snapshotId),
              StreamCallback.discard());
      assertThat(continued.error()).isNull();
      assertThat(continued.message().text()).isEqualTo("done after the restart");
      assertThat(model.lastRequest().messages())
          .extracting(Message::text)
          .as("the job it was handed, re-attempted")
          .containsExactly("Be brief.", "a long job");
    }
  }

  @Test
  void aDetachedRunLeftAfterBootsPhaseTimeoutSettlesAbortedInTheFileStoreAndContinuesAfterRestart()
      throws Exception {
    String[] properties = {
      "baton.store.file.directory=" + directory, "spring.lifecycle.timeout-per-shutdown-phase=100ms"
    };
    ConfigurableApplicationContext context = start(properties);
    AgentOutput detached = detachALongJob(context);

    close(context);

    continueAfterRestart(detached.snapshotId(), properties);
  }

  @Test
  void aDetachedRunLeftAfterTheBatonGraceSettlesAbortedInPostgresAndContinuesAfterRestart()
      throws Exception {
    String[] properties =
        Stream.concat(
                Stream.of(TestDatabase.postgresProperties(schema)),
                Stream.of("baton.shutdown-grace=100ms"))
            .toArray(String[]::new);
    ConfigurableApplicationContext context = start(properties);
    AgentOutput detached = detachALongJob(context);

    close(context);

    continueAfterRestart(detached.snapshotId(), properties);
  }

  @Test
  void theCloseWaitsWithinTheGraceForARunThatEnds() throws Exception {
    ConfigurableApplicationContext context =
        start("baton.store.file.directory=" + directory, "baton.shutdown-grace=1m");
    AgentOutput detached = detachALongJob(context);
    Agent agent = context.getBean(Agent.class);
    Baton baton = context.getBean(Baton.class);

    CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
    await().atMost(Duration.ofSeconds(10)).until(() -> refusesTurns(agent, baton));
    assertThat(closing).as("the close waits for the run").isNotDone();
    gate.countDown();
    closing.get(20, TimeUnit.SECONDS);

    SessionSnapshot row =
        FileSessionStore.builder(directory)
            .build()
            .getSnapshot(baton.context(), detached.snapshotId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(row.state().messages().getLast().text()).isEqualTo("finished in time");
  }

  private static boolean refusesTurns(Agent agent, Baton baton) {
    try {
      agent.connect(baton.context(), AgentInit.NEW).close();
      return false;
    } catch (BatonException e) {
      return e.status() == Status.FAILED_PRECONDITION;
    }
  }
}
