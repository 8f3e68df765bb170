package dev.baton.middleware.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import dev.baton.middleware.ToolApproval;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Interrupt mode and counting across resumes: B19 to B22. */
class BudgetHoldTest extends BudgetTestSupport {
  private static Budget pausing(int tokens) {
    return Budget.perRun(total(tokens)).withInterrupt(true);
  }

  /** A run under {@code budgets} whose first call spends 120 and asks for two echoes. */
  private GenerateResponse heldRun(Budget... budgets) {
    model.respond(calls(total(120), echoCall("e1"), echoCall("e2")));
    GenerateResponse held = generate(budgets);
    assertThat(held.finishReason()).isEqualTo(FinishReason.INTERRUPTED);
    return held;
  }

  private GenerateResponse resume(GenerateResponse held, Resume resume, Budget... budgets) {
    return baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(held.history())
            .tools(echo)
            .use(budgets)
            .resume(resume)
            .build());
  }

  private static Resume decideAll(GenerateResponse held, BudgetDecision decision) {
    return Resume.restart(
        held.interrupts().stream().map(decision::restart).toArray(ToolRequestPart[]::new));
  }

  @Test
  @DisplayName(
      "B19 B20 a run over its limit as its tool calls start holds them, each carrying the report")
  void aRunOverItsLimitHoldsItsToolCalls() {
    GenerateResponse held = heldRun(pausing(100));

    assertThat(echoRuns).hasValue(0);
    assertThat(held.interrupts()).hasSize(2);
    for (ToolRequestPart part : held.interrupts()) {
      BudgetExceeded report = Budget.interrupted(part).orElseThrow();
      assertThat(report.message())
          .isEqualTo(
              "budget exceeded: the run reached its limit of totalTokens (spent 120 of 100)");
      assertThat(report.spent()).isEqualTo(Map.of("totalTokens", 120.0));
      assertThat(report.limit()).isEqualTo(Map.of("totalTokens", 100.0));
      // What InterruptAs reads: the interrupt data is the report itself, by its JSON names.
      JsonNode data = part.metadata().get("interrupt");
      assertThat(data.propertyNames()).containsExactly("message", "spent", "limit");
      assertThat(data.path("spent").propertyNames()).containsExactly("totalTokens");
      assertThat(data.path("spent").path("totalTokens").asDouble()).isEqualTo(120.0);
      assertThat(data.path("limit").path("totalTokens").asDouble()).isEqualTo(100.0);
    }
    assertThat(held.message().metadata().path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 120}"));
  }

  @Test
  @DisplayName("B20 custom keys report as custom.<key>; other interrupts are not holds")
  void customKeysReportByJsonNameAndOtherInterruptsAreNotHolds() {
    model.respond(calls(cost(0.75), echoCall("e1")));
    GenerateResponse held = generate(Budget.perRun(cost(0.5)).withInterrupt(true));
    BudgetExceeded report = Budget.interrupted(held.interrupts().get(0)).orElseThrow();
    assertThat(report.spent()).isEqualTo(Map.of("custom.cost", 0.75));
    assertThat(report.limit()).isEqualTo(Map.of("custom.cost", 0.5));

    model.reset();
    model.respond(calls(total(1), echoCall("e1")));
    GenerateResponse approval = generate(ToolApproval.allowing());
    assertThat(approval.interrupts()).hasSize(1);
    assertThat(Budget.interrupted(approval.interrupts().get(0))).isEmpty();
    assertThat(Budget.interrupted(echoCall("e1"))).isEmpty();
  }

  @Test
  @DisplayName(
      "B19a a run that goes over while its tools run holds nothing; the next check stops it")
  void aRunThatGoesOverWhileItsToolsRunIsStoppedNotHeld() {
    ProgrammableModel helper = ProgrammableModel.define(baton.registry(), "helper");
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask",
            "Asks the helper",
            null,
            null,
            (ctx, in) ->
                Json.nodes()
                    .stringNode(
                        baton
                            .generate(
                                ctx.context(),
                                GenerateOptions.builder().model("helper").prompt("?").build())
                            .text()));
    helper.respond(answer("42", total(80)));
    model.respond(calls(total(50), Part.toolRequest("ask", "a1", Json.object())));

    try {
      baton.generate(options(pausing(100)).tools(ask).build());
      throw new AssertionError("the run was not stopped");
    } catch (BudgetExceededException stopped) {
      assertThat(stopped).hasMessageContaining("spent 130 of 100");
    }
    assertThat(helper.calls()).isEqualTo(1);
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  @DisplayName("B21b approving continues the run with the full limit again")
  void approvingContinuesWithTheFullLimitAgain() {
    GenerateResponse held = heldRun(pausing(100));
    // 90 after the approval is under the limit; counted on top of the 120 it would not be.
    model.respond(calls(total(90), echoCall("e3")), answer("done", total(5)));

    GenerateResponse done = resume(held, decideAll(held, BudgetDecision.approve()), pausing(100));

    assertThat(done.text()).isEqualTo("done");
    assertThat(echoRuns).hasValue(3);
    assertThat(done.message().metadata().path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 95}"));
  }

  @Test
  @DisplayName("B21c refusing stops the run before the held calls run, with the reason")
  void refusingStopsBeforeTheHeldCallsRun() {
    GenerateResponse held = heldRun(pausing(100));
    int calls = model.calls();

    BudgetExceededException stopped =
        stopOf(held, decideAll(held, BudgetDecision.refuse("too costly")), pausing(100));

    assertThat(stopped)
        .hasMessage(
            "budget exceeded: the run reached its limit of totalTokens (spent 120 of 100);"
                + " continuing was refused: too costly");
    assertThat(echoRuns).hasValue(0);
    assertThat(model.calls()).isEqualTo(calls);
    assertThat(stopped.partialResponse().history()).isEqualTo(held.history());
  }

  @Test
  @DisplayName("B21a all holds share one decision: one refusal stops the run")
  void oneRefusalAmongTheHoldsStopsTheRun() {
    GenerateResponse held = heldRun(pausing(100));
    List<ToolRequestPart> holds = held.interrupts();

    stopOf(
        held,
        Resume.restart(
            BudgetDecision.approve().restart(holds.get(0)),
            BudgetDecision.refuse(null).restart(holds.get(1))),
        pausing(100));

    assertThat(echoRuns).hasValue(0);
  }

  @Test
  @DisplayName("B21d answering a hold with a response refuses it")
  void aResponseToAHoldRefusesIt() {
    GenerateResponse held = heldRun(pausing(100));
    int calls = model.calls();
    ToolResponsePart[] responses =
        held.interrupts().stream()
            .map(
                p ->
                    Part.toolResponse(
                        "echo", p.toolRequest().ref(), Json.nodes().stringNode("skipped")))
            .toArray(ToolResponsePart[]::new);

    BudgetExceededException stopped = stopOf(held, Resume.respond(responses), pausing(100));

    assertThat(stopped).hasMessageContaining("continuing was refused");
    assertThat(model.calls()).isEqualTo(calls);
  }

  @Test
  @DisplayName("B18 stacked budgets claim the same holds: one approval renews both")
  void stackedBudgetsClaimTheSameHolds() {
    Budget tokens = pausing(100);
    Budget dollars = Budget.perRun(cost(1.0)).withInterrupt(true);
    GenerationUsage heavy =
        GenerationUsage.builder().totalTokens(120).custom(Map.of("cost", 0.9)).build();
    model.respond(calls(heavy, echoCall("e1")));
    GenerateResponse held = generate(dollars, tokens);
    assertThat(held.interrupts()).hasSize(1);
    // 0.9 + 0.5 would pass the dollar limit, had the approval not renewed it too.
    GenerationUsage after =
        GenerationUsage.builder().totalTokens(10).custom(Map.of("cost", 0.5)).build();
    model.respond(calls(after, echoCall("e2")), answer("done", after));

    GenerateResponse done =
        resume(held, decideAll(held, BudgetDecision.approve()), dollars, tokens);

    assertThat(done.text()).isEqualTo("done");
  }

  /** A tool that needs a person's approval: ToolApproval allows only echo. */
  private final Tool<JsonNode, JsonNode> transfer =
      baton.defineJsonTool(
          "transfer", "Moves money", null, null, (ctx, in) -> Json.nodes().stringNode("moved"));

  private static ToolRequestPart transferCall() {
    return Part.toolRequest("transfer", "t1", Json.object());
  }

  @Test
  @DisplayName("B22 a ToolApproval interrupt answered mid-run does not renew the limit")
  void answeringAnotherInterruptDoesNotRenewTheLimit() {
    Agent agent =
        baton.defineAgent(
            "worker",
            InlinePrompt.builder()
                .model("pm")
                .system("Work.")
                .tools(echo, transfer)
                .use(capTotal(100), ToolApproval.allowing("echo"))
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    model.respond(calls(total(60), transferCall()));
    AgentOutput paused = agent.runText("work");
    assertThat(paused.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    assertThat(paused.message().metadata().path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 60}"));

    model.respond(calls(total(50), echoCall("e2")), answer("never", total(1)));
    ToolRequestPart approved =
        paused
            .message()
            .toolRequests()
            .get(0)
            .withMetadata(Metadata.with(null, "resumed", Json.object().put("toolApproved", true)));
    AgentOutput resumed =
        agent.run(
            AgentInput.resume(Resume.restart(approved)), AgentInit.ofSession(paused.sessionId()));

    // 60 before the interrupt and 50 after it: one run, stopped at 110.
    assertThat(resumed.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(resumed.error().message()).contains("spent 110 of 100");
  }

  @Test
  @DisplayName("B22c a history sent back without the record starts the count over")
  void aHistoryWithoutTheRecordStartsOver() {
    model.respond(calls(total(60), transferCall()));
    GenerateResponse paused =
        baton.generate(
            options(capTotal(100), ToolApproval.allowing("echo")).tools(transfer).build());
    List<Message> history = paused.history();
    Message last = history.get(history.size() - 1);
    assertThat(last.metadata().has("budget")).isTrue();
    List<Message> stripped = new ArrayList<>(history.subList(0, history.size() - 1));
    stripped.add(last.withMetadata(Metadata.without(last.metadata(), "budget")));
    ToolRequestPart approved =
        last.toolRequests()
            .get(0)
            .withMetadata(Metadata.with(null, "resumed", Json.object().put("toolApproved", true)));
    model.respond(calls(total(50), echoCall("e2")), answer("done", total(1)));

    GenerateResponse done =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .messages(stripped)
                .tools(echo, transfer)
                .use(capTotal(100), ToolApproval.allowing("echo"))
                .resume(Resume.restart(approved))
                .build());

    assertThat(done.text()).isEqualTo("done");
    assertThat(done.message().metadata().path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 51}"));
  }

  private BudgetExceededException stopOf(GenerateResponse held, Resume resume, Budget... budgets) {
    try {
      resume(held, resume, budgets);
    } catch (BudgetExceededException stopped) {
      return stopped;
    }
    throw new AssertionError("the run was not stopped");
  }
}
