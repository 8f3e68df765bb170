package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.PATH;
import static dev.baton.middleware.agents.SubAgentTeam.calls;
import static dev.baton.middleware.agents.SubAgentTeam.delegate;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.tokens;
import static dev.baton.middleware.agents.SubAgentTeam.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.budget.BudgetDecision;
import dev.baton.middleware.budget.BudgetExceeded;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * A sub-agent's Budget hold, forwarded ({@link Agents#forwardInterrupts}): the caller decides it
 * with the Budget decision API on the orchestrator's wrapped interrupt, and the decision reaches
 * the sub-agent's Budget, not the orchestrator's.
 */
@Timeout(30)
class BudgetInterruptsTest {
  @AutoClose final SubAgentTeams teams = new SubAgentTeams();

  /**
   * The team with the coder's own budget pausing at 100 tokens in place of its approval hold; the
   * orchestrator's chain also holds {@code orchestratorMiddleware}.
   */
  private SubAgentTeam team(Middleware... orchestratorMiddleware) {
    return teams.add(
        new SubAgentTeam(
            InMemorySessionStore.create(),
            InMemorySessionStore.create(),
            Budget.perRun(tokens(100)).withInterrupt(true),
            delegation -> delegation.forwardInterrupts(true),
            orchestratorMiddleware));
  }

  /** The orchestrator delegates; the coder's first call spends 120 tokens, so its write is held. */
  private static AgentOutput heldOverBudget(SubAgentTeam team) {
    team.orchestratorModel.respond(calls(GenerationUsage.EMPTY, delegate("d1", "Write it")));
    team.coderModel.respond(calls(tokens(120), write("w1", PATH)));
    return team.orchestrator.runText("Build it");
  }

  private static AgentOutput resume(SubAgentTeam team, AgentOutput asked, Resume resume) {
    return team.resume(team.baton.context(), asked.snapshotId(), resume);
  }

  @Test
  void theWrappedHoldReadsAsABudgetHoldOnTheOrchestrator() {
    SubAgentTeam team = team();
    AgentOutput asked = heldOverBudget(team);

    ToolRequestPart held = held(asked);
    assertThat(held.toolRequest().name()).isEqualTo("delegate_to_coder");
    BudgetExceeded report = Budget.interrupted(held).orElseThrow();
    assertThat(report.spent()).isEqualTo(Map.of("totalTokens", 120.0));
    assertThat(report.limit()).isEqualTo(Map.of("totalTokens", 100.0));
    assertThat(held.metadata().path("interrupt").path(Agents.SUB_AGENT).path("agent").asString())
        .isEqualTo("coder");
    assertThat(team.writes).isEmpty();
  }

  @Test
  void anApprovalReachesTheSubAgentsBudgetAndItsTurnGoesOn() {
    SubAgentTeam team = team();
    AgentOutput asked = heldOverBudget(team);
    team.coderModel.respond(
        ModelResponse.of(Message.model("Wrote " + PATH), FinishReason.STOP).withUsage(tokens(10)));
    team.orchestratorModel.respondText("The coder wrote it.");

    AgentOutput done =
        resume(team, asked, Resume.restart(BudgetDecision.approve().restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    // Approved with the full limit again: the coder's next call (10 tokens) was not held.
    JsonNode result = team.delegationOutput("d1");
    assertThat(result.path("response").asString()).isEqualTo("Wrote " + PATH);
    assertThat(result.path("status").asString()).isEqualTo("completed");
  }

  @Test
  void aRefusalStopsTheSubAgentsTurnBeforeTheHeldCallRuns() {
    SubAgentTeam team = team();
    AgentOutput asked = heldOverBudget(team);
    int coderCalls = team.coderModel.calls();
    team.orchestratorModel.respondText("The coder ran out of budget.");

    AgentOutput done =
        resume(
            team,
            asked,
            Resume.restart(BudgetDecision.refuse("too expensive").restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder ran out of budget.");
    assertThat(team.writes).isEmpty();
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
    JsonNode result = team.delegationOutput("d1");
    assertThat(result.path("status").asString()).isEqualTo("aborted");
  }

  @Test
  void theDecisionIsTheSubAgentsAloneNotTheOrchestratorsOwnBudgets() {
    // The orchestrator's own pausing budget is far from its limit: the wrapped hold is not its.
    SubAgentTeam team = team(Budget.perRun(tokens(10_000)).withInterrupt(true));
    AgentOutput asked = heldOverBudget(team);
    team.orchestratorModel.respondText("The coder ran out of budget.");

    AgentOutput done =
        resume(
            team,
            asked,
            Resume.restart(BudgetDecision.refuse("too expensive").restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder ran out of budget.");
    assertThat(team.writes).isEmpty();
  }
}
