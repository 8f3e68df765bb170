package dev.baton.server;

import static dev.baton.server.SubAgentQuestions.answer;
import static dev.baton.server.SubAgentQuestions.calls;
import static dev.baton.server.SubAgentQuestions.failure;
import static dev.baton.server.SubAgentQuestions.held;
import static dev.baton.server.SubAgentQuestions.restart;
import static dev.baton.server.SubAgentQuestions.routing;
import static dev.baton.server.SubAgentQuestions.taskIds;
import static dev.baton.server.SubAgentQuestions.taskSnapshot;
import static dev.baton.server.SubAgentQuestions.toolOutput;
import static dev.baton.server.SubAgentQuestions.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Forwarded interrupts of a sub-agent served by Genkit JS (npm {@code genkit@1.42.0}, the {@code
 * clerk} of {@code src/test/js/server.cjs}): its tool's own question ends the Baton orchestrator's
 * turn with a wrapped interrupt, and a respond or a restart on the orchestrator becomes a resume
 * turn on the clerk's snapshot in the JS process.
 */
@Timeout(120)
class JsSubAgentInterruptsTest {
  private static NodeFixture.Server js;

  @AutoClose final Baton client = Baton.builder().experimental().build();
  final ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
  final Agent clerk =
      client.defineRemoteAgent(
          "clerk",
          URI.create("http://127.0.0.1:" + js.port() + "/agents/clerk"),
          RemoteAgentOptions.builder()
              .description("Files reports.")
              .stateManagement(StateManagement.SERVER)
              .abortable(true)
              .waitPollInterval(Duration.ofMillis(50))
              .build());
  final Agent orchestrator =
      client.defineAgent(
          "orchestrator",
          InlinePrompt.builder()
              .model("orch")
              .system("Delegate.")
              .use(Agents.builder().agents(clerk.ref()).async(true).forwardInterrupts(true).build())
              .build(),
          AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());

  // A first run installs the npm packages, which NodeFixture bounds at ten minutes.
  @BeforeAll
  @Timeout(value = 11, unit = TimeUnit.MINUTES)
  static void startJs() {
    NodeFixture.require();
    js = NodeFixture.server("server.cjs");
  }

  @AfterAll
  static void stopJs() {
    if (js != null) {
      js.close();
    }
  }

  /** The orchestrator delegates; the clerk's tool asks before it files; the turn ends held. */
  private AgentOutput asked(String title) {
    orch.respond(
        calls(Part.toolRequest("delegate_to_clerk", "d1", Json.object().put("task", title))));
    return orchestrator.runText("File " + title);
  }

  private AgentOutput resume(String snapshotId, Resume resume) {
    return SubAgentQuestions.resume(orchestrator, client.context(), snapshotId, resume);
  }

  @Test
  void aGenkitJsToolsQuestionIsForwardedAndARestartRunsTheToolInTheJsSession() {
    AgentOutput asked = asked("Q3 numbers");

    ToolRequestPart held = held(asked);
    assertThat(held.toolRequest().name()).as(js.output()).isEqualTo("delegate_to_clerk");
    // The JS tool's own question, as its top-level fields.
    assertThat(held.metadata().path("interrupt").path("question").asString())
        .isEqualTo("File Q3 numbers?");
    JsonNode routing = routing(held);
    assertThat(routing.path("agent").asString()).isEqualTo("clerk");
    assertThat(routing.at("/interrupts/0/toolRequest/name").asString()).isEqualTo("file_report");
    assertThat(routing.at("/interrupts/0/toolRequest/input/title").asString())
        .isEqualTo("Q3 numbers");
    SessionSnapshot heldRow = clerk.snapshots().get(taskSnapshot(held));
    assertThat(heldRow.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);

    orch.respondText("Filed.");
    AgentOutput done =
        resume(asked.snapshotId(), restart(held, Json.object().put("approved", true)));

    assertThat(done.text()).isEqualTo("Filed.");
    JsonNode result = toolOutput(orch, "d1");
    assertThat(result.path("response").asString())
        .isEqualTo("clerk: \"filed Q3 numbers ({\\\"approved\\\":true})\"");
    assertThat(result.path("status").asString()).isEqualTo("completed");
    // A resume turn on the held snapshot, in the clerk's session in the JS process.
    String resumed = result.path("taskId").asString().substring("clerk:".length());
    SessionSnapshot after = clerk.snapshots().get(resumed);
    assertThat(after.parentId()).isEqualTo(heldRow.snapshotId());
    assertThat(after.sessionId()).isEqualTo(heldRow.sessionId());
  }

  @Test
  void aResponseStandsInForTheGenkitJsToolsOutput() {
    AgentOutput asked = asked("the minutes");
    orch.respondText("Not filed.");

    AgentOutput done = resume(asked.snapshotId(), answer(held(asked), "not now"));

    assertThat(done.text()).as(js.output()).isEqualTo("Not filed.");
    assertThat(toolOutput(orch, "d1").path("response").asString()).isEqualTo("clerk: \"not now\"");
  }

  /** Genkit JS resumes any completed snapshot; the orchestrator refuses one that is not latest. */
  @Test
  void aSecondAnswerFindsTheJsSessionMovedOnAndRunsNothing() {
    AgentOutput asked = asked("the budget");
    ToolRequestPart held = held(asked);
    orch.respondText("Filed.");
    resume(asked.snapshotId(), answer(held, "yes"));
    SessionSnapshot heldRow = clerk.snapshots().get(taskSnapshot(held));
    String latest = clerk.snapshots().latest(heldRow.sessionId()).snapshotId();
    int orchestratorCalls = orch.calls();

    Status again = failure(() -> resume(asked.snapshotId(), answer(held, "yes")));

    assertThat(again).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(orch.calls()).isEqualTo(orchestratorCalls);
    assertThat(clerk.snapshots().latest(heldRow.sessionId()).snapshotId()).isEqualTo(latest);
  }

  /**
   * In the background Genkit JS cannot be answered: it writes a detached turn's row as its own
   * parent, so its session has no latest row to prove the question still open, and the check
   * reports the task as the seed does, a question that is a dead end.
   */
  @Test
  void aGenkitJsBackgroundTaskThatStopsOnAQuestionIsReportedAsText() {
    orch.respond(
        calls(
            Part.toolRequest(
                "delegate_to_clerk",
                "d1",
                Json.object().put("task", "the audit").put("background", true))));
    orch.respondText("Started.");
    AgentOutput started = orchestrator.runText("File the audit");
    String taskId = toolOutput(orch, "d1").path("taskId").asString();
    String task = taskId.substring("clerk:".length());
    SessionSnapshot row = clerk.snapshots().waitFor(task);
    assertThat(row.finishReason()).as(js.output()).isEqualTo(AgentFinishReason.INTERRUPTED);
    assertThat(row.parentId()).isEqualTo(task);

    orch.respond(calls(Part.toolRequest("check_background_tasks", "c1", taskIds(taskId))));
    orch.respondText("The clerk needs more.");
    AgentOutput checked =
        turn(orchestrator, client.context(), "Is it filed?", started.snapshotId());

    assertThat(checked.finishReason()).isEqualTo(AgentFinishReason.STOP);
    JsonNode report = toolOutput(orch, "c1").path("tasks").get(0);
    assertThat(report.path("status").asString()).isEqualTo("failed");
    assertThat(report.path("error").asString())
        .startsWith("The sub-agent interrupted for additional input");
    assertThat(report.has("interrupt")).isFalse();
  }
}
