package dev.baton.middleware.agents;

import static dev.baton.testing.ProgrammableModel.lastUserText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.TurnResult;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.Role;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.Json;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Background delegation: launch, check, wait and abort, with Genkit's texts. */
class BackgroundDelegationTest extends BackgroundTestSupport {

  private Agent asyncOrchestrator(Agents.Builder agents) {
    return orchestrator(AgentOptions.DEFAULTS, agents.async(true).build());
  }

  @Test
  void aLaunchReturnsAtOnceACheckSeesItPendingAndAWaitCollectsIt() {
    Agent researcher = researcher();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel
        .when(r -> lastUserText(r).equals("find facts"))
        .signalOnEntry(entered)
        .blockUntil(gate)
        .respondText("the facts");
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(
        r ->
            calls(
                call(
                    "delegate_to_researcher",
                    "l1",
                    Json.object()
                        .put("task", "find facts")
                        .put("background", true)
                        .put("name", "facts"))),
        r -> calls(call("check_background_tasks", "c1", ids(taskId(r, "l1")))),
        r -> {
          gate.countDown();
          return calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1"))));
        },
        answer("done"));

    orchestrator.runText("go");

    JsonNode launched = last("l1");
    String id = launched.path("taskId").asString();
    assertThat(id).startsWith("researcher:");
    assertThat(launched.path("status").asString()).isEqualTo("pending");
    assertThat(launched.path("name").asString()).isEqualTo("facts");
    assertThat(launched.path("response").asString())
        .isEqualTo(
            "Background task "
                + id
                + " started for agent \"researcher\". Collect the result with"
                + " check_background_tasks or wait_for_background_tasks.");
    JsonNode checked = report(last("c1"), id);
    assertThat(checked.path("status").asString()).isEqualTo("pending");
    assertThat(checked.path("agent").asString()).isEqualTo("researcher");
    assertThat(checked.path("name").asString()).as("the label rides on reports").isEqualTo("facts");
    assertThat(checked.has("response")).isFalse();
    JsonNode waited = last("w1");
    assertThat(waited.path("timedOut").asBoolean()).isFalse();
    assertThat(report(waited, id).path("status").asString()).isEqualTo("completed");
    assertThat(report(waited, id).path("response").asString()).isEqualTo("the facts");
    assertThat(entered.getCount()).isZero();
  }

  @Test
  void theSystemPromptExplainsBackgroundWorkAndTheToolsTakeBackground() {
    Agent researcher = researcher();
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(answer("ok"));
    orchestrator.runText("go");

    String system = systemText(orchestratorModel.lastRequest());
    assertThat(system)
        .contains("set \"background\": true on a delegation tool call")
        .contains("check_background_tasks (returns current status without waiting)")
        .contains("wait_for_background_tasks (blocks until the tasks settle)")
        .contains("abort_background_tasks")
        .contains("continued with continue_task");
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .containsExactly(
            "delegate_to_researcher",
            "check_background_tasks",
            "wait_for_background_tasks",
            "abort_background_tasks",
            "continue_task");
    JsonNode schema = orchestratorModel.lastRequest().tools().get(0).inputSchema();
    assertThat(schema.path("properties").has("background")).isTrue();
    assertThat(schema.path("required").toString()).isEqualTo("[\"task\"]");
  }

  @Test
  void waitingForTheFirstReturnsAsOneSettlesWhileTheOtherRunsOn() {
    Agent researcher = researcher();
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel.when(r -> lastUserText(r).equals("slow")).blockUntil(gate).respondText("late");
    researcherModel.when(r -> lastUserText(r).equals("fast")).respondText("quick");
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(
        r ->
            calls(
                launch("delegate_to_researcher", "slow", "slow"),
                launch("delegate_to_researcher", "fast", "fast")),
        r -> {
          JsonNode input = ids(taskId(r, "slow"), taskId(r, "fast")).put("waitFor", "first");
          return calls(
              call(
                  "wait_for_background_tasks",
                  "w1",
                  (tools.jackson.databind.node.ObjectNode) input));
        },
        answer("done"));

    orchestrator.runText("go");

    String slow = last("slow").path("taskId").asString();
    String fast = last("fast").path("taskId").asString();
    JsonNode waited = last("w1");
    assertThat(report(waited, fast).path("status").asString()).isEqualTo("completed");
    assertThat(report(waited, slow).path("status").asString()).isEqualTo("pending");
    assertThat(report(waited, slow).has("error")).isFalse();
    assertThat(waited.path("timedOut").asBoolean()).isTrue();
    assertThat(waited.path("note").asString())
        .isEqualTo("Stopped waiting; the pending tasks are still running. Check them again later.");
    assertThat(row(researcher, slow).status())
        .as("the task the wait stopped waiting for runs on")
        .isEqualTo(SnapshotStatus.PENDING);
    gate.countDown();
    assertThat(researcher.waitForSnapshot(slow.substring("researcher:".length())).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void maxWaitSecondsBoundsEvenAnUnboundedWait() {
    Agent researcher = researcher();
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel.when(r -> true).blockUntil(gate).respondText("late");
    Agent orchestrator =
        asyncOrchestrator(Agents.builder().agents(researcher.ref()).maxWaitSeconds(1));
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "slow")),
        r ->
            calls(
                call(
                    "wait_for_background_tasks",
                    "w1",
                    ids(taskId(r, "l1")).put("timeoutSeconds", 0))),
        answer("interim update"));

    orchestrator.runText("go");

    String id = last("l1").path("taskId").asString();
    assertThat(last("w1").path("timedOut").asBoolean()).isTrue();
    assertThat(report(last("w1"), id).path("status").asString()).isEqualTo("pending");
    gate.countDown();
  }

  @Test
  void aNegativeWaitReturnsAtOnceAndAHugeOneIsUnbounded() {
    Agent researcher = researcher();
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel.when(r -> lastUserText(r).equals("slow")).blockUntil(gate).respondText("x");
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "slow")),
        r ->
            calls(
                call(
                    "wait_for_background_tasks",
                    "now",
                    ids(taskId(r, "l1")).put("timeoutSeconds", -1))),
        r -> {
          gate.countDown();
          return calls(
              call(
                  "wait_for_background_tasks",
                  "long",
                  ids(taskId(r, "l1")).put("timeoutSeconds", 10_000_000_000L)));
        },
        answer("done"));

    orchestrator.runText("go");

    String id = last("l1").path("taskId").asString();
    assertThat(report(last("now"), id).path("status").asString()).isEqualTo("pending");
    assertThat(last("now").path("timedOut").asBoolean()).isTrue();
    assertThat(last("long").path("timedOut").asBoolean()).isFalse();
    assertThat(report(last("long"), id).path("status").asString()).isEqualTo("completed");
  }

  @Test
  void abortingALiveTaskReportsAbortingThenAbortedWithItsProgressSaved() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    // A turn that does not stop at once when aborted: it finishes what it is doing first.
    Agent stubborn =
        baton.defineCustomAgent(
            "stubborn",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    entered.countDown();
                    awaitIgnoringCancellation(release);
                    runner.session().addMessage(Message.model("half done"));
                    ctx.cancellation().throwIfCancelled();
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            serverManaged(subStore).description("Works stubbornly.").build());
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(stubborn.ref()));
    script(
        r -> calls(launch("delegate_to_stubborn", "l1", "dig")),
        r -> {
          await().until(() -> entered.getCount() == 0);
          return calls(call("abort_background_tasks", "a1", ids(taskId(r, "l1"))));
        },
        r ->
            calls(
                call(
                    "wait_for_background_tasks",
                    "w0",
                    ids(taskId(r, "l1")).put("timeoutSeconds", -1))),
        r -> {
          release.countDown();
          return calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1"))));
        },
        answer("stopped"));

    orchestrator.runText("go");

    String id = last("l1").path("taskId").asString();
    assertThat(report(last("a1"), id).path("status").asString()).isEqualTo("aborting");
    assertThat(report(last("w0"), id).path("status").asString()).isEqualTo("aborting");
    assertThat(last("w0").path("timedOut").asBoolean())
        .as("a task still saving its progress has not settled")
        .isTrue();
    JsonNode settled = report(last("w1"), id);
    assertThat(settled.path("status").asString()).isEqualTo("aborted");
    assertThat(settled.path("error").asString())
        .startsWith("The task was aborted before it finished.");
    SessionSnapshot row = row(stubborn, id);
    assertThat(row.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(row.state().messages())
        .as("the progress the worker made is saved")
        .extracting(Message::text)
        .containsExactly("dig", "half done");
  }

  @Test
  void abortingAFinishedTaskLeavesItsResult() {
    Agent researcher = researcher();
    researcherModel.when(r -> true).respondText("already done");
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "quick")),
        r -> {
          String id = taskId(r, "l1");
          researcher.waitForSnapshot(id.substring("researcher:".length()));
          return calls(call("abort_background_tasks", "a1", ids(id)));
        },
        answer("ok"));

    orchestrator.runText("go");

    String id = last("l1").path("taskId").asString();
    JsonNode aborted = report(last("a1"), id);
    assertThat(aborted.path("status").asString()).isEqualTo("completed");
    assertThat(aborted.path("response").asString()).isEqualTo("already done");
    assertThat(row(researcher, id).status()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aTaskThatSettledBetweenTurnsIsNoticedOnceWhenAsked() {
    Agent researcher = researcher();
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel.when(r -> true).blockUntil(gate).respondText("facts");
    Agent orchestrator =
        orchestrator(
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            Agents.builder().agents(researcher.ref()).async(true).notifySettled(true).build());
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "dig")),
        answer("I started the research."),
        answer("Still here."),
        answer("Anything else?"));
    AgentOutput first = orchestrator.runText("research this");
    String id = last("l1").path("taskId").asString();
    orchestrator.runText("any news?", AgentInit.ofSession(first.sessionId()));
    assertThat(userText(orchestratorModel.lastRequest())).doesNotContain("<background-tasks>");

    gate.countDown();
    researcher.waitForSnapshot(id.substring("researcher:".length()));
    orchestrator.runText("and now?", AgentInit.ofSession(first.sessionId()));
    assertThat(userText(orchestratorModel.lastRequest()))
        .contains("<background-tasks>")
        .contains("  - " + id + ": completed")
        .contains("Collect their results with check_background_tasks.");

    orchestrator.runText("thanks", AgentInit.ofSession(first.sessionId()));
    List<Message> sent = orchestratorModel.lastRequest().messages();
    assertThat(sent.stream().filter(m -> m.text().contains("<background-tasks>")).count())
        .as("noticed once: the notice stays in the history, and no new one is added")
        .isEqualTo(1);
    assertThat(userText(orchestratorModel.lastRequest())).doesNotContain("<background-tasks>");
  }

  @Test
  void withoutNotifySettledNoNoticeIsAdded() {
    Agent researcher = researcher();
    researcherModel.when(r -> true).respondText("facts");
    Agent orchestrator =
        orchestrator(
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            Agents.builder().agents(researcher.ref()).async(true).build());
    script(r -> calls(launch("delegate_to_researcher", "l1", "dig")), answer("ok"), answer("ok"));
    AgentOutput first = orchestrator.runText("research this");
    String id = last("l1").path("taskId").asString();
    researcher.waitForSnapshot(id.substring("researcher:".length()));

    orchestrator.runText("and now?", AgentInit.ofSession(first.sessionId()));

    assertThat(orchestratorModel.lastRequest().messages())
        .noneMatch(m -> m.text().contains("<background-tasks>"));
  }

  /** The text of the last user message of a request: the turn's input and any notice on it. */
  private static String userText(ModelRequest request) {
    List<Message> messages = request.messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER) {
        return messages.get(i).text();
      }
    }
    return "";
  }

  private static void awaitIgnoringCancellation(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
