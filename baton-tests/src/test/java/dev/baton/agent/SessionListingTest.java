package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * An agent's sessions as {@link AgentSnapshots#sessions} lists them: the principal's own, with what
 * they spent, shaped as reads shape rows; and the query's bounds.
 */
class SessionListingTest extends AgentTestSupport {

  private ActionContext as(String principal) {
    return baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, principal));
  }

  private AgentOutput turn(Agent agent, ActionContext context, String text, AgentInit init) {
    return agent.run(context, AgentInput.text(text), init, StreamCallback.discard());
  }

  private static ModelResponse spending(String text, int input, int output) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP)
        .withUsage(GenerationUsage.builder().inputTokens(input).outputTokens(output).build());
  }

  @Test
  void aPrincipalListsItsOwnSessionsWithWhatTheySpent() {
    Agent chat = chat(server().build());
    model.respond(spending("one", 10, 2), spending("two", 30, 4), spending("bob's", 7, 7));
    AgentOutput first = turn(chat, as("alice"), "hello", AgentInit.NEW);
    turn(chat, as("alice"), "go on", AgentInit.ofSession(first.sessionId()));
    turn(chat, as("bob"), "hi", AgentInit.NEW);

    SessionPage alices = chat.snapshots(as("alice")).sessions(SessionQuery.firstPage());

    assertThat(alices.sessions()).hasSize(1);
    SessionSummary session = alices.sessions().getFirst();
    assertThat(session.sessionId()).isEqualTo(first.sessionId());
    assertThat(session.turns()).isEqualTo(2);
    assertThat(session.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(session.spend())
        .extracting(GenerationUsage::inputTokens, GenerationUsage::outputTokens)
        .containsExactly(40, 6);
    assertThat(chat.snapshots(as("alice")).get(session.latestSnapshotId())).isNotNull();
    // No principal sees none of the principals' sessions.
    assertThat(chat.snapshots().sessions(SessionQuery.firstPage()).sessions()).isEmpty();
  }

  @Test
  void aSessionWhoseWorkerStoppedBeatingListsAsExpired() {
    Agent chat = chat(server().build());
    Instant longAgo = Instant.now().minus(Duration.ofHours(1));
    store.saveSnapshot(
        baton.context(), "p1", existing -> SessionSnapshot.pending("p1", "sess-1", null, longAgo));

    SessionSummary session =
        chat.snapshots().sessions(SessionQuery.firstPage()).sessions().getFirst();

    assertThat(session.status()).isEqualTo(SnapshotStatus.EXPIRED);
  }

  @Test
  void anAgentWithoutAStoreCannotList() {
    Agent chat = chat(AgentOptions.builder().build());

    assertThatThrownBy(() -> chat.snapshots().sessions(SessionQuery.firstPage()))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
  }

  @Test
  void aStoreWithoutListingSaysSo() {
    SessionStore readOnly =
        new SessionStore() {
          @Override
          public SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
            return null;
          }

          @Override
          public SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
            return null;
          }

          @Override
          public SessionSnapshot saveSnapshot(
              ActionContext context, String snapshotId, UnaryOperator<SessionSnapshot> update) {
            return null;
          }
        };
    Agent chat = chat(server(readOnly).build());

    assertThatThrownBy(() -> chat.snapshots().sessions(SessionQuery.firstPage()))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNIMPLEMENTED);
              // The error can reach a console client: it names no implementation class.
              assertThat(e.getMessage())
                  .isEqualTo("this session store cannot list its sessions")
                  .doesNotContain(readOnly.getClass().getName());
            });
  }

  @Test
  void theLimitHasADefaultAndAMaximum() {
    assertThat(SessionQuery.firstPage().withLimit(0).limit()).isEqualTo(SessionQuery.DEFAULT_LIMIT);
    assertThat(SessionQuery.firstPage().withLimit(100_000).limit())
        .isEqualTo(SessionQuery.MAX_LIMIT);
    assertThatThrownBy(() -> SessionQuery.firstPage().withLimit(-1))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }
}
