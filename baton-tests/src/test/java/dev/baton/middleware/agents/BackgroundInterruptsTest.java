package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.answer;
import static dev.baton.middleware.agents.SubAgentTeam.approve;
import static dev.baton.middleware.agents.SubAgentTeam.calls;
import static dev.baton.middleware.agents.SubAgentTeam.failure;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.interrupts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.Baton;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwarded interrupts of background tasks ({@link Agents#forwardInterrupts} with {@code async}): a
 * task that stops on a held call reports {@code interrupted}; the check, wait or settle notice that
 * sees it ends the orchestrator's turn with the wrapped interrupt, and the answer resumes the task
 * in the background under a fresh task ID in the same session.
 */
@Timeout(30)
class BackgroundInterruptsTest {
  private static final String PATH = SubAgentTeam.PATH;
  private static final String CHECK = "check_background_tasks";

  @TempDir Path dir;

  private final List<Baton> instances = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() {
    instances.forEach(Baton::close);
  }

  /**
   * One instance of the team, delegating in the background; both agents keep their sessions in the
   * stores given.
   */
  private final class Team extends SubAgentTeam {
    // Who the orchestrator's turns run as.
    ActionContext as = baton.context();

    Team(SessionStore coderStore, SessionStore orchestratorStore, boolean forward, boolean notify) {
      super(
          coderStore,
          orchestratorStore,
          ToolApproval.allowing("ask_user"),
          delegation -> delegation.async(true).notifySettled(notify).forwardInterrupts(forward));
      instances.add(baton);
    }

    /**
     * The orchestrator launches the coder in the background, labelled "main", and the coder's task
     * stops on its held write; returns once the task has settled.
     */
    Launched launched() {
      return launched(Part.toolRequest("write_file", "w1", Json.object().put("path", PATH)));
    }

    /** As {@link #launched()}, with the coder's task stopping on the calls given. */
    Launched launched(ToolRequestPart... held) {
      orchestratorModel.respond(
          calls(
              Part.toolRequest(
                  "delegate_to_coder",
                  "d1",
                  Json.object()
                      .put("task", "Write the main class")
                      .put("name", "main")
                      .put("background", true))));
      orchestratorModel.respondText("Started.");
      coderModel.respond(calls(held));
      AgentOutput started =
          orchestrator.run(
              as, AgentInput.text("Build it"), AgentInit.NEW, StreamCallback.discard());
      String taskId = toolOutput("d1").path("taskId").asString();
      assertThat(settle(taskId).finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
      return new Launched(started.snapshotId(), taskId);
    }

    /** A user turn on the orchestrator's session, after the snapshot given. */
    AgentOutput turn(String text, String after) {
      return orchestrator.run(
          as, AgentInput.text(text), AgentInit.ofSnapshot(after), StreamCallback.discard());
    }

    /** The orchestrator's model calls the shared tool on the task in the turn given. */
    AgentOutput calling(String tool, String taskId, String after) {
      orchestratorModel.respond(calls(Part.toolRequest(tool, "c1", ids(taskId))));
      return turn("How is the coder doing?", after);
    }

    /** As {@link #calling}, for a tool call that returns: the model then replies with text. */
    AgentOutput calling(String tool, String taskId, String after, String reply) {
      orchestratorModel.respond(calls(Part.toolRequest(tool, "c1", ids(taskId))));
      orchestratorModel.respondText(reply);
      return turn("How is the coder doing?", after);
    }

    AgentOutput resume(String snapshotId, Resume resume) {
      return orchestrator.run(
          as,
          AgentInput.resume(resume),
          AgentInit.ofSnapshot(snapshotId),
          StreamCallback.discard());
    }

    /** The task's row once it has settled. */
    SessionSnapshot settle(String taskId) {
      return coder.snapshots(as).waitFor(taskId.substring("coder:".length()));
    }

    /**
     * The output of the latest tool response with this ref in the orchestrator's last model request
     * (each turn's calls reuse their refs).
     */
    JsonNode toolOutput(String ref) {
      JsonNode output = null;
      for (Message message : orchestratorModel.lastRequest().messages()) {
        for (var part : message.toolResponses()) {
          if (ref.equals(part.toolResponse().ref())) {
            output = part.toolResponse().output();
          }
        }
      }
      assertThat(output).as("tool response " + ref + " in the last request").isNotNull();
      return output;
    }
  }

  /** A launched task that stopped on its question, and the orchestrator's turn that launched it. */
  private record Launched(String snapshotId, String taskId) {}

  private Team inMemory(boolean notify) {
    return new Team(InMemorySessionStore.create(), InMemorySessionStore.create(), true, notify);
  }

  private static ObjectNode ids(String taskId) {
    ObjectNode input = Json.object();
    ArrayNode list = input.putArray("taskIds");
    list.add(taskId);
    return input;
  }

  private static JsonNode routing(ToolRequestPart held) {
    return held.metadata().path("interrupt").path(Agents.SUB_AGENT);
  }

  /** The coder's session's latest row, by a snapshot of that session. */
  private static String latestOf(Team team, String taskId) {
    SessionSnapshot row = team.coder.snapshots().get(taskId.substring("coder:".length()));
    return team.coder.snapshots().latest(row.sessionId()).snapshotId();
  }

  @Test
  void aCheckThatFindsATaskStoppedOnAQuestionEndsTheTurnWithItsWrappedInterrupt() {
    Team team = inMemory(false);
    Launched task = team.launched();

    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());

    ToolRequestPart held = held(checked);
    assertThat(held.toolRequest().name()).isEqualTo(CHECK);
    JsonNode interrupt = held.metadata().path("interrupt");
    // Rendered as the coder's own hold would be.
    assertThat(interrupt.path("toolApproval").path("tool").asString()).isEqualTo("write_file");
    JsonNode routing = interrupt.path(Agents.SUB_AGENT);
    assertThat(routing.path("agent").asString()).isEqualTo("coder");
    assertThat(routing.path("taskId").asString()).isEqualTo(task.taskId());
    assertThat(routing.path("name").asString()).isEqualTo("main");
    assertThat(
            routing
                .path("interrupts")
                .get(0)
                .path("toolRequest")
                .path("input")
                .path("path")
                .asString())
        .isEqualTo(PATH);
    assertThat(team.writes).isEmpty();
  }

  @Test
  void aWaitThatFindsATaskStoppedOnAQuestionEndsTheTurnTheSameWay() {
    Team team = inMemory(false);
    Launched task = team.launched();

    AgentOutput waited =
        team.calling("wait_for_background_tasks", task.taskId(), task.snapshotId());

    ToolRequestPart held = held(waited);
    assertThat(held.toolRequest().name()).isEqualTo("wait_for_background_tasks");
    assertThat(routing(held).path("taskId").asString()).isEqualTo(task.taskId());
  }

  @Test
  void approvingResumesTheTaskInTheBackgroundUnderAFreshTaskIdInTheSameSession() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder goes on.");

    AgentOutput resumed = team.resume(checked.snapshotId(), approve(held(checked)));

    assertThat(resumed.text()).isEqualTo("The coder goes on.");
    // The check's result, as the orchestrator's model saw it: the resumed task's launch.
    JsonNode launch = team.toolOutput("c1");
    assertThat(launch.path("status").asString()).isEqualTo("pending");
    assertThat(launch.path("name").asString()).isEqualTo("main");
    String fresh = launch.path("taskId").asString();
    assertThat(fresh).startsWith("coder:").isNotEqualTo(task.taskId());
    assertThat(launch.path("response").asString())
        .startsWith("The user answered the question of task " + task.taskId() + ".");
    SessionSnapshot done = team.settle(fresh);
    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.sessionId())
        .isEqualTo(
            team.coder.snapshots().get(task.taskId().substring("coder:".length())).sessionId());
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);

    // A later turn collects the fresh task, which the conversation knows from the check's result.
    team.orchestratorModel.respond(calls(Part.toolRequest(CHECK, "c2", ids(fresh))));
    team.orchestratorModel.respondText("Done.");
    team.turn("Is it done?", resumed.snapshotId());
    JsonNode report = team.toolOutput("c2").path("tasks").get(0);
    assertThat(report.path("status").asString()).isEqualTo("completed");
    assertThat(report.path("response").asString()).isEqualTo("Wrote " + PATH);
  }

  @Test
  void aResumedTaskThatAsksAgainAsksAtTheNextCheck() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    team.coderModel.respond(
        calls(Part.toolRequest("write_file", "w2", Json.object().put("path", "README.md"))));
    team.orchestratorModel.respondText("The coder goes on.");
    AgentOutput resumed = team.resume(checked.snapshotId(), approve(held(checked)));
    String fresh = team.toolOutput("c1").path("taskId").asString();
    assertThat(team.settle(fresh).finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);

    AgentOutput again = team.calling(CHECK, fresh, resumed.snapshotId());

    JsonNode routing = routing(held(again));
    assertThat(routing.path("taskId").asString()).isEqualTo(fresh);
    assertThat(routing.path("interrupts").get(0).path("toolRequest").path("ref").asString())
        .isEqualTo("w2");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
  }

  @Test
  void aTaskThatHeldSeveralCallsAsksOncePerCallAndResumesOnceAllAreAnswered() {
    Team team = inMemory(false);
    Launched task =
        team.launched(
            Part.toolRequest("write_file", "w1", Json.object().put("path", PATH)),
            Part.toolRequest("write_file", "w2", Json.object().put("path", "README.md")));

    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());

    List<ToolRequestPart> held = interrupts(checked);
    assertThat(held).extracting(p -> p.toolRequest().ref()).containsExactly("c1/w1", "c1/w2");
    assertThat(held)
        .extracting(
            p -> routing(p).path("taskId").asString(), p -> routing(p).path("name").asString())
        .containsOnly(tuple(task.taskId(), "main"));
    assertThat(held).extracting(p -> routing(p).path("interrupts").size()).containsExactly(1, 1);
    team.coderModel.respondText("Wrote both");
    team.orchestratorModel.respondText("The coder goes on.");

    team.resume(
        checked.snapshotId(),
        Resume.restart(
            approve(held.get(0)).restart().get(0), approve(held.get(1)).restart().get(0)));

    // The model saw its one check, answered by the resumed task's launch.
    List<String> checks =
        team.orchestratorModel.lastRequest().messages().stream()
            .flatMap(m -> m.toolResponses().stream())
            .filter(p -> p.toolResponse().name().equals(CHECK))
            .map(p -> p.toolResponse().ref())
            .toList();
    assertThat(checks).containsExactly("c1");
    String fresh = team.toolOutput("c1").path("taskId").asString();
    assertThat(team.settle(fresh).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.writes)
        .extracting(w -> w.path("path").asString())
        .containsExactlyInAnyOrder(PATH, "README.md");
    assertThat(team.coderModel.calls()).isEqualTo(2);
  }

  @Test
  void aRefusalReachesTheTaskAsToolApprovalsRefusal() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    ToolRequestPart held = held(checked);
    team.coderModel.respondText("Understood, I did not write it.");
    team.orchestratorModel.respondText("The user declined.");

    team.resume(
        checked.snapshotId(),
        Resume.respond(
            Part.toolResponse(
                held.toolRequest().name(),
                held.toolRequest().ref(),
                Json.nodes().stringNode("No, do not write it."))));

    String fresh = team.toolOutput("c1").path("taskId").asString();
    assertThat(team.settle(fresh).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.writes).isEmpty();
    // The coder's model read the refusal as the held call's output.
    List<Message> coderSaw = team.coderModel.lastRequest().messages();
    assertThat(coderSaw.get(coderSaw.size() - 1).toolResponses())
        .extracting(p -> p.toolResponse().output().asString())
        .containsExactly("No, do not write it.");
  }

  @Test
  void aSettleNoticeOfATaskStoppedOnAQuestionEndsTheNextTurnBeforeTheModelRuns() {
    Team team = inMemory(true);
    Launched task = team.launched();
    int modelCalls = team.orchestratorModel.calls();

    AgentOutput noticed = team.turn("Anything new?", task.snapshotId());

    ToolRequestPart held = held(noticed);
    assertThat(held.toolRequest().name()).isEqualTo(CHECK);
    assertThat(routing(held).path("taskId").asString()).isEqualTo(task.taskId());
    assertThat(team.orchestratorModel.calls()).isEqualTo(modelCalls);

    // Answered like a check's question; the resumed turn does not ask again.
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder goes on.");
    AgentOutput resumed = team.resume(noticed.snapshotId(), approve(held));
    assertThat(resumed.finishReason()).isEqualTo(AgentFinishReason.STOP);
    String fresh = team.toolOutput(held.toolRequest().ref()).path("taskId").asString();
    assertThat(team.settle(fresh).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
  }

  @Test
  void anOrchestratorRecreatedOnTheSameFileStoresResumesTheTask() {
    Path coderDir = dir.resolve("coder");
    Path orchestratorDir = dir.resolve("orchestrator");
    Team before =
        new Team(
            FileSessionStore.builder(coderDir).build(),
            FileSessionStore.builder(orchestratorDir).build(),
            true,
            false);
    Launched task = before.launched();
    AgentOutput checked = before.calling(CHECK, task.taskId(), task.snapshotId());
    ToolRequestPart held = held(checked);
    before.baton.close();

    Team after =
        new Team(
            FileSessionStore.builder(coderDir).build(),
            FileSessionStore.builder(orchestratorDir).build(),
            true,
            false);
    after.coderModel.respondText("Wrote " + PATH);
    after.orchestratorModel.respondText("The coder goes on.");
    after.resume(checked.snapshotId(), approve(held));

    String fresh = after.toolOutput("c1").path("taskId").asString();
    assertThat(after.settle(fresh).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(after.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
  }

  @Test
  void aSecondAnswerToTheSameQuestionIsRefusedAndChangesNothing() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    ToolRequestPart held = held(checked);
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder goes on.");
    AgentOutput resumed = team.resume(checked.snapshotId(), approve(held));
    String fresh = team.toolOutput("c1").path("taskId").asString();
    team.settle(fresh);
    int coderCalls = team.coderModel.calls();

    // Once more on the turn that answered it, and otherwise on the held turn itself, whose task
    // has moved on (the same answer again is a retry, which reports the task it resumed).
    Status again = failure(() -> team.resume(resumed.snapshotId(), approve(held)));
    Status replay = failure(() -> team.resume(checked.snapshotId(), answer(held, "No.")));

    assertThat(again).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(replay).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(team.writes).hasSize(1);
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
    assertThat(latestOf(team, task.taskId())).isEqualTo(fresh.substring("coder:".length()));
  }

  @Test
  void aRetryAfterTheOrchestratorFailedReportsTheTaskItResumedWithoutResumingItAgain() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    ToolRequestPart held = held(checked);
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.step().fail(BatonException.of(Status.UNAVAILABLE, "the model is down"));
    assertThat(failure(() -> team.resume(checked.snapshotId(), approve(held))))
        .isEqualTo(Status.UNAVAILABLE);
    String fresh = "coder:" + latestOf(team, task.taskId());
    team.settle(fresh);
    int coderCalls = team.coderModel.calls();

    team.orchestratorModel.respondText("The coder goes on.");
    AgentOutput retried = team.resume(checked.snapshotId(), approve(held));

    assertThat(retried.finishReason()).isEqualTo(AgentFinishReason.STOP);
    JsonNode output = team.toolOutput("c1");
    assertThat(output.path("taskId").asString()).isEqualTo(fresh);
    assertThat(output.path("response").asString())
        .startsWith("The user answered the question of task " + task.taskId() + ".");
    assertThat(team.writes).hasSize(1);
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
    assertThat("coder:" + latestOf(team, task.taskId())).isEqualTo(fresh);
  }

  @Test
  void anotherPrincipalCannotAnswerTheQuestion() {
    Team team = inMemory(false);
    ActionContext alice = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    team.as = alice;
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    ToolRequestPart held = held(checked);

    team.as = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));
    Status status = failure(() -> team.resume(checked.snapshotId(), approve(held)));

    assertThat(status).isEqualTo(Status.NOT_FOUND);
    assertThat(team.writes).isEmpty();
    String snapshot = task.taskId().substring("coder:".length());
    SessionSnapshot row = team.coder.snapshots(alice).get(snapshot);
    assertThat(team.coder.snapshots(alice).latest(row.sessionId()).snapshotId())
        .isEqualTo(snapshot);
  }

  @Test
  void aCheckOfAnAnsweredTaskReportsItByItsRowAndAsksNothing() {
    Team team = inMemory(false);
    Launched task = team.launched();
    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId());
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder goes on.");
    AgentOutput resumed = team.resume(checked.snapshotId(), approve(held(checked)));
    team.settle(team.toolOutput("c1").path("taskId").asString());

    AgentOutput again = team.calling(CHECK, task.taskId(), resumed.snapshotId(), "Checked.");

    assertThat(again.finishReason()).isEqualTo(AgentFinishReason.STOP);
    JsonNode report = team.toolOutput("c1").path("tasks").get(0);
    assertThat(report.path("status").asString()).isEqualTo("failed");
    assertThat(report.path("error").asString()).contains("its session has moved on");
  }

  @Test
  void continuingATaskStoppedOnAQuestionPointsAtTheCheckThatAsksIt() {
    Team team = inMemory(false);
    Launched task = team.launched();
    team.orchestratorModel.respond(
        calls(Part.toolRequest("continue_task", "c1", Json.object().put("taskId", task.taskId()))));
    team.orchestratorModel.respondText("I will check it.");

    team.turn("Go on with it.", task.snapshotId());

    assertThat(team.toolOutput("c1").path("response").asString())
        .isEqualTo(
            "Error: task "
                + task.taskId()
                + " is waiting for the user's answer to its question. Check it with "
                + CHECK
                + " to ask the user; the answer resumes it.");
    assertThat(team.coderModel.calls()).isEqualTo(1);
  }

  @Test
  void withTheOptionOffATaskStoppedOnAQuestionReportsFailed() {
    Team team =
        new Team(InMemorySessionStore.create(), InMemorySessionStore.create(), false, false);
    Launched task = team.launched();

    AgentOutput checked = team.calling(CHECK, task.taskId(), task.snapshotId(), "It failed.");

    assertThat(checked.finishReason()).isEqualTo(AgentFinishReason.STOP);
    JsonNode report = team.toolOutput("c1").path("tasks").get(0);
    assertThat(report.path("status").asString()).isEqualTo("failed");
    assertThat(report.has("interrupt")).isFalse();
  }

  @Test
  void withTheOptionOffTheReportSchemaIsTheSeeds() {
    Team team =
        new Team(InMemorySessionStore.create(), InMemorySessionStore.create(), false, false);
    team.launched();

    JsonNode report =
        team.orchestratorModel.lastRequest().tools().stream()
            .filter(tool -> tool.name().equals(CHECK))
            .findFirst()
            .orElseThrow()
            .outputSchema()
            .path("properties")
            .path("tasks")
            .path("items");
    assertThat(report.toString()).contains("\"status\"").doesNotContain("interrupt");
  }
}
