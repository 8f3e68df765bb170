package dev.baton.store.postgres;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Connections that the database or the pool loses in the middle of the store's work: the caller
 * gets {@code UNAVAILABLE}, the outage it is, never an internal error, and nothing is written twice
 * when a write whose commit went unacknowledged is made again.
 */
class PostgresConnectionLossTest {
  private final ActionContext context = Baton.builder().build().context();
  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private final String applicationName = "baton-loss-" + schema.name;
  private final HikariDataSource pool = TestDatabase.pool(2, applicationName);
  private final FaultyDataSource faulty = new FaultyDataSource(pool);

  @AfterEach
  void close() throws SQLException {
    schema.close();
    pool.close();
  }

  private static void assertUnavailable(BatonException e) {
    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.isPublic()).isTrue();
    assertThat(e.getMessage()).contains("the database is unavailable");
  }

  @Test
  void aServerProcessEndedInsideASaveAnswersUnavailableAndWritesNothing() {
    PostgresSessionStore store = schema.open(pool, options -> options);
    store.getSnapshot(context, "warm-up"); // creates the tables

    assertThatThrownBy(
            () ->
                store.saveSnapshot(
                    context,
                    "s1",
                    existing -> {
                      // The row is locked and the transaction open: its server process ends now.
                      try {
                        TestDatabase.awaitGone(
                            schema.dataSource,
                            TestDatabase.terminateBackends(schema.dataSource, applicationName));
                      } catch (SQLException e) {
                        throw new AssertionError(e);
                      }
                      return row("s1", "sess-1", at(1));
                    }))
        .isInstanceOfSatisfying(
            BatonException.class, PostgresConnectionLossTest::assertUnavailable);
    assertThat(store.getSnapshot(context, "s1")).isNull();
  }

  @Test
  void aConnectionThePoolClosesUnderASaveAnswersUnavailable() {
    PostgresSessionStore store = schema.open(faulty.dataSource(), options -> options);
    store.getSnapshot(context, "warm-up");

    assertThatThrownBy(
            () ->
                store.saveSnapshot(
                    context,
                    "s1",
                    existing -> {
                      faulty.closeUnderUsers();
                      return row("s1", "sess-1", at(1));
                    }))
        .isInstanceOfSatisfying(
            BatonException.class, PostgresConnectionLossTest::assertUnavailable);
    assertThat(store.getSnapshot(context, "s1")).isNull();
  }

  @Test
  void aTurnWhoseCommitWentUnacknowledgedIsSavedOnceWhenTheAgentSavesItAgain() throws SQLException {
    PostgresSessionStore store = schema.open(faulty.dataSource(), options -> options);
    Baton baton = Baton.builder().experimental().build();
    ProgrammableModel.define(baton.registry(), "pm").respondText("hi");
    Agent agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(store).build());
    store.getSnapshot(context, "warm-up");
    faulty.loseCommitAcknowledgements(1);

    AgentOutput output = agent.runText("hello");

    assertThat(output.isFailed()).as("%s", output.error()).isFalse();
    SessionSnapshot saved = schema.open().getSnapshot(context, output.snapshotId());
    assertThat(saved.state().messages()).extracting(Message::text).containsExactly("hello", "hi");
    assertThat(schema.count("SELECT count(*) FROM {s}.baton_snapshots")).isOne();
    assertThat(schema.count("SELECT count(*) FROM {s}.baton_messages")).isEqualTo(2);
    assertThat(schema.open().getLatestSnapshot(context, output.sessionId()).snapshotId())
        .isEqualTo(output.snapshotId());
  }
}
