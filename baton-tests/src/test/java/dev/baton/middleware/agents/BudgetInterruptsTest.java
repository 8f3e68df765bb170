package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.budget.BudgetDecision;
import dev.baton.middleware.budget.BudgetExceeded;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
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
  private static final String PATH = "src/Main.java";

  private final Baton baton = Baton.builder().experimental().build();
  private final ProgrammableModel orchestratorModel =
      ProgrammableModel.define(baton.registry(), "orch");
  private final ProgrammableModel coderModel =
      ProgrammableModel.define(baton.registry(), "coder-model");
  private final List<JsonNode> writes = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    baton.close();
  }

  /**
   * An orchestrator delegating to {@code coder}, whose own budget pauses at 100 tokens; the
   * orchestrator's chain also holds {@code orchestratorMiddleware}.
   */
  private Agent orchestrator(Middleware... orchestratorMiddleware) {
    var writeFile =
        baton.defineJsonTool(
            "write_file",
            "Writes a file.",
            null,
            null,
            (ctx, in) -> {
              writes.add(in);
              return Json.nodes().stringNode("written");
            });
    Agent coder =
        baton.defineAgent(
            "coder",
            InlinePrompt.builder()
                .model("coder-model")
                .tools(writeFile)
                .use(Budget.perRun(total(100)).withInterrupt(true))
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    var prompt =
        InlinePrompt.builder()
            .model("orch")
            .use(Agents.builder().agents(coder.ref()).forwardInterrupts(true).build());
    for (Middleware middleware : orchestratorMiddleware) {
      prompt.use(middleware);
    }
    return baton.defineAgent(
        "orchestrator",
        prompt.build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  /** The orchestrator delegates; the coder's first call spends 120 tokens, so its write is held. */
  private AgentOutput heldOverBudget(Agent orchestrator) {
    orchestratorModel.respond(
        calls(
            GenerationUsage.EMPTY,
            Part.toolRequest("delegate_to_coder", "d1", Json.object().put("task", "Write it"))));
    coderModel.respond(
        calls(total(120), Part.toolRequest("write_file", "w1", Json.object().put("path", PATH))));
    return orchestrator.runText("Build it");
  }

  private AgentOutput resume(Agent orchestrator, AgentOutput asked, Resume resume) {
    return orchestrator.run(
        baton.context(),
        AgentInput.resume(resume),
        AgentInit.ofSnapshot(asked.snapshotId()),
        StreamCallback.discard());
  }

  private static GenerationUsage total(int tokens) {
    return GenerationUsage.builder().totalTokens(tokens).build();
  }

  private static ModelResponse calls(GenerationUsage usage, ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP)
        .withUsage(usage);
  }

  private static ToolRequestPart held(AgentOutput output) {
    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    List<ToolRequestPart> interrupts =
        output.message().toolRequests().stream()
            .filter(p -> p.metadata() != null && p.metadata().has("interrupt"))
            .toList();
    assertThat(interrupts).hasSize(1);
    return interrupts.get(0);
  }

  /** The output of the delegation the orchestrator's model was sent last. */
  private JsonNode delegationOutput() {
    List<Message> messages = orchestratorModel.lastRequest().messages();
    return messages.get(messages.size() - 1).toolResponses().get(0).toolResponse().output();
  }

  @Test
  void theWrappedHoldReadsAsABudgetHoldOnTheOrchestrator() {
    AgentOutput asked = heldOverBudget(orchestrator());

    ToolRequestPart held = held(asked);
    assertThat(held.toolRequest().name()).isEqualTo("delegate_to_coder");
    BudgetExceeded report = Budget.interrupted(held).orElseThrow();
    assertThat(report.spent()).isEqualTo(Map.of("totalTokens", 120.0));
    assertThat(report.limit()).isEqualTo(Map.of("totalTokens", 100.0));
    assertThat(held.metadata().path("interrupt").path(Agents.SUB_AGENT).path("agent").asString())
        .isEqualTo("coder");
    assertThat(writes).isEmpty();
  }

  @Test
  void anApprovalReachesTheSubAgentsBudgetAndItsTurnGoesOn() {
    Agent orchestrator = orchestrator();
    AgentOutput asked = heldOverBudget(orchestrator);
    coderModel.respond(
        ModelResponse.of(Message.model("Wrote " + PATH), FinishReason.STOP).withUsage(total(10)));
    orchestratorModel.respondText("The coder wrote it.");

    AgentOutput done =
        resume(orchestrator, asked, Resume.restart(BudgetDecision.approve().restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    // Approved with the full limit again: the coder's next call (10 tokens) was not held.
    JsonNode result = delegationOutput();
    assertThat(result.path("response").asString()).isEqualTo("Wrote " + PATH);
    assertThat(result.path("status").asString()).isEqualTo("completed");
  }

  @Test
  void aRefusalStopsTheSubAgentsTurnBeforeTheHeldCallRuns() {
    Agent orchestrator = orchestrator();
    AgentOutput asked = heldOverBudget(orchestrator);
    int coderCalls = coderModel.calls();
    orchestratorModel.respondText("The coder ran out of budget.");

    AgentOutput done =
        resume(
            orchestrator,
            asked,
            Resume.restart(BudgetDecision.refuse("too expensive").restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder ran out of budget.");
    assertThat(writes).isEmpty();
    assertThat(coderModel.calls()).isEqualTo(coderCalls);
    JsonNode result = delegationOutput();
    assertThat(result.path("status").asString()).isEqualTo("aborted");
  }

  @Test
  void theDecisionIsTheSubAgentsAloneNotTheOrchestratorsOwnBudgets() {
    // The orchestrator's own pausing budget is far from its limit: the wrapped hold is not its.
    Agent orchestrator = orchestrator(Budget.perRun(total(10_000)).withInterrupt(true));
    AgentOutput asked = heldOverBudget(orchestrator);
    orchestratorModel.respondText("The coder ran out of budget.");

    AgentOutput done =
        resume(
            orchestrator,
            asked,
            Resume.restart(BudgetDecision.refuse("too expensive").restart(held(asked))));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder ran out of budget.");
    assertThat(writes).isEmpty();
  }
}
