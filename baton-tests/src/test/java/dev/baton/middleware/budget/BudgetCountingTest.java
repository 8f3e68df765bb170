package dev.baton.middleware.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.Part;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a Budget counts: B5 to B13. */
class BudgetCountingTest extends BudgetTestSupport {

  /**
   * Runs three tool rounds and an answer, each call reporting {@code perCall}, under a budget of
   * {@code limit}; returns how many model calls ran before the budget stopped the run, or 4 when it
   * never did.
   */
  private int callsUnder(GenerationUsage limit, GenerationUsage perCall) {
    model.reset();
    model.respond(
        calls(perCall, echoCall("e1")),
        calls(perCall, echoCall("e2")),
        calls(perCall, echoCall("e3")),
        answer("done", perCall));
    try {
      generate(Budget.perRun(limit));
    } catch (BudgetExceededException stopped) {
      return model.calls();
    }
    assertThat(model.calls()).isEqualTo(4);
    return 4;
  }

  @Test
  @DisplayName("B5 every non-zero field of the limit is a cap, custom key by key")
  void everyNonZeroFieldIsACapCustomKeyByKey() {
    GenerationUsage call =
        GenerationUsage.builder()
            .inputTokens(40)
            .outputTokens(5)
            .outputImages(1)
            .custom(Map.of("cost", 0.2, "credits", 1000.0))
            .build();
    assertThat(callsUnder(GenerationUsage.builder().inputTokens(100).build(), call)).isEqualTo(3);
    assertThat(callsUnder(GenerationUsage.builder().outputTokens(100).build(), call)).isEqualTo(4);
    assertThat(callsUnder(GenerationUsage.builder().outputImages(2).build(), call)).isEqualTo(2);
    assertThat(callsUnder(GenerationUsage.builder().custom(Map.of("cost", 0.5)).build(), call))
        .isEqualTo(3);
    // A custom key the limit does not cap is not a cap, however large.
    assertThat(callsUnder(GenerationUsage.builder().custom(Map.of("other", 1.0)).build(), call))
        .isEqualTo(4);
    // Zero fields are not caps: only inputTokens caps this limit.
    assertThat(
            callsUnder(
                GenerationUsage.builder()
                    .inputTokens(100)
                    .outputTokens(0)
                    .custom(Map.of("credits", 0.0))
                    .build(),
                call))
        .isEqualTo(3);
  }

  @Test
  @DisplayName("B6 usage counts as reported: outputTokens leaves out thoughtsTokens")
  void outputTokensLeaveOutThoughtsTokens() {
    GenerationUsage thinking =
        GenerationUsage.builder().outputTokens(10).thoughtsTokens(500).build();
    assertThat(callsUnder(GenerationUsage.builder().outputTokens(100).build(), thinking))
        .isEqualTo(4);
    assertThat(callsUnder(GenerationUsage.builder().thoughtsTokens(1000).build(), thinking))
        .isEqualTo(2);
    assertThat(
            callsUnder(
                GenerationUsage.builder().outputTokens(100).thoughtsTokens(1000).build(), thinking))
        .isEqualTo(2);
  }

  @Test
  @DisplayName("B7 a model that reports no usage spends nothing")
  void aModelThatReportsNoUsageSpendsNothing() {
    assertThat(callsUnder(total(1), GenerationUsage.EMPTY)).isEqualTo(4);
    model.reset();
    model.respond(calls(total(1), echoCall("e1")).withUsage(null), answer("done", total(1)));
    assertThat(generate(capTotal(2)).text()).isEqualTo("done");
  }

  @Test
  @DisplayName("B8 a model called outside generate, as a background model is, is not counted")
  void aModelCalledOutsideGenerateIsNotCounted() {
    ProgrammableModel video = ProgrammableModel.define(baton.registry(), "video");
    video.respond(answer("operation started", total(10_000)));
    Tool<JsonNode, JsonNode> render =
        baton.defineJsonTool(
            "render",
            "Starts a video",
            null,
            null,
            (ctx, in) ->
                Json.nodes()
                    .stringNode(
                        video
                            .model()
                            .run(
                                ctx.context(),
                                new ModelRequest(
                                    List.of(Message.user("a cat")),
                                    null,
                                    List.of(),
                                    null,
                                    OutputConfig.NONE),
                                StreamCallback.discard())
                            .text()));
    model.respond(
        calls(total(10), Part.toolRequest("render", "r1", Json.object())), answer("ok", total(10)));

    String text = baton.generate(options(capTotal(100)).tools(render).build()).text();

    assertThat(text).isEqualTo("ok");
    assertThat(video.calls()).isEqualTo(1);
  }

  @Test
  @DisplayName("B9 the run counts nested generates and the calls hooks make")
  void theRunCountsNestedGeneratesAndHooks() {
    ProgrammableModel helper = ProgrammableModel.define(baton.registry(), "helper");
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask",
            "Asks the helper model",
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
    helper.respond(answer("42", total(95)));
    model.respond(calls(total(10), Part.toolRequest("ask", "a1", Json.object())));

    BudgetExceededException nested =
        catchStop(() -> baton.generate(options(capTotal(100)).tools(ask).build()));
    assertThat(report(nested).spent()).containsEntry("totalTokens", 105.0);
    assertThat(model.calls()).isEqualTo(1);

    // A hook's own generate call, made in its wrapGenerate before the model call.
    Middleware planning =
        Middleware.of(
            "planning",
            context ->
                Hooks.builder()
                    .wrapGenerate(
                        (ctx, params, next) -> {
                          if (params.iteration() == 0) {
                            baton.generate(
                                ctx,
                                GenerateOptions.builder().model("helper").prompt("plan").build());
                          }
                          return next.apply(ctx, params);
                        })
                    .build());
    model.reset();
    helper.respond(answer("plan", total(95)));
    model.respond(calls(total(10), echoCall("e1")));

    BudgetExceededException hooked = catchStop(() -> generate(planning, capTotal(100)));
    assertThat(report(hooked).spent()).containsEntry("totalTokens", 105.0);
    // Listed after the hook, the budget counts it too: it counts the run, not its own position.
    model.reset();
    helper.respond(answer("plan", total(95)));
    model.respond(calls(total(10), echoCall("e1")));
    assertThat(report(catchStop(() -> generate(capTotal(100), planning))).spent())
        .containsEntry("totalTokens", 105.0);
  }

  @Test
  @DisplayName(
      "B9 B11 a synchronous sub-agent's calls count, though not in the orchestrator's usage")
  void aSynchronousSubAgentCountsWhileTheOrchestratorsUsageIsItsOwn() {
    ProgrammableModel helperModel = ProgrammableModel.define(baton.registry(), "helper");
    Agent helper =
        baton.defineAgent(
            "helper",
            InlinePrompt.builder().model("helper").system("Help.").build(),
            AgentOptions.DEFAULTS);
    Agent orchestrator = orchestrator(capTotal(100), Agents.builder().agents(helper.ref()).build());
    model.respond(
        calls(total(10), Part.toolRequest("delegate_to_helper", "d1", task("Help me"))),
        answer("never", total(1)));
    helperModel.respond(answer("helped", total(95)));

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(output.error().message())
        .isEqualTo("budget exceeded: the run reached its limit of totalTokens (spent 105 of 100)");
    assertThat(model.calls()).isEqualTo(1);
    SessionSnapshot row = orchestrator.getSnapshot(output.snapshotId());
    assertThat(row.state().usage()).isEqualTo(total(10));
  }

  @Test
  @DisplayName("B12 a remote sub-agent's calls are not counted")
  void aRemoteSubAgentIsNotCounted() {
    Baton elsewhere = Baton.builder().experimental().build();
    ProgrammableModel remoteModel = ProgrammableModel.define(elsewhere.registry(), "remote-model");
    Agent served =
        elsewhere.defineAgent(
            "researcher",
            InlinePrompt.builder().model("remote-model").system("Research.").build(),
            AgentOptions.DEFAULTS);
    Agent remote = servedElsewhere(served, elsewhere);
    baton.registry().register(remote);
    Agent orchestrator = orchestrator(capTotal(100), Agents.builder().agents(remote.ref()).build());
    model.respond(
        calls(total(10), Part.toolRequest("delegate_to_researcher", "d1", task("Look it up"))),
        answer("done", total(10)));
    remoteModel.respond(answer("found it", total(10_000)));

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(output.text()).isEqualTo("done");
    assertThat(remoteModel.calls()).isEqualTo(1);
  }

  @Test
  @DisplayName("B13 a background delegation counts while the run lasts, and runs on after it stops")
  void aBackgroundDelegationCountsWhileTheRunLastsAndRunsOnAfterIt() throws Exception {
    InMemorySessionStore scannerStore = InMemorySessionStore.create();
    ProgrammableModel scannerModel = ProgrammableModel.define(baton.registry(), "scanner-model");
    CountDownLatch scanning = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Tool<JsonNode, JsonNode> scan =
        baton.defineJsonTool(
            "scan",
            "Scans the logs",
            null,
            null,
            (ctx, in) -> {
              scanning.countDown();
              await(release);
              return Json.nodes().stringNode("timeouts");
            });
    Tool<JsonNode, JsonNode> pause =
        baton.defineJsonTool(
            "pause",
            "Waits for the scanner to be busy",
            null,
            null,
            (ctx, in) -> {
              await(scanning);
              return Json.nodes().stringNode("busy");
            });
    Agent scanner =
        baton.defineAgent(
            "scanner",
            InlinePrompt.builder().model("scanner-model").system("Scan.").tools(scan).build(),
            AgentOptions.builder().sessionStore(scannerStore).build());
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("pm")
                .system("Delegate.")
                .tools(pause)
                .use(capTotal(100), Agents.builder().agents(scanner.ref()).async(true).build())
                .build(),
            AgentOptions.DEFAULTS);
    model.respond(
        calls(
            total(10),
            Part.toolRequest(
                "delegate_to_scanner",
                "d1",
                Json.object().put("task", "Scan the logs").put("background", true)),
            Part.toolRequest("pause", "p1", Json.object())),
        answer("never", total(1)));
    scannerModel.respond(
        calls(total(200), Part.toolRequest("scan", "s1", Json.object())),
        answer("timeouts everywhere", total(50)));

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(output.error().message()).contains("totalTokens (spent 210 of 100)");
    String taskId =
        output.state().messages().stream()
            .flatMap(m -> m.toolResponses().stream())
            .map(r -> r.toolResponse().output().path("taskId").asString(""))
            .filter(id -> !id.isEmpty())
            .findFirst()
            .orElseThrow();
    release.countDown();
    SessionSnapshot settled = scanner.waitForSnapshot(taskId.substring("scanner:".length()));
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.state().usage()).isEqualTo(total(250));
    assertThat(scannerModel.calls()).isEqualTo(2);
  }

  @Test
  @DisplayName(
      "B10 B11 a session scope starts from the session's usage, across turns and invocations")
  void aSessionScopeStartsFromTheSessionsUsage() {
    ProgrammableModel helperModel = ProgrammableModel.define(baton.registry(), "helper");
    Agent helper =
        baton.defineAgent(
            "helper",
            InlinePrompt.builder().model("helper").system("Help.").build(),
            AgentOptions.DEFAULTS);
    Agent agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder()
                .model("pm")
                .system("Chat.")
                .use(Budget.perSession(total(100)), Agents.builder().agents(helper.ref()).build())
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    model.respond(
        answer("hello", total(60)),
        calls(total(10), Part.toolRequest("delegate_to_helper", "d1", task("Help"))));
    helperModel.respond(answer("helped", total(35)));

    AgentOutput first;
    try (var chat = agent.connect(AgentInit.NEW)) {
      chat.sendText("hi");
      chat.sendText("and now?");
      first = chat.output();
    }

    // Turn one spent 60; turn two started there, and its sub-agent's 35 stopped it at 105.
    assertThat(first.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(first.error().message()).contains("the session reached its limit of totalTokens");
    assertThat(first.error().message()).contains("(spent 105 of 100)");
    // The session records its own calls only: 60 + 10.
    assertThat(agent.getSnapshot(first.snapshotId()).state().usage()).isEqualTo(total(70));

    model.respond(answer("fine", total(40)));
    AgentOutput second =
        agent.run(AgentInput.text("go on"), AgentInit.continueFrom(first.snapshotId()));
    assertThat(second.text()).isEqualTo("fine");

    int callsBefore = model.calls();
    AgentOutput third = agent.run(AgentInput.text("more?"), AgentInit.ofSession(first.sessionId()));
    assertThat(third.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(third.error().message()).contains("(spent 110 of 100)");
    // Stopped before its first model call, the run has no partial response to report.
    assertThat(third.message()).isNull();
    assertThat(model.calls()).isEqualTo(callsBefore);
  }

  private Agent orchestrator(Middleware... use) {
    return baton.defineAgent(
        "orchestrator",
        InlinePrompt.builder().model("pm").system("Delegate.").use(use).build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  private static JsonNode task(String task) {
    return Json.object().put("task", task);
  }

  private static BudgetExceededException catchStop(Runnable run) {
    try {
      run.run();
    } catch (BudgetExceededException stopped) {
      return stopped;
    }
    throw new AssertionError("the run was not stopped");
  }

  /**
   * An agent served by another Baton instance, as a remote agent is: every call reaches it in a
   * context of its own instance, as an HTTP request would, so nothing of the caller's context (its
   * usage listeners above all) crosses over.
   */
  private static Agent servedElsewhere(Agent served, Baton elsewhere) {
    return (Agent)
        Proxy.newProxyInstance(
            Agent.class.getClassLoader(),
            new Class<?>[] {Agent.class},
            (proxy, method, args) -> {
              Object[] forwarded = args == null ? null : args.clone();
              if (forwarded != null) {
                for (int i = 0; i < forwarded.length; i++) {
                  if (forwarded[i] instanceof ActionContext) {
                    forwarded[i] = elsewhere.context();
                  }
                }
              }
              try {
                return method.invoke(served, forwarded);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  private static void await(CountDownLatch latch) {
    try {
      assertThat(latch.await(10, TimeUnit.SECONDS)).as("latch opened").isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
