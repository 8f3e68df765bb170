package dev.baton.middleware.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.TurnEnd;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.Fallback;
import dev.baton.middleware.Retry;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.compression.ContextCompression;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** When a Budget stops a run, and what the stop looks like: B14 to B18. */
class BudgetStopTest extends BudgetTestSupport {

  @Test
  @DisplayName(
      "B14 B15 the check before each model call stops the run once spent reaches the limit")
  void theCheckBeforeEachModelCallStopsTheRun() {
    model.respond(
        ModelResponse.of(
                new Message(Role.MODEL, List.of(Part.text("Looking."), echoCall("e1"))),
                FinishReason.STOP)
            .withUsage(total(60)),
        ModelResponse.of(
                new Message(Role.MODEL, List.of(Part.text("Still looking."), echoCall("e2"))),
                FinishReason.STOP)
            .withUsage(total(40)),
        answer("never", total(1)));

    BudgetExceededException stop = stopOf(() -> generate(capTotal(100)));

    // 60 let the second call go; 60 + 40 reaches the limit, so the third never starts.
    assertThat(model.calls()).isEqualTo(2);
    assertThat(echoRuns).hasValue(2);
    assertThat(stop.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(stop.isPublic()).isTrue();
    assertThat(stop)
        .hasMessage("budget exceeded: the run reached its limit of totalTokens (spent 100 of 100)");
    BudgetExceeded report = report(stop);
    assertThat(report.message()).isEqualTo(stop.getMessage());
    assertThat(report.spent()).containsExactly(Map.entry("totalTokens", 100.0));
    assertThat(report.limit()).containsExactly(Map.entry("totalTokens", 100.0));
    GenerateResponse partial = stop.partialResponse();
    assertThat(partial.history())
        .extracting(m -> m.role().wireName() + ":" + m.text())
        .containsExactly("user:go", "model:Looking.", "tool:", "model:Still looking.", "tool:");
    assertThat(partial.text()).isEqualTo("Still looking.");
    assertThat(partial.totalUsage()).isEqualTo(total(100));
    assertThat(partial.message().metadata().path("budget").path("spent"))
        .isEqualTo(Json.parse("{\"totalTokens\": 100}"));
    assertThat(partial.history().get(3)).isEqualTo(partial.message());
  }

  @Test
  @DisplayName("B15a an agent turn a budget stops ends aborted, keeping its partial response")
  void anAgentTurnEndsAbortedKeepingItsPartialResponse() {
    InMemorySessionStore store = InMemorySessionStore.create();
    Agent agent =
        baton.defineAgent(
            "worker",
            InlinePrompt.builder()
                .model("pm")
                .system("Work.")
                .tools(echo)
                .use(capTotal(100))
                .build(),
            AgentOptions.builder().sessionStore(store).build());
    model.respond(
        ModelResponse.of(
                new Message(Role.MODEL, List.of(Part.text("Step one."), echoCall("e1"))),
                FinishReason.STOP)
            .withUsage(total(150)));
    List<AgentStreamChunk> chunks = new CopyOnWriteArrayList<>();

    AgentOutput output =
        agent.run(baton.context(), AgentInput.text("work"), AgentInit.NEW, chunks::add);

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(output.isFailed()).isFalse();
    assertThat(output.text()).isEqualTo("Step one.");
    assertThat(output.error().statusCode()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(output.error().message()).contains("totalTokens (spent 150 of 100)");
    assertThat(output.error().details().path("spent").path("totalTokens").asDouble())
        .isEqualTo(150.0);
    TurnEnd turnEnd =
        chunks.stream()
            .map(AgentStreamChunk::turnEnd)
            .filter(t -> t != null)
            .findFirst()
            .orElseThrow();
    assertThat(turnEnd).isEqualTo(new TurnEnd(AgentFinishReason.ABORTED, output.snapshotId()));
    SessionSnapshot row = agent.getSnapshot(output.snapshotId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(row.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(row.error().statusCode()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(row.state().messages())
        .extracting(m -> m.role().wireName())
        .containsExactly("user", "model", "tool");

    // The aborted row is a handle: continuing it retries the unfinished turn with a new budget.
    model.respond(answer("finished", total(10)));
    AgentOutput continued =
        agent.run(AgentInput.retryTurn(), AgentInit.continueFrom(output.snapshotId()));
    assertThat(continued.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(continued.text()).isEqualTo("finished");
  }

  @Test
  void aClientManagedAgentGetsItsPartialStateBack() {
    Agent agent =
        baton.defineAgent(
            "worker",
            InlinePrompt.builder()
                .model("pm")
                .system("Work.")
                .tools(echo)
                .use(capTotal(100))
                .build(),
            AgentOptions.DEFAULTS);
    model.respond(calls(total(150), echoCall("e1")));

    AgentOutput output = agent.runText("work");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(output.snapshotId()).isNull();
    assertThat(output.state().messages())
        .extracting(m -> m.role().wireName())
        .containsExactly("user", "model", "tool");
    assertThat(output.state().usage()).isEqualTo(total(150));
  }

  @Test
  void anOrchestratorReadsASubAgentItsBudgetStoppedAsAbortedAndContinuable() {
    ProgrammableModel subModel = ProgrammableModel.define(baton.registry(), "sub-model");
    Agent sub =
        baton.defineAgent(
            "sub",
            InlinePrompt.builder()
                .model("sub-model")
                .system("Work.")
                .tools(echo)
                .use(capTotal(100))
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("pm")
                .system("Delegate.")
                .use(Agents.builder().agents(sub.ref()).build())
                .build(),
            AgentOptions.DEFAULTS);
    model.respond(
        calls(total(1), Part.toolRequest("delegate_to_sub", "d1", Json.object().put("task", "t"))),
        answer("ok", total(1)));
    subModel.respond(calls(total(500), echoCall("e1")));

    orchestrator.runText("go");

    List<Message> sent = model.lastRequest().messages();
    JsonNode result = sent.get(sent.size() - 1).toolResponses().get(0).toolResponse().output();
    assertThat(result.path("status").asString()).isEqualTo("aborted");
    assertThat(result.path("taskId").asString()).startsWith("sub:");
    assertThat(result.path("response").asString())
        .startsWith(
            "Error calling agent \"sub\": budget exceeded: the run reached its limit of totalTokens"
                + " (spent 500 of 100). Its progress is saved as task sub:");
  }

  @Test
  @DisplayName(
      "B14 the check runs before the generate hooks too: no summary for a stopped iteration")
  void theCheckRunsBeforeTheGenerateHooks() {
    ProgrammableModel summarizer = ProgrammableModel.define(baton.registry(), "summarizer");
    summarizer.respondText("S");
    model.respond(
        calls(GenerationUsage.builder().inputTokens(5000).totalTokens(100).build(), echoCall("e1")),
        answer("never", total(1)));
    ContextCompression compression =
        ContextCompression.builder()
            .maxInputTokens(1000)
            .summarize(ContextCompression.Summarizer.of("summarizer"))
            .build();
    List<Message> chat =
        List.of(Message.user("u1"), Message.model("m1"), Message.user("u2"), Message.model("m2"));

    BudgetExceededException stop =
        stopOf(() -> baton.generate(options(capTotal(100), compression).messages(chat).build()));

    // The second iteration would summarise (5000 input tokens reported, over 1000), but the budget
    // is spent: the run stops before the compression hook pays for a summary.
    assertThat(model.calls()).isEqualTo(1);
    assertThat(summarizer.calls()).isZero();
    assertThat(report(stop).spent()).containsEntry("totalTokens", 100.0);
  }

  @Test
  @DisplayName("B16 a turn under way finishes: the run overshoots by one turn")
  void aRunOvershootsByOneTurn() {
    model.respond(calls(total(150), echoCall("e1"), echoCall("e2")), answer("never", total(1)));

    BudgetExceededException stop = stopOf(() -> generate(capTotal(100)));

    assertThat(echoRuns).hasValue(2);
    assertThat(report(stop).spent()).containsEntry("totalTokens", 150.0);
  }

  @Test
  @DisplayName("B16 with Retry in the chain, one turn can be several billed calls")
  void withRetryOneTurnIsSeveralBilledCalls() {
    AtomicBoolean failedOnce = new AtomicBoolean();
    // Fails the first answer after the model was billed for it, so Retry asks again.
    Middleware flaky =
        Middleware.of(
            "flaky",
            context ->
                Hooks.builder()
                    .wrapModel(
                        (ctx, params, next) -> {
                          ModelResponse response = next.apply(ctx, params);
                          if (failedOnce.compareAndSet(false, true)) {
                            throw new BatonException(Status.UNAVAILABLE, "lost the answer");
                          }
                          return response;
                        })
                    .build());
    model.respond(
        calls(total(100), echoCall("e1")),
        calls(total(100), echoCall("e1")),
        answer("never", total(1)));

    BudgetExceededException stop = stopOf(() -> generate(capTotal(150), retry(), flaky));

    assertThat(model.calls()).isEqualTo(2);
    assertThat(report(stop).spent()).containsEntry("totalTokens", 200.0);
    assertThat(stop.partialResponse().totalUsage()).isEqualTo(total(200));
  }

  @Test
  @DisplayName("B17 Retry and Fallback never see the stop, whatever the order")
  void retryAndFallbackNeverSeeTheStop() {
    ProgrammableModel backup = ProgrammableModel.define(baton.registry(), "backup");
    backup.fallback(request -> answer("from backup", total(1)));
    // Innermost of every wrapModel hook: whatever Retry or Fallback could see passes it first.
    List<Throwable> seenByModelHooks = new CopyOnWriteArrayList<>();
    Middleware spy =
        Middleware.of(
            "spy",
            context ->
                Hooks.builder()
                    .wrapModel(
                        (ctx, params, next) -> {
                          try {
                            return next.apply(ctx, params);
                          } catch (RuntimeException e) {
                            seenByModelHooks.add(e);
                            throw e;
                          }
                        })
                    .build());
    List<List<Middleware>> orders =
        List.of(
            List.of(capTotal(100), retry(), Fallback.to("backup"), spy),
            List.of(retry(), Fallback.to("backup"), capTotal(100), spy),
            List.of(Fallback.to("backup"), capTotal(100), retry(), spy));
    for (List<Middleware> order : orders) {
      model.reset();
      model.respond(calls(total(100), echoCall("e1")), answer("never", total(1)));

      BudgetExceededException stop = stopOf(() -> generate(order.toArray(Middleware[]::new)));

      assertThat(stop.status()).as(order.toString()).isEqualTo(Status.RESOURCE_EXHAUSTED);
      assertThat(model.calls()).as(order.toString()).isEqualTo(1);
      assertThat(backup.calls()).as(order.toString()).isZero();
      assertThat(seenByModelHooks).as(order.toString()).isEmpty();
    }
  }

  @Test
  @DisplayName("B18 stacked budgets enforce all their limits together")
  void stackedBudgetsEnforceAllTheirLimits() {
    Budget tokens = capTotal(1000);
    Budget dollars = Budget.perRun(cost(0.5));
    GenerationUsage both =
        GenerationUsage.builder().totalTokens(100).custom(Map.of("cost", 0.3)).build();
    model.respond(calls(both, echoCall("e1")), calls(both, echoCall("e2")), answer("never", both));

    BudgetExceededException byCost = stopOf(() -> generate(tokens, dollars));
    assertThat(byCost).hasMessageContaining("custom.cost (spent 0.6 of 0.5)");
    assertThat(model.calls()).isEqualTo(2);

    model.reset();
    GenerationUsage heavy =
        GenerationUsage.builder().totalTokens(900).custom(Map.of("cost", 0.01)).build();
    model.respond(
        calls(heavy, echoCall("e1")), calls(heavy, echoCall("e2")), answer("never", heavy));
    BudgetExceededException byTokens = stopOf(() -> generate(dollars, tokens));
    assertThat(byTokens).hasMessageContaining("totalTokens (spent 1800 of 1000)");
    assertThat(model.calls()).isEqualTo(2);
  }

  @Test
  void aNestedRunsStopFailsTheRunAroundItWhichItsBudgetDoesNotWrap() {
    ProgrammableModel helper = ProgrammableModel.define(baton.registry(), "helper");
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask",
            "Asks the helper under a budget of its own",
            null,
            null,
            (ctx, in) ->
                Json.nodes()
                    .stringNode(
                        baton
                            .generate(
                                ctx.context(),
                                GenerateOptions.builder()
                                    .model("helper")
                                    .prompt("?")
                                    .tools(echo)
                                    .use(capTotal(10))
                                    .build())
                            .text()));
    helper.respond(calls(total(50), echoCall("h1")));
    model.respond(calls(total(1), Part.toolRequest("ask", "a1", Json.object())));

    assertThatThrownBy(() -> baton.generate(options().tools(ask).build()))
        .isNotInstanceOf(BudgetExceededException.class)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED))
        .hasMessageContaining("spent 50 of 10")
        .hasCauseInstanceOf(BudgetExceededException.class);
  }

  private static Retry retry() {
    return Retry.builder().maxRetries(3).initialDelayMs(0).noJitter(true).build();
  }

  private static BudgetExceededException stopOf(Runnable run) {
    try {
      run.run();
    } catch (BudgetExceededException stopped) {
      return stopped;
    }
    throw new AssertionError("the run was not stopped");
  }
}
