package dev.baton.middleware.agents;

import static dev.baton.testing.ProgrammableModel.lastUserText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ForwardingSessionStore;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code continue_task}, by the state the task is in (Genkit's table). */
class TaskContinuationTest extends BackgroundTestSupport {

  @Test
  void aFailedFirstTurnLeavesAHandleThatIsReAttemptedAsItStood() {
    Agent researcher = researcher();
    researcherModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    researcherModel.respondText("found it");
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).build());
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "find it")),
        r -> calls(call("continue_task", "c1", task(taskId(r, "d1")))),
        answer("done"));

    orchestrator.runText("go");

    JsonNode failed = last("d1");
    assertThat(failed.path("status").asString()).isEqualTo("failed");
    JsonNode continued = last("c1");
    assertThat(continued.path("status").asString()).isEqualTo("completed");
    assertThat(continued.path("response").asString()).isEqualTo("found it");
    String handle = continued.path("taskId").asString();
    assertThat(handle).isNotEqualTo(failed.path("taskId").asString());
    assertThat(history(researcher, handle))
        .as("the committed turn was re-attempted as it stood, in the same session")
        .containsExactly("find it", "found it");
    assertThat(row(researcher, handle).sessionId())
        .isEqualTo(row(researcher, failed.path("taskId").asString()).sessionId());
  }

  @Test
  void aFollowUpThatFailsIsReportedWithItsFailedRowThoughTheOutputNamesTheLastGoodSnapshot() {
    Agent researcher = researcher();
    researcherModel.respondText("found it");
    researcherModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    researcherModel.respondText("dug deeper");
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).build());
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "find it")),
        r -> calls(call("continue_task", "c1", task(taskId(r, "d1"), "dig deeper"))),
        r -> calls(call("continue_task", "c2", task(taskId(r, "c1")))),
        answer("done"));

    orchestrator.runText("go");

    String good = last("d1").path("taskId").asString();
    JsonNode failed = last("c1");
    assertThat(failed.path("status").asString()).isEqualTo("failed");
    String handle = failed.path("taskId").asString();
    assertThat(row(researcher, handle).status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(row(researcher, handle).parentId()).isEqualTo(row(researcher, good).snapshotId());
    JsonNode retried = last("c2");
    assertThat(retried.path("response").asString())
        .as("the failed follow-up was re-attempted, not refused as a completed task")
        .isEqualTo("dug deeper");
    assertThat(history(researcher, retried.path("taskId").asString()))
        .containsExactly("find it", "found it", "dig deeper", "dug deeper");
  }

  @Test
  void aFollowUpThatFailsWithoutSavingItsRowIsNotReportedWithAnOlderFailedRow() {
    AtomicBoolean refuseFailedRows = new AtomicBoolean();
    Agent researcher =
        subAgent(
            "researcher",
            "researcher-model",
            serverManaged(
                    new ForwardingSessionStore(subStore) {
                      @Override
                      public @Nullable SessionSnapshot saveSnapshot(
                          ActionContext context,
                          @Nullable String snapshotId,
                          UnaryOperator<@Nullable SessionSnapshot> update) {
                        SessionSnapshot row = update.apply(null);
                        if (refuseFailedRows.get()
                            && row != null
                            && row.statusOrCompleted() == SnapshotStatus.FAILED) {
                          throw BatonException.of(Status.UNAVAILABLE, "disk gone");
                        }
                        return super.saveSnapshot(context, snapshotId, update);
                      }
                    })
                .build());
    researcherModel.respondText("found it");
    researcherModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    researcherModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout again"));
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).build());
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "find it")),
        r -> calls(call("continue_task", "c1", task(taskId(r, "d1"), "dig deeper"))),
        r -> {
          refuseFailedRows.set(true);
          return calls(call("continue_task", "c2", task(taskId(r, "c1"))));
        },
        answer("done"));

    orchestrator.runText("go");

    assertThat(last("c1").path("status").asString()).isEqualTo("failed");
    JsonNode again = last("c2");
    assertThat(again.path("status").asString()).isEqualTo("failed");
    assertThat(again.path("taskId").asString())
        .as("the last good snapshot, not the failed row of the call before")
        .isEqualTo(last("d1").path("taskId").asString());
  }

  @Test
  void aFailedTaskIsSteeredByInstructions() {
    Agent researcher = researcher();
    researcherModel.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    researcherModel.respondText("found it, briefly");
    Agent orchestrator =
        orchestrator(AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).build());
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "find it")),
        r -> calls(call("continue_task", "c1", task(taskId(r, "d1"), "be brief"))),
        answer("done"));

    orchestrator.runText("go");

    assertThat(history(researcher, last("c1").path("taskId").asString()))
        .containsExactly("find it", "be brief", "found it, briefly");
  }

  @Test
  void anAbortedTaskIsReAttemptedOrSteeredInTheBackground() {
    Agent researcher = researcher();
    CountDownLatch entered = new CountDownLatch(1);
    researcherModel
        .when(r -> lastUserText(r).equals("dig"))
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respondText("never");
    researcherModel.when(r -> lastUserText(r).equals("dig")).respondText("dug");
    researcherModel.when(r -> lastUserText(r).equals("dig deeper")).respondText("dug deeper");
    Agent orchestrator =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .maxTurns(10)
                .use(Agents.builder().agents(researcher.ref()).async(true).build())
                .build(),
            AgentOptions.DEFAULTS);
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "dig")),
        r -> {
          await().until(() -> entered.getCount() == 0);
          return calls(call("abort_background_tasks", "a1", ids(taskId(r, "l1"))));
        },
        r -> calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1")))),
        r ->
            calls(
                call(
                    "continue_task",
                    "retry",
                    task(taskId(r, "l1")).put("background", true).put("name", "again"))),
        r -> calls(call("wait_for_background_tasks", "w2", ids(taskId(r, "retry")))),
        r -> calls(call("continue_task", "steer", task(taskId(r, "retry"), "dig deeper"))),
        answer("done"));

    orchestrator.runText("go");

    String aborted = last("l1").path("taskId").asString();
    assertThat(report(last("w1"), aborted).path("status").asString()).isEqualTo("aborted");
    JsonNode retry = last("retry");
    assertThat(retry.path("status").asString()).isEqualTo("pending");
    assertThat(retry.path("name").asString()).isEqualTo("again");
    String retried = retry.path("taskId").asString();
    assertThat(retried).isNotEqualTo(aborted);
    assertThat(report(last("w2"), retried).path("response").asString()).isEqualTo("dug");
    assertThat(row(researcher, retried).sessionId())
        .isEqualTo(row(researcher, aborted).sessionId());
    assertThat(history(researcher, retried)).containsExactly("dig", "dug");
    assertThat(history(researcher, last("steer").path("taskId").asString()))
        .containsExactly("dig", "dug", "dig deeper", "dug deeper");
  }

  @Test
  void anAbortedTaskIsSteeredFromTheProgressItSaved() {
    Agent researcher = researcher();
    CountDownLatch entered = new CountDownLatch(1);
    researcherModel
        .when(r -> lastUserText(r).equals("dig"))
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respondText("never");
    researcherModel.when(r -> lastUserText(r).equals("dig elsewhere")).respondText("found it");
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(researcher.ref()).async(true).build());
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "dig")),
        r -> {
          await().until(() -> entered.getCount() == 0);
          return calls(call("abort_background_tasks", "a1", ids(taskId(r, "l1"))));
        },
        r -> calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1")))),
        r -> calls(call("continue_task", "steer", task(taskId(r, "l1"), "dig elsewhere"))),
        answer("done"));

    orchestrator.runText("go");

    assertThat(report(last("w1"), last("l1").path("taskId").asString()).path("status").asString())
        .isEqualTo("aborted");
    JsonNode steered = last("steer");
    assertThat(steered.path("response").asString()).isEqualTo("found it");
    assertThat(history(researcher, steered.path("taskId").asString()))
        .as("the steering message follows the progress the abort saved")
        .containsExactly("dig", "dig elsewhere", "found it");
  }

  @Test
  void aCompletedTaskNeedsInstructionsAndRunsThemInItsOwnSession() {
    Agent researcher = researcher();
    researcherModel.respondText("first answer");
    researcherModel.respondText("more detail");
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS,
            Agents.builder().agents(researcher.ref()).maxDelegations(2).build());
    script(
        r -> calls(delegate("delegate_to_researcher", "d1", "question")),
        r -> calls(call("continue_task", "bare", task(taskId(r, "d1")))),
        r -> calls(call("continue_task", "more", task(taskId(r, "d1"), "and more?"))),
        answer("done"));

    orchestrator.runText("go");

    assertThat(last("bare").path("response").asString())
        .startsWith("Error: task " + last("d1").path("taskId").asString() + " completed;")
        .contains("needs instructions");
    JsonNode more = last("more");
    assertThat(more.path("response").asString())
        .as("the refusal gave its slot back: two slots, two runs")
        .isEqualTo("more detail");
    assertThat(history(researcher, more.path("taskId").asString()))
        .containsExactly("question", "first answer", "and more?", "more detail");
  }

  @Test
  void anInterruptedTaskIsADeadEnd() {
    ProgrammableModel askerModel = model("asker-model");
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
            InlinePrompt.builder().model("asker-model").toolNames("ask_user").build(),
            serverManaged(subStore).build());
    askerModel.respond(
        ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.toolRequest("ask_user", "u1", Json.object()))),
            FinishReason.STOP));
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agents(asker.ref()).async(true).build());
    script(
        r -> calls(launch("delegate_to_asker", "l1", "ask")),
        r -> calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1")))),
        r -> calls(call("continue_task", "c1", task(taskId(r, "l1"), "try anyway"))),
        answer("ok"));

    orchestrator.runText("go");

    assertThat(last("c1").path("response").asString())
        .contains("stopped on an interrupt and cannot be continued")
        .contains("Delegate a more self-contained task instead.");
    assertThat(askerModel.calls()).isEqualTo(1);
  }

  @Test
  void continueTaskIsNotOfferedWhenEverySubAgentIsClientManaged() {
    subAgent("inline", "inline-model", AgentOptions.DEFAULTS);
    Agent orchestrator =
        orchestrator(
            AgentOptions.DEFAULTS, Agents.builder().agentNames("inline").async(true).build());
    script(answer("ok"));
    orchestrator.runText("go");
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .doesNotContain("continue_task")
        .contains("check_background_tasks");
  }
}
