package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.PATH;
import static dev.baton.middleware.agents.SubAgentTeam.approve;
import static dev.baton.middleware.agents.SubAgentTeam.calls;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.tokens;
import static dev.baton.middleware.agents.SubAgentTeam.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.SpanCapture;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Usage and tracing across a forwarded sub-agent question: the usage trees an orchestrator's turns
 * record count each model call once, however the pause splits the work into turns, and the resumed
 * sub-agent turn is traced under the orchestrator's resumed turn.
 */
@Timeout(30)
class ForwardedInterruptUsageTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final Baton baton =
      Baton.builder().experimental().openTelemetry(SpanCapture.exportingTo(exporter)).build();

  @AutoClose
  private final SubAgentTeam team =
      new SubAgentTeam(
          baton,
          InMemorySessionStore.create(),
          AgentOptions.builder()
              .sessionStore(InMemorySessionStore.create())
              .usageTree(true)
              .build(),
          ToolApproval.allowing(),
          delegation -> delegation.async(true).forwardInterrupts(true));

  private final ProgrammableModel orchestratorModel = team.orchestratorModel;
  private final ProgrammableModel coderModel = team.coderModel;

  @Test
  void theTreesOfASynchronousDelegationThatPausedCountEachCallOnce() {
    orchestratorModel.respond(calls(tokens(1), delegate("d1", false)));
    coderModel.respond(calls(tokens(10), write("w1", PATH)));
    AgentOutput asked = run(AgentInput.text("Build it"), AgentInit.NEW);
    coderModel.respond(answer("Wrote it", tokens(100)));
    orchestratorModel.respond(answer("Done.", tokens(1000)));

    AgentOutput done = resume(asked, approve(held(asked)));

    assertThat(done.text()).isEqualTo("Done.");
    assertThat(paths()).containsExactly(PATH);
    assertThat(callsIn(conversation(done))).containsExactlyInAnyOrder(1, 10, 100, 1000);
  }

  @Test
  void aSubAgentThatAskedAgainKeepsTheCallsOfTheTurnThatAskedInTheTree() {
    orchestratorModel.respond(calls(tokens(1), delegate("d1", false)));
    coderModel.respond(calls(tokens(10), write("w1", PATH)));
    AgentOutput asked = run(AgentInput.text("Build it"), AgentInit.NEW);
    // The answered coder asks to write a second file: the orchestrator's model is not called.
    coderModel.respond(calls(tokens(100), write("w2", "README.md")));
    AgentOutput again = resume(asked, approve(held(asked)));
    coderModel.respond(answer("Wrote both", tokens(1000)));
    orchestratorModel.respond(answer("Done.", tokens(10_000)));

    AgentOutput done = resume(again, approve(held(again)));

    assertThat(done.text()).isEqualTo("Done.");
    assertThat(paths()).containsExactly(PATH, "README.md");
    // The call held again is dropped from the conversation; the tree it carried is not.
    assertThat(callsIn(conversation(done))).containsExactlyInAnyOrder(1, 10, 100, 1000, 10_000);
  }

  @Test
  void aBackgroundTaskThatPausedCountsItsCallsBeforeAndAfterTheQuestionOnce() throws Exception {
    // The task's first call waits until the launching turn has ended, so that turn records it
    // running and a later turn must collect what it spent before its question.
    CountDownLatch launched = new CountDownLatch(1);
    coderModel.step().blockUntil(launched).respond(calls(tokens(100), write("w1", PATH)));
    orchestratorModel.respond(calls(tokens(1), delegate("d1", true)));
    orchestratorModel.respond(answer("Started.", tokens(10)));
    AgentOutput started = run(AgentInput.text("Build it"), AgentInit.NEW);
    String taskId = toolOutputs().get("d1");
    launched.countDown();
    assertThat(team.coder.snapshots().waitFor(snapshotOf(taskId)).finishReason())
        .isEqualTo(AgentFinishReason.INTERRUPTED);
    orchestratorModel.respond(calls(tokens(1000), check("c1", taskId)));
    AgentOutput asked =
        run(AgentInput.text("How is it going?"), AgentInit.ofSnapshot(started.snapshotId()));

    // The check that asked the question counts what the task spent until it asked.
    assertThat(callsIn(AgentUsage.of(asked.message()).orElseThrow())).containsExactly(1000, 100);

    coderModel.respond(answer("Wrote it", tokens(10_000)));
    orchestratorModel.respond(answer("It goes on.", tokens(100_000)));
    AgentOutput answered = resume(asked, approve(held(asked)));
    String fresh = toolOutputs().get("c1");
    assertThat(team.coder.snapshots().waitFor(snapshotOf(fresh)).finishReason())
        .isEqualTo(AgentFinishReason.STOP);
    orchestratorModel.respond(calls(tokens(1_000_000), check("c2", fresh)));
    orchestratorModel.respond(answer("Done.", tokens(10_000_000)));

    AgentOutput done =
        run(AgentInput.text("Is it done?"), AgentInit.ofSnapshot(answered.snapshotId()));

    assertThat(done.text()).isEqualTo("Done.");
    assertThat(paths()).containsExactly(PATH);
    assertThat(callsIn(conversation(done)))
        .containsExactlyInAnyOrder(1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000);
  }

  @Test
  void theResumedSubAgentTurnIsTracedUnderTheOrchestratorsResumedTurn() {
    orchestratorModel.respond(calls(tokens(1), delegate("d1", false)));
    coderModel.respond(calls(tokens(10), write("w1", PATH)));
    AgentOutput asked = run(AgentInput.text("Build it"), AgentInit.NEW);
    coderModel.respondText("Wrote it");
    orchestratorModel.respondText("Done.");
    exporter.reset();

    resume(asked, approve(held(asked)));

    List<SpanData> spans = exporter.getFinishedSpanItems();
    SpanData resumedTurn = only(spans, "orchestrator", "runTurn-1");
    SpanData coderRun = only(spans, "coder", null);
    assertThat(ancestors(spans, coderRun)).contains(resumedTurn.getSpanId());
    // Its own turn, the held write and the coder's model call are under it.
    assertThat(descendants(spans, coderRun))
        .extracting(SpanData::getName)
        .contains("runTurn-1", "write_file", "coder-model");
  }

  // ---- the conversation ------------------------------------------------------------------------

  private AgentOutput run(AgentInput input, AgentInit init) {
    return team.orchestrator.run(baton.context(), input, init, StreamCallback.discard());
  }

  private AgentOutput resume(AgentOutput interrupted, Resume resume) {
    return team.resume(baton.context(), interrupted.snapshotId(), resume);
  }

  /** The paths the coder wrote, in order. */
  private List<String> paths() {
    return team.writes.stream().map(write -> write.path("path").asString()).toList();
  }

  /** The orchestrator's saved history after the turn given. */
  private List<Message> conversation(AgentOutput output) {
    return team.orchestrator.snapshots().get(output.snapshotId()).state().messages();
  }

  /**
   * The latest tool output per ref the orchestrator's model was sent; a task ID when it has one.
   */
  private Map<String, String> toolOutputs() {
    return orchestratorModel.lastRequest().messages().stream()
        .flatMap(message -> message.toolResponses().stream())
        .collect(
            Collectors.toMap(
                part -> part.toolResponse().ref(),
                part -> part.toolResponse().output().path("taskId").asString(""),
                (earlier, later) -> later));
  }

  /** The total tokens of every call the trees recorded on a conversation's messages hold. */
  private static List<Integer> callsIn(List<Message> conversation) {
    List<Integer> calls = new ArrayList<>();
    for (Message message : conversation) {
      AgentUsage.of(message).ifPresent(tree -> calls.addAll(callsIn(tree)));
    }
    return calls;
  }

  private static List<Integer> callsIn(AgentUsage tree) {
    List<Integer> calls = new ArrayList<>();
    tree.calls().forEach(call -> calls.add(call.totalTokens()));
    tree.children().forEach(child -> calls.addAll(callsIn(child)));
    return calls;
  }

  // ---- spans -----------------------------------------------------------------------------------

  /** The one span of this name, under a parent of the name given (any, when null). */
  private static SpanData only(List<SpanData> spans, String parent, String name) {
    String wanted = name == null ? parent : name;
    List<SpanData> found =
        spans.stream()
            .filter(span -> span.getName().equals(wanted))
            .filter(span -> name == null || parentName(spans, span).equals(parent))
            .toList();
    assertThat(found).as("spans named " + wanted).hasSize(1);
    return found.get(0);
  }

  private static String parentName(List<SpanData> spans, SpanData span) {
    return spans.stream()
        .filter(s -> s.getSpanId().equals(span.getParentSpanId()))
        .map(SpanData::getName)
        .findFirst()
        .orElse("");
  }

  private static List<String> ancestors(List<SpanData> spans, SpanData span) {
    Map<String, SpanData> byId =
        spans.stream().collect(Collectors.toMap(SpanData::getSpanId, Function.identity()));
    List<String> ancestors = new ArrayList<>();
    SpanData parent = byId.get(span.getParentSpanId());
    while (parent != null) {
      ancestors.add(parent.getSpanId());
      parent = byId.get(parent.getParentSpanId());
    }
    return ancestors;
  }

  private static List<SpanData> descendants(List<SpanData> spans, SpanData root) {
    return spans.stream()
        .filter(span -> ancestors(spans, span).contains(root.getSpanId()))
        .toList();
  }

  // ---- calls and answers -----------------------------------------------------------------------

  private static ModelResponse answer(String text, GenerationUsage usage) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP).withUsage(usage);
  }

  private static ToolRequestPart delegate(String ref, boolean background) {
    ObjectNode input = Json.object().put("task", "Write the main class");
    if (background) {
      input.put("background", true);
    }
    return Part.toolRequest("delegate_to_coder", ref, input);
  }

  private static ToolRequestPart check(String ref, String taskId) {
    ObjectNode input = Json.object();
    ArrayNode ids = input.putArray("taskIds");
    ids.add(taskId);
    return Part.toolRequest("check_background_tasks", ref, input);
  }

  private static String snapshotOf(String taskId) {
    return taskId.substring("coder:".length());
  }
}
