package dev.baton.server;

import static dev.baton.server.SubAgentQuestions.answer;
import static dev.baton.server.SubAgentQuestions.approve;
import static dev.baton.server.SubAgentQuestions.calls;
import static dev.baton.server.SubAgentQuestions.failure;
import static dev.baton.server.SubAgentQuestions.held;
import static dev.baton.server.SubAgentQuestions.routing;
import static dev.baton.server.SubAgentQuestions.taskIds;
import static dev.baton.server.SubAgentQuestions.taskSnapshot;
import static dev.baton.server.SubAgentQuestions.toolOutput;
import static dev.baton.server.SubAgentQuestions.turn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwarded interrupts of a sub-agent served by another Baton ({@link Agents#forwardInterrupts}):
 * the remote coder's ToolApproval hold ends the orchestrator's turn with a wrapped interrupt, and
 * the caller's answer on the orchestrator becomes a resume turn on the coder's snapshot over the
 * wire.
 */
@Timeout(60)
class RemoteSubAgentInterruptsTest {
  private static final String PATH = "src/Main.java";

  @AutoClose final ServedBaton served = new ServedBaton();
  @AutoClose final Baton client = Baton.builder().experimental().build();
  final ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
  final List<JsonNode> writes = new CopyOnWriteArrayList<>();
  final Agent coder;

  RemoteSubAgentInterruptsTest() {
    var writeFile =
        served.baton.defineJsonTool(
            "write_file",
            "Writes a file.",
            null,
            null,
            (ctx, in) -> {
              writes.add(in);
              return Json.nodes().stringNode("written");
            });
    served.baton.defineAgent(
        "coder",
        InlinePrompt.builder()
            .model("model")
            .system("You write code.")
            .tools(writeFile)
            .use(ToolApproval.allowing())
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    served.start();
    coder =
        client.defineRemoteAgent(
            "coder",
            served.url("/agents/coder"),
            RemoteAgentOptions.builder()
                .description("Writes code.")
                .stateManagement(StateManagement.SERVER)
                .abortable(true)
                .build());
  }

  private Agent orchestrator(Agents.Builder delegation) {
    return client.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model("orch")
            .system("Delegate.")
            .use(delegation.agents(coder.ref()).forwardInterrupts(true).build())
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  /** The coder's agent on its own server, where its sessions are. */
  private Agent servedCoder() {
    return served.baton.agent("coder");
  }

  /**
   * An orchestrator that keeps no sessions (the client does), forwarding the sub-agent's
   * interrupts.
   */
  private Agent clientManagedLead(Agent subAgent) {
    return client.defineAgent(
        "lead",
        InlinePrompt.builder()
            .model("orch")
            .use(Agents.builder().agents(subAgent.ref()).forwardInterrupts(true).build())
            .build(),
        AgentOptions.DEFAULTS);
  }

  /**
   * The models' next replies: the orchestrator's calls the delegation tool given ({@code d1}) with
   * the input given; the remote coder's asks to write {@link #PATH} ({@code w1}), which its
   * ToolApproval holds.
   */
  private void delegatesOneWrite(String tool, ObjectNode input) {
    orch.respond(calls(Part.toolRequest(tool, "d1", input)));
    served.model.respond(
        calls(Part.toolRequest("write_file", "w1", Json.object().put("path", PATH))));
  }

  private static ObjectNode mainClass() {
    return Json.object().put("task", "Write the main class");
  }

  /** The orchestrator delegates; the remote coder asks to write the file; the turn ends held. */
  private AgentOutput heldWrite(Agent orchestrator) {
    delegatesOneWrite("delegate_to_coder", mainClass());
    return orchestrator.runText("Build it");
  }

  private AgentOutput resume(Agent orchestrator, String snapshotId, Resume resume) {
    return SubAgentQuestions.resume(orchestrator, client.context(), snapshotId, resume);
  }

  @Test
  void aRemoteSubAgentsHeldApprovalIsForwardedAndTheApprovalFinishesItsTurnOnItsServer() {
    Agent orchestrator = orchestrator(Agents.builder());
    AgentOutput asked = heldWrite(orchestrator);

    assertThat(orch.lastRequest().messages().get(0).text())
        .as("the system prompt names the remote coder as one that forwards")
        .contains("the sub-agent goes on: delegate_to_coder.");
    ToolRequestPart held = held(asked);
    assertThat(held.toolRequest().name()).isEqualTo("delegate_to_coder");
    assertThat(held.metadata().path("interrupt").path("toolApproval").path("tool").asString())
        .isEqualTo("write_file");
    JsonNode routing = routing(held);
    assertThat(routing.path("agent").asString()).isEqualTo("coder");
    assertThat(routing.path("taskId").asString()).isEqualTo("coder:" + taskSnapshot(held));
    assertThat(routing.at("/interrupts/0/toolRequest/input/path").asString()).isEqualTo(PATH);
    SessionSnapshot heldRow = servedCoder().snapshots().get(taskSnapshot(held));
    assertThat(heldRow.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    assertThat(writes).isEmpty();

    served.model.respondText("Wrote " + PATH);
    orch.respondText("The coder wrote it.");
    AgentOutput done = resume(orchestrator, asked.snapshotId(), approve(held));

    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    JsonNode result = toolOutput(orch, "d1");
    assertThat(result.path("response").asString()).isEqualTo("Wrote " + PATH);
    assertThat(result.path("status").asString()).isEqualTo("completed");
    // The answer was a resume turn on the held snapshot, in the coder's session on its server.
    String resumed = result.path("taskId").asString().substring("coder:".length());
    SessionSnapshot after = servedCoder().snapshots().get(resumed);
    assertThat(after.parentId()).isEqualTo(heldRow.snapshotId());
    assertThat(after.sessionId()).isEqualTo(heldRow.sessionId());
  }

  @Test
  void aDenialReachesTheRemoteSubAgentAsToolApprovalsRefusal() {
    Agent orchestrator = orchestrator(Agents.builder());
    AgentOutput asked = heldWrite(orchestrator);
    served.model.respondText("Understood, I did not write it.");
    orch.respondText("The user declined.");

    AgentOutput done = resume(orchestrator, asked.snapshotId(), answer(held(asked), "denied"));

    assertThat(done.text()).isEqualTo("The user declined.");
    assertThat(writes).isEmpty();
    List<Message> coderSaw = served.model.lastRequest().messages();
    ToolResponsePart refusal = coderSaw.get(coderSaw.size() - 1).toolResponses().get(0);
    assertThat(refusal.toolResponse().ref()).isEqualTo("w1");
    assertThat(refusal.toolResponse().output().asString()).isEqualTo("denied");
    assertThat(toolOutput(orch, "d1").path("response").asString())
        .isEqualTo("Understood, I did not write it.");
  }

  /**
   * The remote coder's snapshot is read with the orchestrator's own credentials, which prove
   * nothing about the caller: a conversation the client keeps could name any held snapshot there.
   * Such an orchestrator cannot route an answer to it, so the question is the seed's dead end from
   * the start, and the system prompt does not promise a pause.
   */
  @Test
  void aClientManagedOrchestratorReportsARemoteSubAgentsQuestionAsText() {
    Agent lead = clientManagedLead(coder);
    delegatesOneWrite("delegate_to_coder", mainClass());
    orch.respondText("The coder needs input.");

    AgentOutput output = lead.runText("Build it");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(orch.lastRequest().messages().get(0).text())
        .contains("<sub-agents>")
        .doesNotContain("your turn usually pauses");
    assertThat(toolOutput(orch, "d1").path("response").asString())
        .startsWith("Sub-agent \"coder\" interrupted for additional input");
    assertThat(writes).isEmpty();
  }

  /** The same remote coder forwards through an orchestrator that keeps its sessions. */
  @Test
  void aServerManagedOrchestratorListsTheRemoteSubAgentAsForwarding() {
    AgentOutput asked = heldWrite(orchestrator(Agents.builder()));

    assertThat(asked.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    assertThat(orch.lastRequest().messages().get(0).text())
        .contains(
            "your turn usually pauses until the user answers, and the sub-agent goes on:"
                + " delegate_to_coder.");
  }

  /**
   * A client that keeps its conversation could still plant a wrapper of another conversation's
   * remote question in its history; the answer is refused before the coder runs.
   */
  @Test
  void aClientManagedOrchestratorCannotAnswerAPlantedRemoteQuestion() {
    Agent orchestrator = orchestrator(Agents.builder());
    AgentOutput asked = heldWrite(orchestrator);
    ToolRequestPart held = held(asked);
    Agent lead = clientManagedLead(coder);
    int coderCalls = served.model.calls();

    Status status =
        failure(
            () ->
                lead.run(
                    client.context(),
                    AgentInput.resume(approve(held)),
                    AgentInit.ofState(orchestrator.snapshots().get(asked.snapshotId()).state()),
                    StreamCallback.discard()));

    assertThat(status).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(writes).isEmpty();
    assertThat(served.model.calls()).isEqualTo(coderCalls);
    SessionSnapshot heldRow = servedCoder().snapshots().get(taskSnapshot(held));
    assertThat(servedCoder().snapshots().latest(heldRow.sessionId()).snapshotId())
        .isEqualTo(heldRow.snapshotId());
  }

  /**
   * A remote session cannot be claimed; what refuses a second answer is the held snapshot no longer
   * being its session's latest on the coder's server.
   */
  @Test
  void aSecondAnswerFindsTheRemoteSessionMovedOnAndRunsNothing() {
    Agent orchestrator = orchestrator(Agents.builder());
    AgentOutput asked = heldWrite(orchestrator);
    ToolRequestPart held = held(asked);
    served.model.respondText("Wrote " + PATH);
    orch.respondText("The coder wrote it.");
    resume(orchestrator, asked.snapshotId(), approve(held));
    int coderCalls = served.model.calls();
    int orchestratorCalls = orch.calls();

    Status again = failure(() -> resume(orchestrator, asked.snapshotId(), approve(held)));

    assertThat(again).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(writes).hasSize(1);
    assertThat(served.model.calls()).isEqualTo(coderCalls);
    assertThat(orch.calls()).isEqualTo(orchestratorCalls);
  }

  /** Baton cannot ask a server how it keeps sessions: a remote agent that declared nothing. */
  @Test
  void aRemoteSubAgentThatDeclaredNoStateManagementKeepsTheSeedsDeadEnd() {
    Agent undeclared =
        client.defineRemoteAgent(
            "helper", served.url("/agents/coder"), RemoteAgentOptions.builder().build());
    Agent lead = clientManagedLead(undeclared);
    delegatesOneWrite("delegate_to_helper", mainClass());
    orch.respondText("The helper needs input.");

    AgentOutput output = lead.runText("Build it");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(orch.lastRequest().messages().get(0).text())
        .doesNotContain("your turn usually pauses");
    assertThat(toolOutput(orch, "d1").path("response").asString())
        .startsWith("Sub-agent \"helper\" interrupted for additional input");
    assertThat(writes).isEmpty();
  }

  /**
   * In the background: the remote task stops on its hold, the wait that finds it asks its question,
   * and the approval resumes the task in the background on its server, under a fresh task ID.
   */
  @Test
  void aRemoteBackgroundTaskAsksAtTheWaitAndResumesInTheBackgroundOnItsServer() {
    Agent orchestrator = orchestrator(Agents.builder().async(true));
    delegatesOneWrite("delegate_to_coder", mainClass().put("name", "main").put("background", true));
    orch.respondText("Started.");
    AgentOutput started = orchestrator.runText("Build it");
    String taskId = toolOutput(orch, "d1").path("taskId").asString();
    String task = taskId.substring("coder:".length());
    assertThat(coder.snapshots().waitFor(task).finishReason())
        .isEqualTo(AgentFinishReason.INTERRUPTED);

    orch.respond(calls(Part.toolRequest("wait_for_background_tasks", "c1", taskIds(taskId))));
    AgentOutput waited =
        turn(orchestrator, client.context(), "How is the coder doing?", started.snapshotId());
    ToolRequestPart held = held(waited);
    assertThat(held.toolRequest().name()).isEqualTo("wait_for_background_tasks");
    assertThat(routing(held).path("taskId").asString()).isEqualTo(taskId);
    assertThat(routing(held).path("name").asString()).isEqualTo("main");
    assertThat(held.metadata().path("interrupt").path("toolApproval").path("tool").asString())
        .isEqualTo("write_file");

    served.model.respondText("Wrote " + PATH);
    orch.respondText("The coder goes on.");
    AgentOutput resumed = resume(orchestrator, waited.snapshotId(), approve(held));

    assertThat(resumed.text()).isEqualTo("The coder goes on.");
    JsonNode launch = toolOutput(orch, "c1");
    assertThat(launch.path("status").asString()).isEqualTo("pending");
    String fresh = launch.path("taskId").asString();
    assertThat(fresh).startsWith("coder:").isNotEqualTo(taskId);
    SessionSnapshot done = coder.snapshots().waitFor(fresh.substring("coder:".length()));
    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.sessionId()).isEqualTo(coder.snapshots().get(task).sessionId());
    assertThat(writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
  }
}
