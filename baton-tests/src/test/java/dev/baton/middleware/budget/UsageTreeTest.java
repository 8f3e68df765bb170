package dev.baton.middleware.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentRef;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.Fallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The usage tree of a turn (Baton's extension): one node per agent invocation, each with its model
 * calls' usage and its total, readable from the output and the session.
 */
class UsageTreeTest extends BudgetTestSupport {
  private final InMemorySessionStore scannerStore = InMemorySessionStore.create();
  private final Map<String, ProgrammableModel> scripts = new HashMap<>();

  /** A prompt agent with a programmable model of its own, scripted through {@link #script}. */
  private Agent subAgent(String name, AgentOptions options, Middleware... use) {
    scripts.put(name, ProgrammableModel.define(baton.registry(), name + "-model"));
    return baton.defineAgent(
        name,
        InlinePrompt.builder()
            .model(name + "-model")
            .system("You are " + name + ".")
            .use(use)
            .build(),
        options);
  }

  private ProgrammableModel script(String agent) {
    return scripts.get(agent);
  }

  private Agent orchestrator(Agent... agents) {
    return baton.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model("pm")
            .system("Delegate.")
            .use(
                Agents.builder()
                    .agents(Arrays.stream(agents).map(Agent::ref).toArray(AgentRef[]::new))
                    .async(true)
                    .build())
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).usageTree(true).build());
  }

  @Test
  void theTreeOfAnOrchestratorAddsUpToEveryModelCall() {
    Agent checker = subAgent("checker", AgentOptions.DEFAULTS);
    Agent planner =
        subAgent("planner", AgentOptions.DEFAULTS, Agents.builder().agents(checker.ref()).build());
    Agent writer = subAgent("writer", AgentOptions.DEFAULTS);
    Agent scanner = subAgent("scanner", AgentOptions.builder().sessionStore(scannerStore).build());
    Agent orchestrator = orchestrator(writer, planner, scanner);
    script("writer").respond(answer("written", total(10)));
    script("planner")
        .respond(
            calls(total(100), Part.toolRequest("delegate_to_checker", "c1", task("check"))),
            answer("planned", total(100)));
    script("checker").respond(answer("checked", total(1000)));
    script("scanner").respond(answer("scanned", total(10_000)));
    model.respond(
        calls(
            total(1),
            Part.toolRequest("delegate_to_writer", "d1", task("write")),
            Part.toolRequest("delegate_to_planner", "d2", task("plan")),
            Part.toolRequest("delegate_to_scanner", "d3", task("scan").put("background", true))));
    model.fallback(this::waitThenAnswer);

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.text()).isEqualTo("all done");
    AgentUsage tree = AgentUsage.of(output.message()).orElseThrow();
    assertThat(tree.agent()).isEqualTo("orchestrator");
    assertThat(tree.sessionId()).isEqualTo(output.sessionId());
    assertThat(tree.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(tree.calls()).containsExactly(total(1), total(1), total(1));
    assertThat(tree.usage()).isEqualTo(total(3));
    List<AgentUsage> children =
        tree.children().stream().sorted(Comparator.comparing(AgentUsage::agent)).toList();
    assertThat(children)
        .extracting(AgentUsage::agent)
        .containsExactly("planner", "scanner", "writer");
    AgentUsage plannerNode = children.get(0);
    assertThat(plannerNode.calls()).containsExactly(total(100), total(100));
    assertThat(plannerNode.children()).hasSize(1);
    assertThat(plannerNode.children().get(0).agent()).isEqualTo("checker");
    assertThat(plannerNode.children().get(0).total()).isEqualTo(total(1000));
    assertThat(plannerNode.total()).isEqualTo(total(1200));
    AgentUsage scannerNode = children.get(1);
    assertThat(scannerNode.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(scannerNode.total()).isEqualTo(total(10_000));
    assertThat(children.get(2).total()).isEqualTo(total(10));
    // Every model call of the run, once: 3 + 10 + 200 + 1,000 + 10,000.
    assertThat(tree.total()).isEqualTo(total(11_213));

    // The session holds the same tree on the turn's final message; its usage is its own calls.
    SessionSnapshot row = orchestrator.snapshots().get(output.snapshotId());
    List<Message> history = row.state().messages();
    assertThat(AgentUsage.of(history.get(history.size() - 1))).contains(tree);
    assertThat(row.state().usage()).isEqualTo(total(3));
    // The background task's own session records its settled tree.
    SessionSnapshot scanned = scanner.snapshots().latest(scannerNode.sessionId());
    List<Message> scannerHistory = scanned.state().messages();
    assertThat(AgentUsage.of(scannerHistory.get(scannerHistory.size() - 1)).orElseThrow().total())
        .isEqualTo(total(10_000));

    JsonNode json = Json.toTree(tree);
    assertThat(json.path("usage")).isEqualTo(Json.parse("{\"totalTokens\": 3}"));
    assertThat(json.path("total")).isEqualTo(Json.parse("{\"totalTokens\": 11213}"));
    assertThat(json.path("finishReason").asString()).isEqualTo("stop");
    assertThat(Json.convert(json, AgentUsage.class)).isEqualTo(tree);
  }

  @Test
  void aBackgroundTaskThatSettlesAfterItsTurnJoinsTheTreeOfTheTurnThatCollectsIt() {
    Agent scanner = subAgent("scanner", AgentOptions.builder().sessionStore(scannerStore).build());
    Agent orchestrator = orchestrator(scanner);
    CountDownLatch release = new CountDownLatch(1);
    script("scanner").step().blockUntil(release).respond(answer("scanned", total(500)));
    model.respond(
        calls(
            total(1),
            Part.toolRequest("delegate_to_scanner", "d1", task("scan").put("background", true))),
        answer("launched", total(1)));

    AgentOutput first = orchestrator.runText("go");

    // The turn ends first: its tree shows the task running, with nothing spent yet.
    AgentUsage launched = AgentUsage.of(first.message()).orElseThrow();
    assertThat(launched.total()).isEqualTo(total(2));
    AgentUsage running = launched.children().get(0);
    assertThat(running.agent()).isEqualTo("scanner");
    assertThat(running.isRunning()).isTrue();
    assertThat(running.finishReason()).isNull();
    assertThat(running.calls()).isEmpty();

    release.countDown();
    String taskId =
        launchedTask(orchestrator.snapshots().get(first.snapshotId()).state().messages());
    model.respond(
        calls(total(1), reportCall("wait_for_background_tasks", "w1", taskId)),
        answer("collected", total(1)));
    model.respond(
        calls(total(1), reportCall("check_background_tasks", "c1", taskId)),
        answer("checked again", total(1)));
    AgentOutput second = orchestrator.runText("collect", AgentInit.ofSession(first.sessionId()));
    AgentOutput third = orchestrator.runText("check", AgentInit.ofSession(first.sessionId()));

    // The turn whose wait finds it settled collects its tree, as its own session recorded it.
    AgentUsage collected = AgentUsage.of(second.message()).orElseThrow();
    assertThat(collected.children()).hasSize(1);
    AgentUsage scanned = collected.children().get(0);
    assertThat(scanned.agent()).isEqualTo("scanner");
    assertThat(scanned.sessionId()).isEqualTo(running.sessionId());
    assertThat(scanned.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(scanned.calls()).containsExactly(total(500));
    assertThat(collected.total()).isEqualTo(total(502));
    // A later report adds nothing: the turns' trees count each call once, 2 + 502 + 2.
    AgentUsage checked = AgentUsage.of(third.message()).orElseThrow();
    assertThat(checked.children()).isEmpty();
    assertThat(launched.total().plus(collected.total()).plus(checked.total()))
        .isEqualTo(total(506));
  }

  @Test
  void aBackgroundTaskThatSettledBeforeItsTurnEndedCountsInThatTurnOnly() {
    Agent scanner = subAgent("scanner", AgentOptions.builder().sessionStore(scannerStore).build());
    Agent orchestrator = orchestrator(scanner);
    script("scanner").respond(answer("scanned", total(500)));
    model.respond(
        calls(
            total(1),
            Part.toolRequest("delegate_to_scanner", "d1", task("scan").put("background", true))));
    // The turn's last call waits until the task has settled, with no report of it in the turn.
    model.fallback(
        request -> {
          String taskId = launchedTask(request.messages());
          scanner.snapshots().waitFor(taskId.substring("scanner:".length()));
          return answer("launched", total(1));
        });

    AgentOutput first = orchestrator.runText("go");
    String taskId =
        launchedTask(orchestrator.snapshots().get(first.snapshotId()).state().messages());
    model.respond(
        calls(total(1), reportCall("check_background_tasks", "c1", taskId)),
        answer("checked", total(1)));
    AgentOutput second = orchestrator.runText("check", AgentInit.ofSession(first.sessionId()));

    AgentUsage launched = AgentUsage.of(first.message()).orElseThrow();
    assertThat(launched.children()).hasSize(1);
    assertThat(launched.children().get(0).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(launched.total()).isEqualTo(total(502));
    // The later report finds it settled, but its tree was recorded settled already.
    AgentUsage checked = AgentUsage.of(second.message()).orElseThrow();
    assertThat(checked.children()).isEmpty();
    assertThat(checked.total()).isEqualTo(total(2));
    assertThat(second.text()).isEqualTo("checked");
  }

  @Test
  void aTaskReportedSettledBeforeIsNotCollectedAgainAfterItsSessionWasContinued() {
    Agent scanner = subAgent("scanner", AgentOptions.builder().sessionStore(scannerStore).build());
    Agent orchestrator = orchestrator(scanner);
    CountDownLatch first = new CountDownLatch(1);
    CountDownLatch second = new CountDownLatch(1);
    script("scanner").step().blockUntil(first).respond(answer("scanned", total(500)));
    script("scanner").step().blockUntil(second).respond(answer("scanned more", total(50)));
    model.respond(
        calls(
            total(1),
            Part.toolRequest("delegate_to_scanner", "d1", task("scan").put("background", true))),
        answer("launched", total(1)));
    AgentOutput launched = orchestrator.runText("go");
    String session = launched.sessionId();
    first.countDown();
    String taskId =
        launchedTask(orchestrator.snapshots().get(launched.snapshotId()).state().messages());
    model.respond(
        calls(total(1), reportCall("wait_for_background_tasks", "w1", taskId)),
        answer("collected", total(1)));
    AgentOutput collected = orchestrator.runText("collect", AgentInit.ofSession(session));
    // The task goes on in its session, in the background: the turn records it running.
    model.respond(
        calls(
            total(1),
            Part.toolRequest(
                "continue_task",
                "k1",
                Json.object()
                    .put("taskId", taskId)
                    .put("instructions", "more")
                    .put("background", true))),
        answer("continued", total(1)));
    AgentOutput continued = orchestrator.runText("continue", AgentInit.ofSession(session));
    String continuation =
        taskIdFrom(
            orchestrator.snapshots().get(continued.snapshotId()).state().messages(),
            "continue_task");
    model.respond(
        calls(total(1), reportCall("check_background_tasks", "c1", taskId)),
        answer("checked", total(1)));
    AgentOutput rechecked = orchestrator.runText("check", AgentInit.ofSession(session));
    second.countDown();
    model.respond(
        calls(total(1), reportCall("wait_for_background_tasks", "w2", continuation)),
        answer("collected more", total(1)));
    AgentOutput collectedMore = orchestrator.runText("collect", AgentInit.ofSession(session));

    List<AgentUsage> trees =
        List.of(launched, collected, continued, rechecked, collectedMore).stream()
            .map(output -> AgentUsage.of(output.message()).orElseThrow())
            .toList();
    assertThat(trees.get(1).total()).isEqualTo(total(502));
    assertThat(trees.get(2).children()).singleElement().matches(AgentUsage::isRunning);
    // The old task's report finds it settled again; its first report collected it already.
    assertThat(trees.get(3).children()).isEmpty();
    // The continuation is collected by the turn that first reports it settled.
    assertThat(trees.get(4).children())
        .singleElement()
        .satisfies(node -> assertThat(node.calls()).containsExactly(total(50)));
    // Every call once: the orchestrator's ten, 500 and 50.
    assertThat(
            trees.stream()
                .map(AgentUsage::total)
                .reduce(GenerationUsage.EMPTY, GenerationUsage::plus))
        .isEqualTo(total(560));
  }

  @Test
  void eachNodeSumsItsOwnCallsByModelApart() {
    Agent writer = subAgent("writer", AgentOptions.DEFAULTS);
    ProgrammableModel backup = ProgrammableModel.define(baton.registry(), "backup");
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("pm")
                .system("Delegate.")
                // The last call fails on pm and goes to backup: two models in the one turn.
                .use(Agents.builder().agents(writer.ref()).build(), Fallback.to("backup"))
                .build(),
            AgentOptions.builder()
                .sessionStore(InMemorySessionStore.create())
                .usageTree(true)
                .build());
    script("writer").respond(answer("first", total(10)), answer("second", total(20)));
    model.respond(
        calls(total(1), Part.toolRequest("delegate_to_writer", "d1", task("write"))),
        calls(total(2), Part.toolRequest("delegate_to_writer", "d2", task("write again"))));
    model.step().fail(new BatonException(Status.UNAVAILABLE, "pm is down"));
    backup.respond(answer("all done", total(50)));

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.text()).isEqualTo("all done");
    AgentUsage tree = AgentUsage.of(output.message()).orElseThrow();
    assertThat(tree.calls()).containsExactly(total(1), total(2), total(50));
    assertThat(tree.models()).containsExactly(entry("pm", total(3)), entry("backup", total(50)));
    // Each sub-agent turn has a node of its own, with its own model's calls only.
    assertThat(tree.children())
        .extracting(AgentUsage::models)
        .containsExactlyInAnyOrder(
            Map.of("writer-model", total(10)), Map.of("writer-model", total(20)));

    JsonNode json = Json.toTree(tree);
    assertThat(json.path("models"))
        .isEqualTo(Json.parse("{\"pm\": {\"totalTokens\": 3}, \"backup\": {\"totalTokens\": 50}}"));
    // The session's copy reads back the same, models included.
    List<Message> history = orchestrator.snapshots().get(output.snapshotId()).state().messages();
    assertThat(AgentUsage.of(history.get(history.size() - 1))).contains(tree);
  }

  @Test
  void aTreeRecordedBeforeNodesNamedTheirModelsStillReads() {
    String recorded =
        """
        {"agent": "orchestrator", "sessionId": "s1", "finishReason": "stop",
         "calls": [{"totalTokens": 3}], "usage": {"totalTokens": 3}, "total": {"totalTokens": 13},
         "children": [{"agent": "writer", "sessionId": "s2", "finishReason": "stop",
                       "calls": [{"totalTokens": 10}], "children": []}]}
        """;
    Message message =
        Message.model("done")
            .withMetadata(Json.object().set(AgentUsage.METADATA_KEY, Json.parse(recorded)));

    AgentUsage tree = AgentUsage.of(message).orElseThrow();

    assertThat(tree.models()).isEmpty();
    assertThat(tree.children().get(0).models()).isEmpty();
    assertThat(tree.total()).isEqualTo(total(13));
    // Written again, the tree says it knows no model rather than naming one.
    assertThat(Json.toTree(tree).path("models")).isEqualTo(Json.object());
  }

  @Test
  void noTreeIsRecordedUnlessTheAgentAsksForOne() {
    Agent plain =
        baton.defineAgent(
            "plain",
            InlinePrompt.builder().model("pm").system("Hi.").build(),
            AgentOptions.DEFAULTS);
    model.respond(answer("hello", total(5)));

    AgentOutput output = plain.runText("hi");

    assertThat(output.message().metadata()).isNull();
    assertThat(AgentUsage.of(output.message())).isEmpty();
  }

  /** Waits for the background task the first round launched, then answers. */
  private ModelResponse waitThenAnswer(ModelRequest request) {
    List<Message> messages = request.messages();
    List<ToolResponsePart> last = messages.get(messages.size() - 1).toolResponses();
    if (last.stream().anyMatch(r -> r.toolResponse().name().equals("wait_for_background_tasks"))) {
      return answer("all done", total(1));
    }
    return calls(total(1), reportCall("wait_for_background_tasks", "w1", launchedTask(messages)));
  }

  /** The ID of the scanner task a delegation result in the conversation carries. */
  private static String launchedTask(List<Message> messages) {
    return taskIdFrom(messages, "delegate_to_scanner");
  }

  /** The task ID the first result of {@code tool} in the conversation carries. */
  private static String taskIdFrom(List<Message> messages, String tool) {
    return messages.stream()
        .flatMap(m -> m.toolResponses().stream())
        .filter(r -> r.toolResponse().name().equals(tool))
        .map(r -> r.toolResponse().output().path("taskId").asString(""))
        .filter(id -> id.startsWith("scanner:"))
        .findFirst()
        .orElseThrow();
  }

  /** A call to a tool that reports on a task: check or wait. */
  private static ToolRequestPart reportCall(String tool, String ref, String taskId) {
    var input = Json.object();
    input.putArray("taskIds").add(taskId);
    return Part.toolRequest(tool, ref, input);
  }

  private static ObjectNode task(String task) {
    return Json.object().put("task", task);
  }
}
