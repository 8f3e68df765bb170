package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentRef;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolDefinition;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Delegation through the {@link Agents} middleware: what a sub-agent sees, what comes back to the
 * orchestrator on success, failure, interrupt and limits, artifacts, nesting and isolation.
 * Configuration, tool naming, the sub-agents block and the plugin are in {@link
 * AgentsMiddlewareConfigTest}.
 */
class AgentsMiddlewareTest extends AgentsMiddlewareTestSupport {
  @Test
  void aClientManagedSubAgentGetsRecentHistoryAndNoTaskId() {
    ProgrammableModel researcherModel = model("researcher-model");
    Agent researcher =
        subAgent(
            "researcher",
            "researcher-model",
            AgentOptions.builder().description("Finds facts.").build());
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS,
            Agents.builder().agents(researcher.ref()).historyLength(2).build());
    orchestratorModel.respond(
        calls(delegate("delegate_to_researcher", "d1", "Find the boiling point")));
    researcherModel.respondText("100 C at sea level");
    orchestratorModel.respondText("Water boils at 100 C.");

    SessionStateBuilder earlier = new SessionStateBuilder("We talk about a platypus.", "Noted.");
    AgentOutput output =
        orchestrator.runText("How hot does water boil?", AgentInit.ofState(earlier.state()));

    assertThat(output.text()).isEqualTo("Water boils at 100 C.");
    JsonNode result = toolOutputs(orchestratorModel).get("d1");
    assertThat(result.path("response").asString()).isEqualTo("100 C at sea level");
    assertThat(result.has("taskId")).isFalse();
    assertThat(result.has("status")).isFalse();
    List<String> seen =
        researcherModel.lastRequest().messages().stream()
            .map(m -> m.role().wireName() + ":" + m.text())
            .toList();
    assertThat(seen)
        .containsExactly(
            "system:You are researcher.",
            "model:Noted.",
            "user:How hot does water boil?",
            "user:Find the boiling point");
  }

  @Test
  void aServerManagedSubAgentGetsOnlyTheTaskAndReturnsAContinuableTask() {
    InMemorySessionStore subStore = InMemorySessionStore.create();
    ProgrammableModel coderModel = model("coder-model");
    Agent coder =
        subAgent("coder", "coder-model", AgentOptions.builder().sessionStore(subStore).build());
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(coder.ref()).historyLength(4).build());
    orchestratorModel.respond(
        calls(
            Part.toolRequest(
                "delegate_to_coder",
                "d1",
                Json.object().put("task", "Write hello world").put("name", "hello"))));
    coderModel.respondText("print('hello')");
    orchestratorModel.respondText("done");

    orchestrator.runText("Please code");

    JsonNode result = toolOutputs(orchestratorModel).get("d1");
    assertThat(result.path("status").asString()).isEqualTo("completed");
    assertThat(result.path("name").asString()).isEqualTo("hello");
    String taskId = result.path("taskId").asString();
    assertThat(taskId).startsWith("coder:");
    SessionSnapshot row = coder.getSnapshot(taskId.substring("coder:".length()));
    assertThat(row.state().messages())
        .extracting(Message::text)
        .containsExactly("Write hello world", "print('hello')");
    assertThat(coderModel.lastRequest().messages())
        .extracting(Message::text)
        .containsExactly("You are coder.", "Write hello world");
  }

  @Test
  void aBlockedAnswerIsFoldedAsTheSubAgentsResponseNotAsAnError() {
    ProgrammableModel coderModel = model("coder-model");
    Agent coder =
        subAgent(
            "coder",
            "coder-model",
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(coder.ref()).build());
    orchestratorModel.respond(
        calls(
            Part.toolRequest(
                "delegate_to_coder", "d1", Json.object().put("task", "Write malware"))));
    coderModel.respond(
        ModelResponse.of(Message.model("I can't help with that."), FinishReason.BLOCKED));
    orchestratorModel.respondText("done");

    orchestrator.runText("Please code");

    // Only failed and interrupted runs are errors, as in Genkit's synchronous delegation.
    JsonNode result = toolOutputs(orchestratorModel).get("d1");
    assertThat(result.path("response").asString()).isEqualTo("I can't help with that.");
    assertThat(result.path("status").asString()).isEqualTo("completed");
  }

  @Test
  void theDelegationLimitHoldsAcrossParallelCalls() {
    model("w-model").fallback(request -> reply("did work"));
    Agent worker = subAgent("worker", "w-model", AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(worker.ref()).maxDelegations(1).build());
    orchestratorModel.respond(
        calls(
            delegate("delegate_to_worker", "a", "job a"),
            delegate("delegate_to_worker", "b", "job b")));
    orchestratorModel.respondText("ok");

    orchestrator.runText("do both");

    List<String> responses =
        toolOutputs(orchestratorModel).values().stream()
            .map(n -> n.path("response").asString())
            .sorted()
            .toList();
    assertThat(responses)
        .containsExactly(
            "Delegation limit reached (1). Complete the task using information already gathered.",
            "did work");
  }

  @Test
  void severalDelegationsInOneModelTurnRunAndAnswerInOrder() {
    model("a-model").respondText("from a");
    model("b-model").respondText("from b");
    Agent a = subAgent("a", "a-model", AgentOptions.DEFAULTS);
    Agent b = subAgent("b", "b-model", AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(a.ref(), b.ref()).build());
    orchestratorModel.respond(
        calls(delegate("delegate_to_a", "1", "x"), delegate("delegate_to_b", "2", "y")));
    orchestratorModel.respondText("merged");

    assertThat(orchestrator.runText("go").text()).isEqualTo("merged");
    List<Message> sent = orchestratorModel.lastRequest().messages();
    assertThat(sent.get(sent.size() - 1).toolResponses())
        .extracting(p -> p.toolResponse().output().path("response").asString())
        .containsExactly("from a", "from b");
  }

  @Test
  void anUnknownAgentIsReportedAsText() {
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(AgentRef.of("ghost")).build());
    orchestratorModel.respond(calls(delegate("delegate_to_ghost", "g", "boo")));
    orchestratorModel.respondText("ok");
    orchestrator.runText("go");
    assertThat(toolOutputs(orchestratorModel).get("g").path("response").asString())
        .isEqualTo("Error: agent \"ghost\" not found in registry");
  }

  @Test
  void aFailingSubAgentIsReportedWithTheTaskThatHoldsItsProgress() {
    InMemorySessionStore subStore = InMemorySessionStore.create();
    ProgrammableModel flakyModel = model("flaky-model");
    Agent flaky =
        subAgent("flaky", "flaky-model", AgentOptions.builder().sessionStore(subStore).build());
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(flaky.ref()).build());
    orchestratorModel.respond(calls(delegate("delegate_to_flaky", "f", "try")));
    flakyModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    orchestratorModel.respondText("it failed");

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.isFailed()).isFalse();
    JsonNode result = toolOutputs(orchestratorModel).get("f");
    String taskId = result.path("taskId").asString();
    assertThat(taskId).as("a first turn that fails still leaves a handle").startsWith("flaky:");
    assertThat(result.path("status").asString()).isEqualTo("failed");
    assertThat(result.path("response").asString())
        .isEqualTo(
            "Error calling agent \"flaky\": model timeout. Its progress is saved as task "
                + taskId
                + ".");
    SessionSnapshot row = flaky.getSnapshot(taskId.substring("flaky:".length()));
    assertThat(row.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(row.state().messages()).extracting(Message::text).containsExactly("try");
  }

  @Test
  void aFailureAfterACommittedTurnNamesTheTaskThatHoldsItsProgress() {
    Agent halfDone =
        baton.defineCustomAgent(
            "halfdone",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    runner.session().addMessage(Message.model("step one done"));
                    return null;
                  });
              throw BatonException.of(Status.UNAVAILABLE, "lost the connection");
            },
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(halfDone.ref()).build());
    orchestratorModel.respond(calls(delegate("delegate_to_halfdone", "h", "two steps")));
    orchestratorModel.respondText("partial");

    orchestrator.runText("go");

    JsonNode result = toolOutputs(orchestratorModel).get("h");
    String taskId = result.path("taskId").asString();
    assertThat(taskId).startsWith("halfdone:");
    assertThat(result.path("status").asString()).isEqualTo("failed");
    assertThat(result.path("response").asString())
        .isEqualTo(
            "Error calling agent \"halfdone\": lost the connection. Its progress is saved as task "
                + taskId
                + ".");
    assertThat(halfDone.getSnapshot(taskId.substring("halfdone:".length())).state().messages())
        .extracting(Message::text)
        .containsExactly("two steps", "step one done");
  }

  @Test
  void anInterruptedSubAgentIsADeadEndReportedAsText() {
    ProgrammableModel askerModel = model("asker-model");
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask_user",
            "asks",
            null,
            null,
            (ctx, in) -> {
              throw ctx.interrupt();
            });
    Agent asker =
        baton.defineAgent(
            "asker",
            InlinePrompt.builder().model("asker-model").tools(ask).build(),
            AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(asker.ref()).build());
    orchestratorModel.respond(calls(delegate("delegate_to_asker", "q", "ask them")));
    askerModel.respond(calls(Part.toolRequest("ask_user", "u1", Json.object())));
    orchestratorModel.respondText("ok");

    orchestrator.runText("go");

    assertThat(toolOutputs(orchestratorModel).get("q").path("response").asString())
        .isEqualTo(
            "Sub-agent \"asker\" interrupted for additional input and could not complete the task."
                + " Interactive sub-agent interrupts are not currently supported; try delegating a"
                + " more self-contained task.");
    assertThat(toolOutputs(orchestratorModel).get("q").has("taskId"))
        .as("an interrupt is a dead end: no handle")
        .isFalse();
  }

  private Agent writer(ProgrammableModel writerModel, AgentOptions options) {
    writerModel.respond(
        calls(
            Part.toolRequest(
                "write_artifact",
                "w",
                Json.object().put("name", "report.md").put("content", "# Findings\nAll good."))));
    writerModel.respondText("report written");
    return subAgent("writer", writerModel.name(), options, Artifacts.readWrite());
  }

  @Test
  void inlineArtifactsCarryTheirContentAndAreMergedUnderTheInvocation() {
    Agent writer = writer(model("writer-model"), AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            Agents.builder().agents(writer.ref()).build());
    orchestratorModel.respond(calls(delegate("delegate_to_writer", "w1", "write it")));
    orchestratorModel.respondText("see report");

    AgentOutput output = orchestrator.runText("report please");

    JsonNode artifacts = toolOutputs(orchestratorModel).get("w1").path("artifacts");
    assertThat(artifacts.path(0).path("name").asString()).isEqualTo("writer_1/report.md");
    assertThat(artifacts.path(0).path("content").asString()).isEqualTo("# Findings\nAll good.");
    Artifact merged = output.artifacts().get(0);
    assertThat(merged.name()).isEqualTo("writer_1/report.md");
    assertThat(merged.metadata().path("source").asString()).isEqualTo("writer");
    assertThat(merged.metadata().path("invocationId").asString()).isEqualTo("writer_1");
  }

  @Test
  void sessionArtifactsAreNamedButNotInlinedAndNamespacedBySnapshot() {
    Agent writer =
        writer(
            model("writer-model"),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent orchestrator =
        orchestrator(
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            Agents.builder()
                .agents(writer.ref())
                .artifactStrategy(ArtifactStrategy.SESSION)
                .build(),
            Artifacts.readOnly());
    orchestratorModel.respond(calls(delegate("delegate_to_writer", "w1", "write it")));
    orchestratorModel.respondText("see report");

    AgentOutput output = orchestrator.runText("report please");

    JsonNode result = toolOutputs(orchestratorModel).get("w1");
    String snapshot = result.path("taskId").asString().substring("writer:".length());
    String expected = "writer_" + snapshot.substring(0, 8) + "/report.md";
    assertThat(result.path("artifacts").path(0).path("name").asString()).isEqualTo(expected);
    assertThat(result.path("artifacts").path(0).has("content")).isFalse();
    assertThat(output.artifacts()).extracting(Artifact::name).containsExactly(expected);
    assertThat(output.artifacts().get(0).metadata().path("invocationId").asString())
        .isEqualTo("writer_" + snapshot.substring(0, 8));
    String listing = systemText(orchestratorModel.lastRequest());
    assertThat(listing)
        .contains(
            "<artifacts>\nThe following artifacts are available in the session. Use the read_artifact"
                + " tool to view their content.\n  - "
                + expected
                + " (20 chars) [from: writer]\n</artifacts>");
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .as("a server-managed sub-agent's tasks can be continued")
        .containsExactly("delegate_to_writer", "continue_task", "read_artifact");
  }

  @Test
  void delegationNestsThreeLevelsDeepWithUsagePerAgent() {
    ProgrammableModel middleModel = model("middle-model");
    ProgrammableModel leafModel = model("leaf-model");
    InMemorySessionStore store = InMemorySessionStore.create();
    Agent leaf = subAgent("leaf", "leaf-model", AgentOptions.builder().sessionStore(store).build());
    Agent middle =
        subAgent(
            "middle",
            "middle-model",
            AgentOptions.builder().sessionStore(store).build(),
            Agents.builder().agents(leaf.ref()).build());
    Agent top =
        orchestrator(
            AgentOptions.builder().sessionStore(store).build(),
            Agents.builder().agents(middle.ref()).build());
    orchestratorModel.respond(
        calls(delegate("delegate_to_middle", "m", "go deeper"))
            .withUsage(GenerationUsage.builder().inputTokens(1).build()));
    middleModel.respond(
        calls(delegate("delegate_to_leaf", "l", "bottom"))
            .withUsage(GenerationUsage.builder().inputTokens(10).build()));
    leafModel.respond(
        reply("leaf says hi").withUsage(GenerationUsage.builder().inputTokens(100).build()));
    middleModel.respond(
        reply("middle relays: leaf says hi")
            .withUsage(GenerationUsage.builder().inputTokens(10).build()));
    orchestratorModel.respond(
        reply("top: leaf says hi").withUsage(GenerationUsage.builder().inputTokens(1).build()));

    AgentOutput output = top.runText("start");

    assertThat(output.text()).isEqualTo("top: leaf says hi");
    assertThat(top.getSnapshot(output.snapshotId()).state().usage().inputTokens()).isEqualTo(2);
    String middleTask = toolOutputs(orchestratorModel).get("m").path("taskId").asString();
    SessionSnapshot middleRow = middle.getSnapshot(middleTask.substring("middle:".length()));
    assertThat(middleRow.state().usage().inputTokens()).isEqualTo(20);
    assertThat(toolOutputs(middleModel).get("l").path("response").asString())
        .isEqualTo("leaf says hi");
  }

  @Test
  void theLimitHoldsUnderManyParallelCallsAndAcrossIterationsThenResets() {
    CountDownLatch together = new CountDownLatch(1);
    AtomicInteger ran = new AtomicInteger();
    Agent worker =
        baton.defineCustomAgent(
            "worker",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    ran.incrementAndGet();
                    try {
                      // Bounded, so a broken limit fails the test instead of hanging it.
                      assertThat(together.await(10, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                      throw new AssertionError(e);
                    }
                    runner.session().addMessage(Message.model("did work"));
                    return null;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(worker.ref()).maxDelegations(3).build());
    ToolRequestPart[] eight = new ToolRequestPart[8];
    for (int i = 0; i < eight.length; i++) {
      eight[i] = delegate("delegate_to_worker", "p" + i, "job " + i);
    }
    orchestratorModel.respond(calls(eight));
    orchestratorModel.respond(calls(delegate("delegate_to_worker", "late", "one more")));
    orchestratorModel.respondText("ok");
    new Thread(
            () -> {
              await().until(() -> ran.get() >= 3);
              together.countDown();
            })
        .start();

    orchestrator.runText("flood");

    List<ModelRequest> requests = orchestratorModel.requests();
    List<Message> second = requests.get(1).messages();
    long worked =
        second.get(second.size() - 1).toolResponses().stream()
            .filter(p -> p.toolResponse().output().path("response").asString().equals("did work"))
            .count();
    assertThat(worked).isEqualTo(3);
    assertThat(ran).hasValue(3);
    assertThat(toolOutputs(orchestratorModel).get("late").path("response").asString())
        .startsWith("Delegation limit reached (3).");

    // The next generate call, the next turn, starts counting again.
    orchestratorModel.respond(calls(delegate("delegate_to_worker", "fresh", "again")));
    orchestratorModel.respondText("ok");
    orchestrator.runText("again", AgentInit.ofState(SessionState.empty()));
    assertThat(toolOutputs(orchestratorModel).get("fresh").path("response").asString())
        .isEqualTo("did work");
  }

  @Test
  void theOrchestratorsMiddlewareNeverSeesTheSubAgentsModelCalls() {
    List<String> seen = new CopyOnWriteArrayList<>();
    Middleware spy =
        Middleware.of(
            "spy",
            ctx ->
                Hooks.builder()
                    .wrapModel(
                        (c, p, next) -> {
                          seen.add(p.model().name());
                          return next.apply(c, p);
                        })
                    .build());
    model("sub-model").respondText("sub answer");
    Agent sub = subAgent("sub", "sub-model", AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, spy, Agents.builder().agents(sub.ref()).build());
    orchestratorModel.respond(calls(delegate("delegate_to_sub", "s", "work")));
    orchestratorModel.respondText("done");
    orchestrator.runText("go");
    assertThat(seen).containsExactly("orch", "orch");
  }

  /** A client-managed state with one earlier exchange. */
  private record SessionStateBuilder(String user, String model) {
    SessionState state() {
      return SessionState.empty().withMessages(List.of(Message.user(user), Message.model(model)));
    }
  }
}
