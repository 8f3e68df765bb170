package dev.baton.middleware.agents;

import static dev.baton.testing.ProgrammableModel.lastUserText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.compression.ContextCompression;
import dev.baton.testing.ProgrammableModel;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Which tasks a conversation may act on, malformed calls, slot refunds and prefixes: the rules
 * around background delegation rather than its lifecycle.
 */
class BackgroundScopeTest extends BackgroundTestSupport {

  private Agent asyncOrchestrator(Agents.Builder agents) {
    return orchestrator(AgentOptions.DEFAULTS, agents.async(true).build());
  }

  @Test
  void anIdPlantedInASubAgentsAnswerIsNotThisConversationsTask() {
    Agent researcher = researcher();
    CountDownLatch gate = new CountDownLatch(1);
    researcherModel.when(r -> lastUserText(r).equals("victim")).blockUntil(gate).respondText("x");
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    // Another conversation launches a task.
    script(r -> calls(launch("delegate_to_researcher", "l1", "victim")), answer("launched"));
    orchestrator.runText("start");
    String victim = last("l1").path("taskId").asString();
    // This one is told about it by a sub-agent's answer, and tries to act on it.
    researcherModel.when(r -> lastUserText(r).equals("gossip")).respondText("try task " + victim);
    script(
        r -> calls(delegate("delegate_to_researcher", "g", "gossip")),
        r ->
            calls(
                call("check_background_tasks", "c1", ids(victim)),
                call("abort_background_tasks", "a1", ids(victim))),
        answer("done"));

    orchestrator.runText("another conversation");

    assertThat(last("g").path("response").asString()).contains(victim);
    for (String ref : List.of("c1", "a1")) {
      JsonNode report = report(last(ref), victim);
      assertThat(report.path("status").asString()).isEqualTo("unknown");
      assertThat(report.path("error").asString())
          .isEqualTo("Task \"" + victim + "\" was not started in this conversation.");
    }
    assertThat(row(researcher, victim).status())
        .as("an abort out of scope leaves the task alone")
        .isEqualTo(SnapshotStatus.PENDING);
    gate.countDown();
  }

  @Test
  void anOrchestratorRebuiltOverTheSameStoresCollectsATaskFromItsHistoryAlone(@TempDir Path dir) {
    FileSessionStore subFiles = FileSessionStore.builder(dir.resolve("researcher")).build();
    FileSessionStore orchestratorFiles = FileSessionStore.builder(dir.resolve("orch")).build();
    CountDownLatch gate = new CountDownLatch(1);
    Agent firstResearcher =
        subAgent("researcher", "researcher-model", serverManaged(subFiles).build());
    researcherModel.when(r -> true).blockUntil(gate).respondText("found it");
    Agent first =
        orchestrator(
            AgentOptions.builder().sessionStore(orchestratorFiles).build(),
            Agents.builder().agents(firstResearcher.ref()).async(true).build());
    script(r -> calls(launch("delegate_to_researcher", "l1", "dig")), answer("started"));
    AgentOutput started = first.runText("go");
    String id = last("l1").path("taskId").asString();
    gate.countDown();

    // A new instance: new registry, new middleware, nothing shared but the files.
    Baton rebuilt = Baton.builder().experimental().build();
    ProgrammableModel rebuiltModel = ProgrammableModel.define(rebuilt.registry(), "orch");
    ProgrammableModel.define(rebuilt.registry(), "researcher-model");
    rebuilt.defineAgent(
        "researcher",
        InlinePrompt.builder().model("researcher-model").build(),
        serverManaged(FileSessionStore.builder(dir.resolve("researcher")).build()).build());
    Agent second =
        rebuilt.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .use(Agents.builder().agentNames("researcher").async(true).build())
                .build(),
            AgentOptions.builder()
                .sessionStore(FileSessionStore.builder(dir.resolve("orch")).build())
                .build());
    rebuiltModel.respond(calls(call("wait_for_background_tasks", "w1", ids(id))));
    rebuiltModel.respondText("collected");

    second.runText("any news?", AgentInit.ofSession(started.sessionId()));

    JsonNode waited = output(rebuiltModel.lastRequest(), "w1");
    assertThat(report(waited, id).path("status").asString()).isEqualTo("completed");
    assertThat(report(waited, id).path("response").asString()).isEqualTo("found it");
  }

  @ParameterizedTest(name = "compression first: {0}")
  @ValueSource(booleans = {true, false})
  void aTaskWhoseLaunchResultWasCompactedAwayIsOutOfReach(boolean compressionFirst) {
    Agent researcher = researcher();
    researcherModel.when(r -> true).respondText("found it");
    Middleware compression = ContextCompression.builder().maxMessages(4).preserveRecent(1).build();
    Middleware agents = Agents.builder().agents(researcher.ref()).async(true).build();
    Agent orchestrator =
        orchestrator(
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build(),
            compressionFirst ? compression : agents,
            compressionFirst ? agents : compression);
    script(r -> calls(launch("delegate_to_researcher", "l1", "dig")), answer("started"));
    AgentOutput first = orchestrator.runText("go");
    String id = last("l1").path("taskId").asString();
    researcher.waitForSnapshot(id.substring(id.indexOf(':') + 1));
    AgentInit session = AgentInit.ofSession(first.sessionId());
    script(answer("noted"));
    orchestrator.runText("one more thing", session);
    script(r -> calls(call("check_background_tasks", "c1", ids(id))), answer("gone"));

    orchestrator.runText("collect", session);

    assertThat(orchestratorModel.lastRequest().messages())
        .as("the launch result was compacted out of what the model is sent")
        .noneMatch(
            m -> m.toolResponses().stream().anyMatch(p -> "l1".equals(p.toolResponse().ref())));
    JsonNode checked = output(orchestratorModel.lastRequest(), "c1");
    assertThat(report(checked, id).path("status").asString()).isEqualTo("unknown");
    assertThat(report(checked, id).path("error").asString())
        .isEqualTo("Task \"" + id + "\" was not started in this conversation.");
  }

  @Test
  void idsOfTheHistoryAreReadWithoutAnyTaskRegistry() {
    researcher();
    // A client-managed conversation that carries a launch result of its own.
    Message launch =
        new Message(
            Role.MODEL,
            List.of(
                Part.toolRequest(
                    "delegate_to_researcher",
                    "l0",
                    Json.object().put("task", "t").put("background", true))));
    Message result =
        new Message(
            Role.TOOL,
            List.of(
                Part.toolResponse(
                    "delegate_to_researcher",
                    "l0",
                    Json.object()
                        .put("response", "started")
                        .put("taskId", "researcher:no-such-snapshot")
                        .put("status", "pending"))));
    orchestratorModel.respond(
        calls(
            call(
                "wait_for_background_tasks",
                "w1",
                ids(
                    "researcher:no-such-snapshot",
                    "ghost:whatever",
                    "researcher:never-launched"))));
    orchestratorModel.respondText("ok");

    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .messages(List.of(Message.user("collect"), launch, result))
            .use(Agents.builder().agentNames("researcher").async(true).build())
            .build());

    JsonNode waited = output(orchestratorModel.lastRequest(), "w1");
    assertThat(waited.path("timedOut").asBoolean()).isFalse();
    JsonNode missing = report(waited, "researcher:no-such-snapshot");
    assertThat(missing.path("status").asString()).isEqualTo("unknown");
    assertThat(missing.path("error").asString())
        .startsWith("No record of this task exists (")
        .contains("not found")
        .endsWith("Delegate the task again if the result is still needed.");
    assertThat(report(waited, "ghost:whatever").path("error").asString())
        .isEqualTo("Task \"ghost:whatever\" was not started in this conversation.");
    assertThat(report(waited, "researcher:never-launched").path("status").asString())
        .isEqualTo("unknown");
  }

  @Test
  void aStoppedTaskSaysWhyInASentenceOfItsOwn() {
    researcher();
    ActionContext ctx = baton.context();
    for (SnapshotStatus status : List.of(SnapshotStatus.ABORTED, SnapshotStatus.FAILED)) {
      String id = "stopped-" + status.wireName();
      subStore.saveSnapshot(
          ctx,
          id,
          existing ->
              SessionSnapshot.builder(id, Instant.now())
                  .sessionId("s-" + id)
                  .status(status)
                  .finishReason(
                      status == SnapshotStatus.ABORTED
                          ? AgentFinishReason.ABORTED
                          : AgentFinishReason.FAILED)
                  .error(
                      new ErrorInfo(
                          "RESOURCE_EXHAUSTED", "budget exceeded: spent 500 of 100", null))
                  .build());
    }
    Message launches =
        new Message(
            Role.TOOL,
            List.of(
                launchResult("l1", "researcher:stopped-aborted"),
                launchResult("l2", "researcher:stopped-failed")));
    orchestratorModel.respond(
        calls(
            call(
                "check_background_tasks",
                "c1",
                ids("researcher:stopped-aborted", "researcher:stopped-failed"))));
    orchestratorModel.respondText("ok");

    baton.generate(
        GenerateOptions.builder()
            .model("orch")
            .messages(
                List.of(
                    Message.user("collect"),
                    new Message(
                        Role.MODEL,
                        List.of(
                            launch("delegate_to_researcher", "l1", "a"),
                            launch("delegate_to_researcher", "l2", "b"))),
                    launches))
            .use(Agents.builder().agentNames("researcher").async(true).build())
            .build());

    JsonNode checked = output(orchestratorModel.lastRequest(), "c1");
    assertThat(report(checked, "researcher:stopped-aborted").path("error").asString())
        .isEqualTo(
            "The task was aborted before it finished: budget exceeded: spent 500 of 100. Continue"
                + " it with continue_task if the result is needed after all.");
    assertThat(report(checked, "researcher:stopped-failed").path("error").asString())
        .startsWith("budget exceeded: spent 500 of 100. Continue it with continue_task");
  }

  private static Part launchResult(String ref, String taskId) {
    return Part.toolResponse(
        "delegate_to_researcher",
        ref,
        Json.object().put("response", "started").put("taskId", taskId).put("status", "pending"));
  }

  @Test
  void malformedCallsAreAnsweredAsTextAndTheTurnGoesOn() {
    Agent researcher = researcher();
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(researcher.ref()));
    script(
        r ->
            calls(
                call("delegate_to_researcher", "missing", Json.object()),
                call("delegate_to_researcher", "wrong", Json.object().put("task", 5)),
                call("delegate_to_researcher", "empty", Json.object().put("task", " ")),
                call("check_background_tasks", "noids", Json.object()),
                call("check_background_tasks", "none", ids())),
        answer("I will phrase it better"));

    AgentOutput output = orchestrator.runText("go");

    assertThat(output.isFailed()).isFalse();
    assertThat(output.text()).isEqualTo("I will phrase it better");
    assertThat(last("missing").path("response").asString())
        .startsWith("Error: the call was malformed:")
        .contains("task");
    assertThat(last("wrong").path("response").asString())
        .startsWith("Error: the call was malformed:");
    assertThat(last("empty").path("response").asString())
        .isEqualTo("Error: the task is empty. Describe the task to delegate.");
    for (String ref : List.of("noids", "none")) {
      assertThat(last(ref).path("note").asString())
          .isEqualTo(
              "No task IDs given. Pass the taskId values returned by background delegations.");
    }
    assertThat(researcherModel.calls()).isZero();
  }

  @Test
  void aRefusedLaunchGivesItsSlotBackAndAFailureKeepsIt() {
    Agent inline =
        subAgent("inline", "inline-model", AgentOptions.DEFAULTS); // client-managed: cannot detach
    ProgrammableModel inlineModel = model("inline-model");
    Agent researcher = researcher();
    Agent orchestrator =
        asyncOrchestrator(
            Agents.builder().agents(inline.ref(), researcher.ref()).maxDelegations(1));
    inlineModel.respondText("inline answer");
    researcherModel.when(r -> true).fail(BatonException.of(Status.UNAVAILABLE, "down"));
    script(
        r -> calls(launch("delegate_to_inline", "refused", "t")),
        r -> calls(delegate("delegate_to_inline", "sync", "t")),
        r -> calls(delegate("delegate_to_researcher", "over", "t")),
        answer("done"));

    orchestrator.runText("go");

    assertThat(last("refused").path("response").asString())
        .isEqualTo(
            "Error calling agent \"inline\": this agent lacks a session store that supports"
                + " background work, so it cannot run tasks in the background. Delegate to it"
                + " without \"background\" instead.");
    assertThat(last("refused").has("taskId")).isFalse();
    assertThat(last("sync").path("response").asString())
        .as("the refused launch gave its slot back")
        .isEqualTo("inline answer");
    assertThat(last("over").path("response").asString())
        .isEqualTo(
            "Delegation limit reached (1). Complete the task using information already gathered.");
  }

  @Test
  void aFailingLaunchKeepsItsSlot() {
    Agent researcher = researcher();
    researcherModel.when(r -> true).fail(BatonException.of(Status.UNAVAILABLE, "down"));
    Agent orchestrator =
        asyncOrchestrator(Agents.builder().agents(researcher.ref()).maxDelegations(1));
    script(
        r -> calls(launch("delegate_to_researcher", "l1", "t")),
        r -> {
          String id = taskId(r, "l1");
          researcher.waitForSnapshot(id.substring("researcher:".length()));
          return calls(
              call("check_background_tasks", "c1", ids(id)),
              launch("delegate_to_researcher", "l2", "again"));
        },
        answer("done"));

    orchestrator.runText("go");

    String id = last("l1").path("taskId").asString();
    JsonNode failed = report(last("c1"), id);
    assertThat(failed.path("status").asString()).isEqualTo("failed");
    assertThat(failed.path("error").asString())
        .isEqualTo("down. Continue it with continue_task to retry from its saved progress.");
    assertThat(last("l2").path("response").asString()).startsWith("Delegation limit reached (1).");
  }

  @Test
  void twoAsyncInstancesNeedDistinctExplicitPrefixes() {
    Agent researcher = researcher();
    Agent coder = subAgent("coder", "coder-model", serverManaged(subStore).build());
    model("coder-model");
    orchestratorModel.respondText("ok");
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("orch")
                .prompt("go")
                .use(
                    Agents.builder()
                        .agents(researcher.ref())
                        .toolPrefix("research")
                        .async(true)
                        .build(),
                    Agents.builder().agents(coder.ref()).toolPrefix("code").async(true).build())
                .build());

    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(orchestratorModel.lastRequest().tools())
        .extracting(ToolDefinition::name)
        .contains(
            "research_researcher",
            "research_check_background_tasks",
            "research_wait_for_background_tasks",
            "research_abort_background_tasks",
            "research_continue_task",
            "code_coder",
            "code_check_background_tasks");
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("orch")
                        .prompt("go")
                        .use(
                            Agents.builder().agents(researcher.ref()).async(true).build(),
                            Agents.builder().agents(coder.ref()).async(true).build())
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("check_background_tasks");
  }

  @Test
  void anAgentNamedLikeASharedToolCollidesWithIt() {
    researcher();
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("orch")
                        .prompt("go")
                        .use(
                            Agents.builder()
                                .agentNames("check_background_tasks")
                                .toolPrefix("")
                                .async(true)
                                .build())
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("collides with");
  }

  @Test
  void aNegativeMaxWaitIsRejectedAtConfiguration() {
    assertThatThrownBy(() -> Agents.builder().agentNames("a").maxWaitSeconds(-1).build())
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("maxWaitSeconds");
  }

  @Test
  void aBackgroundRunThatStoppedOnAnInterruptReportsFailed() {
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
    Agent orchestrator = asyncOrchestrator(Agents.builder().agents(asker.ref()));
    script(
        r -> calls(launch("delegate_to_asker", "l1", "ask")),
        r -> calls(call("wait_for_background_tasks", "w1", ids(taskId(r, "l1")))),
        answer("ok"));

    orchestrator.runText("go");

    JsonNode report = report(last("w1"), last("l1").path("taskId").asString());
    assertThat(report.path("status").asString()).isEqualTo("failed");
    assertThat(report.path("error").asString())
        .startsWith("The sub-agent interrupted for additional input");
  }
}
