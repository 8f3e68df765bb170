package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.PATH;
import static dev.baton.middleware.agents.SubAgentTeam.answer;
import static dev.baton.middleware.agents.SubAgentTeam.approve;
import static dev.baton.middleware.agents.SubAgentTeam.failure;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.taskSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.RowsOnly;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Retrying an answer to a forwarded sub-agent interrupt after it failed: from the same orchestrator
 * snapshot, with the same answer, a retry folds what the sub-agent already answered, or answers a
 * turn the failed attempt left as it was; it never runs the sub-agent twice for one answer.
 */
@Timeout(30)
class ForwardedAnswerRetryTest {
  @AutoClose final SubAgentTeams teams = new SubAgentTeams();

  /**
   * Approves the held write: the coder writes and finishes its turn, then the orchestrator's model
   * fails. The status the answer failed with.
   */
  private static Status failAfterTheCoderAnswered(SubAgentTeam team, AgentOutput asked) {
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.step().fail(BatonException.of(Status.UNAVAILABLE, "the model is down"));
    return failure(
        () -> team.resume(team.baton.context(), asked.snapshotId(), approve(held(asked))));
  }

  @Test
  void aRetryAfterTheOrchestratorFailedFoldsWhatTheSubAgentAnsweredWithoutRunningItAgain() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    assertThat(failAfterTheCoderAnswered(team, asked)).isEqualTo(Status.UNAVAILABLE);
    assertThat(team.writes).hasSize(1);
    int coderCalls = team.coderModel.calls();

    team.orchestratorModel.respondText("The coder wrote it.");
    AgentOutput retried = team.resume(team.baton.context(), asked.snapshotId(), approve(held));

    assertThat(retried.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(retried.text()).isEqualTo("The coder wrote it.");
    assertThat(team.delegationOutput("d1").path("response").asString()).isEqualTo("Wrote " + PATH);
    assertThat(team.delegationOutput("d1").path("status").asString()).isEqualTo("completed");
    assertThat(team.writes).hasSize(1);
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
  }

  @Test
  void aDifferentAnswerAfterTheSubAgentAnsweredIsRefused() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    failAfterTheCoderAnswered(team, asked);
    int orchestratorCalls = team.orchestratorModel.calls();

    // The coder wrote the file on the approval: a refusal now cannot stand for its turn.
    Status refused =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), answer(held, "No.")));

    assertThat(refused).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(team.orchestratorModel.calls()).isEqualTo(orchestratorCalls);
    assertThat(team.writes).hasSize(1);
  }

  @Test
  void aSubAgentTurnThatSavedNothingIsGivenBackAndARetryAnswersIt() {
    FailingOnce coderRows = new FailingOnce(InMemorySessionStore.create());
    SubAgentTeam team = teams.withCoderStore(coderRows);
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    String heldTurn = taskSnapshot(held);
    // The coder's turn after the answer cannot be saved: its session stays on the held turn.
    coderRows.failNextSave(snapshotId -> !heldTurn.equals(snapshotId));
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder could not finish.");
    AgentOutput first = team.resume(team.baton.context(), asked.snapshotId(), approve(held));
    assertThat(first.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.delegationOutput("d1").path("response").asString())
        .startsWith("Error calling agent \"coder\"");

    team.coderModel.respondText("Wrote " + PATH + " again");
    team.orchestratorModel.respondText("The coder wrote it.");
    AgentOutput retried = team.resume(team.baton.context(), asked.snapshotId(), approve(held));

    assertThat(retried.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.delegationOutput("d1").path("response").asString())
        .isEqualTo("Wrote " + PATH + " again");
    SessionSnapshot row = team.coder.snapshots().get(heldTurn);
    assertThat(team.coder.snapshots().latest(row.sessionId()).parentId()).isEqualTo(heldTurn);
  }

  /** A store whose next save of a row the test names fails, once, with a lasting error. */
  private static final class FailingOnce extends RowsOnly {
    private volatile @Nullable Predicate<String> failing;

    FailingOnce(SessionStore rows) {
      super(rows);
    }

    void failNextSave(Predicate<String> snapshotIds) {
      failing = snapshotIds;
    }

    @Override
    public synchronized @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      Predicate<String> fails = failing;
      if (fails != null && snapshotId != null && fails.test(snapshotId)) {
        failing = null;
        throw BatonException.of(Status.INTERNAL, "the disk is full");
      }
      return super.saveSnapshot(context, snapshotId, update);
    }
  }
}
