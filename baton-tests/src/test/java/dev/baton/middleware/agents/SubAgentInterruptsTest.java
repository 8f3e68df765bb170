package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.PATH;
import static dev.baton.middleware.agents.SubAgentTeam.answer;
import static dev.baton.middleware.agents.SubAgentTeam.approve;
import static dev.baton.middleware.agents.SubAgentTeam.assertStillLatest;
import static dev.baton.middleware.agents.SubAgentTeam.assertUntouched;
import static dev.baton.middleware.agents.SubAgentTeam.calls;
import static dev.baton.middleware.agents.SubAgentTeam.delegate;
import static dev.baton.middleware.agents.SubAgentTeam.failure;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.interrupts;
import static dev.baton.middleware.agents.SubAgentTeam.lastToolResponses;
import static dev.baton.middleware.agents.SubAgentTeam.taskSnapshot;
import static dev.baton.middleware.agents.SubAgentTeam.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ProgrammableModel;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Forwarded sub-agent interrupts ({@link Agents#forwardInterrupts}): a server-managed sub-agent's
 * held call ends the orchestrator's turn with a wrapped interrupt; the caller's answer on the
 * orchestrator goes into the sub-agent's session, and its result becomes the delegation's.
 */
@Timeout(30)
class SubAgentInterruptsTest {
  @TempDir Path dir;

  @AutoClose final SubAgentTeams teams = new SubAgentTeams();

  @Test
  void theSystemPromptNamesTheSubAgentsThatForwardTheirQuestions() {
    SubAgentTeam team = teams.inMemory();
    Agent helper =
        team.baton.defineAgent(
            "helper", InlinePrompt.builder().model("coder-model").build(), AgentOptions.DEFAULTS);
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref(), helper.ref()));
    team.orchestratorModel.respondText("hi");

    lead.runText("hello");

    String system = team.orchestratorModel.lastRequest().messages().get(0).text();
    assertThat(system)
        .contains(
            "When one of these sub-agents needs the user's input (an approval, an answer), your"
                + " turn usually pauses until the user answers, and the sub-agent goes on:"
                + " delegate_to_coder. Otherwise a sub-agent that needs input reports it as an"
                + " error");
  }

  @Test
  void aHeldApprovalEndsTheOrchestratorsTurnWithAWrappedInterrupt() {
    SubAgentTeam team = teams.inMemory();

    AgentOutput output = team.heldWrite(team.baton.context());

    ToolRequestPart held = held(output);
    assertThat(held.toolRequest().name()).isEqualTo("delegate_to_coder");
    JsonNode interrupt = held.metadata().get("interrupt");
    // A client that knows only ToolApproval renders it as it would the coder's own hold.
    assertThat(interrupt.path("toolApproval").path("tool").asString()).isEqualTo("write_file");
    JsonNode routing = interrupt.path(Agents.SUB_AGENT);
    assertThat(routing.path("agent").asString()).isEqualTo("coder");
    String taskId = routing.path("taskId").asString();
    assertThat(taskId).startsWith("coder:");
    JsonNode original = routing.path("interrupts").get(0);
    assertThat(original.path("toolRequest").path("name").asString()).isEqualTo("write_file");
    assertThat(original.path("toolRequest").path("input").path("path").asString()).isEqualTo(PATH);
    assertThat(
            original
                .path("metadata")
                .path("interrupt")
                .path("toolApproval")
                .path("tool")
                .asString())
        .isEqualTo("write_file");
    assertThat(team.writes).isEmpty();
    // The held turn is the coder's session's latest snapshot, where the answer will go.
    String coderSnapshot = taskId.substring("coder:".length());
    var row = team.coder.snapshots().get(coderSnapshot);
    assertThat(row.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    assertThat(team.coder.snapshots().latest(row.sessionId()).snapshotId())
        .isEqualTo(coderSnapshot);
  }

  @Test
  void approvingTheWrappedInterruptRunsTheHeldCallAndReturnsTheSubAgentsResult() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder wrote it.");

    AgentOutput done = team.resume(team.baton.context(), asked.snapshotId(), approve(held(asked)));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    JsonNode result = team.delegationOutput("d1");
    assertThat(result.path("response").asString()).isEqualTo("Wrote " + PATH);
    assertThat(result.path("status").asString()).isEqualTo("completed");
    assertThat(result.path("taskId").asString()).startsWith("coder:");
    // The coder's turn resumed where it paused: its model saw the written file's output.
    assertThat(lastToolResponses(team.coderModel))
        .extracting(p -> p.toolResponse().output().asString())
        .containsExactly("written");
  }

  @Test
  void aSubAgentTurnThatHeldSeveralCallsIsOneInterruptPerCallEachAnsweredOnItsOwn() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = heldTwoWrites(team);

    List<ToolRequestPart> held = interrupts(asked);
    assertThat(held)
        .extracting(p -> p.toolRequest().name(), p -> p.toolRequest().ref())
        .containsExactly(tuple("delegate_to_coder", "d1/w1"), tuple("delegate_to_coder", "d1/w2"));
    for (int i = 0; i < 2; i++) {
      JsonNode interrupt = held.get(i).metadata().path("interrupt");
      // Each wraps its own call, rendered as the coder's own hold.
      assertThat(interrupt.path("toolApproval").path("tool").asString()).isEqualTo("write_file");
      JsonNode routing = interrupt.path(Agents.SUB_AGENT);
      assertThat(routing.path("taskId").asString()).isEqualTo(taskId(held.get(0)));
      assertThat(routing.path("interrupts"))
          .extracting(p -> p.path("toolRequest").path("ref").asString())
          .containsExactly("w" + (i + 1));
    }
    team.coderModel.respondText("Wrote one");
    team.orchestratorModel.respondText("Done.");

    // The caller approves the first write and refuses the second, with the ordinary resume API.
    ToolRequestPart first = held.get(0);
    ToolRequestPart second = held.get(1);
    AgentOutput done =
        team.resume(
            team.baton.context(),
            asked.snapshotId(),
            new Resume(
                List.of(
                    Part.toolResponse(
                        second.toolRequest().name(),
                        second.toolRequest().ref(),
                        Json.nodes().stringNode("not the README"))),
                approve(first).restart(),
                null));

    assertThat(done.text()).isEqualTo("Done.");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    // One resume of the coder's turn, with an answer per held call.
    assertThat(team.coderModel.calls()).isEqualTo(2);
    assertThat(lastToolResponses(team.coderModel))
        .extracting(p -> p.toolResponse().ref(), p -> p.toolResponse().output().asString())
        .containsExactly(tuple("w1", "written"), tuple("w2", "not the README"));
    // The orchestrator's model sees its own call and one result, and so does its saved history.
    assertOneDelegation(team.orchestratorModel.lastRequest().messages(), "d1", "Wrote one");
    assertOneDelegation(
        team.orchestrator.snapshots().get(done.snapshotId()).state().messages(), "d1", "Wrote one");
  }

  @Test
  void aResumeThatLeavesAHeldCallUnansweredIsRefusedAndChangesNothing() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = heldTwoWrites(team);
    ToolRequestPart first = interrupts(asked).get(0);

    Status status =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), approve(first)));

    assertThat(status).isEqualTo(Status.INVALID_ARGUMENT);
    assertUntouched(team, first);
  }

  @Test
  void aSecondQuestionAfterTheAnswerEndsTheResumedTurnInterruptedAgain() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    team.coderModel.respond(calls(write("w2", "README.md")));
    int orchestratorCalls = team.orchestratorModel.calls();

    AgentOutput again = team.resume(team.baton.context(), asked.snapshotId(), approve(held(asked)));

    // The coder wrote the first file and asks to write the second, on the same delegation call,
    // before the orchestrator's model runs.
    ToolRequestPart question = held(again);
    assertThat(question.toolRequest().name()).isEqualTo("delegate_to_coder");
    assertThat(question.toolRequest().ref()).isEqualTo("d1");
    JsonNode routing = question.metadata().path("interrupt").path(Agents.SUB_AGENT);
    assertThat(routing.path("taskId").asString()).isNotEqualTo(taskId(held(asked)));
    assertThat(routing.path("interrupts").get(0).path("toolRequest").path("ref").asString())
        .isEqualTo("w2");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    assertThat(team.orchestratorModel.calls()).isEqualTo(orchestratorCalls);

    team.coderModel.respondText("Wrote both");
    team.orchestratorModel.respondText("The coder wrote both.");
    AgentOutput done = team.resume(team.baton.context(), again.snapshotId(), approve(question));

    assertThat(done.text()).isEqualTo("The coder wrote both.");
    assertThat(team.writes)
        .extracting(w -> w.path("path").asString())
        .containsExactly(PATH, "README.md");
    assertOneDelegation(team.orchestratorModel.lastRequest().messages(), "d1", "Wrote both");
    assertOneDelegation(
        team.orchestrator.snapshots().get(done.snapshotId()).state().messages(),
        "d1",
        "Wrote both");
  }

  @Test
  void severalHeldCallsTwoLevelsDownComposeTheirRefs() {
    SubAgentTeam team = teams.inMemory();
    TwoLevels levels = twoLevels(team, "Write two files");
    team.coderModel.respond(calls(write("w1", PATH), write("w2", "README.md")));

    AgentOutput asked = levels.lead().runText("Ship it");

    List<ToolRequestPart> held = interrupts(asked);
    assertThat(held).extracting(p -> p.toolRequest().ref()).containsExactly("m1/d1/w1", "m1/d1/w2");
    assertThat(held)
        .extracting(
            p -> p.metadata().path("interrupt").path("toolApproval").path("tool").asString())
        .containsExactly("write_file", "write_file");
    levels.reply(team, "Wrote both", "The coder shipped both.");

    AgentOutput done =
        levels.resume(
            team,
            asked,
            Resume.restart(
                approve(held.get(0)).restart().get(0), approve(held.get(1)).restart().get(0)));

    assertThat(done.text()).isEqualTo("Shipped.");
    assertThat(team.writes)
        .extracting(w -> w.path("path").asString())
        .containsExactlyInAnyOrder(PATH, "README.md");
    assertEachLevelSawOneResult(team, levels);
  }

  @Test
  void aSecondQuestionTwoLevelsDownPausesEveryLevelAgainAndEachSeesOneResult() {
    SubAgentTeam team = teams.inMemory();
    TwoLevels levels = twoLevels(team, "Write the main class");
    team.coderModel.respond(calls(write("w1", PATH)));
    AgentOutput asked = levels.lead().runText("Ship it");
    team.coderModel.respond(calls(write("w2", "README.md")));

    AgentOutput again = levels.resume(team, asked, approve(held(asked)));

    ToolRequestPart question = held(again);
    assertThat(question.toolRequest().ref()).isEqualTo("m1");
    JsonNode inner = innerInterrupt(question).path(Agents.SUB_AGENT);
    assertThat(inner.path("interrupts").get(0).path("toolRequest").path("ref").asString())
        .isEqualTo("w2");
    assertThat(levels.managerModel().calls()).isEqualTo(1);

    levels.reply(team, "Wrote both", "The coder shipped both.");
    AgentOutput done = levels.resume(team, again, approve(question));

    assertThat(done.text()).isEqualTo("Shipped.");
    assertThat(team.writes)
        .extracting(w -> w.path("path").asString())
        .containsExactly(PATH, "README.md");
    assertEachLevelSawOneResult(team, levels);
  }

  /** The orchestrator delegates; the coder asks to write two files at once. */
  private static AgentOutput heldTwoWrites(SubAgentTeam team) {
    team.delegatesTwoWrites();
    return team.orchestrator.runText("Build it");
  }

  /** A lead that delegates to a manager, which delegates to the team's coder; both forward. */
  private record TwoLevels(Agent lead, ProgrammableModel managerModel) {
    /** The models' replies once the coder's held calls are answered; the lead's is "Shipped.". */
    void reply(SubAgentTeam team, String coder, String manager) {
      team.coderModel.respondText(coder);
      managerModel.respondText(manager);
      team.orchestratorModel.respondText("Shipped.");
    }

    AgentOutput resume(SubAgentTeam team, AgentOutput asked, Resume resume) {
      return SubAgentTeam.resume(
          lead, team.baton.context(), AgentInit.ofSnapshot(asked.snapshotId()), resume);
    }
  }

  /**
   * The two levels over the team's coder, with their models' first replies: the lead's delegates
   * {@code m1} to the manager, whose delegates {@code d1}, the task given, to the coder.
   */
  private static TwoLevels twoLevels(SubAgentTeam team, String task) {
    ProgrammableModel managerModel =
        ProgrammableModel.define(team.baton.registry(), "manager-model");
    team.orchestratorModel.respond(
        calls(Part.toolRequest("delegate_to_manager", "m1", Json.object().put("task", "ship"))));
    managerModel.respond(calls(delegate("d1", task)));
    Agent manager =
        team.baton.defineAgent(
            "manager",
            InlinePrompt.builder()
                .model(managerModel.name())
                .use(Agents.builder().agents(team.coder.ref()).forwardInterrupts(true).build())
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent lead =
        team.baton.defineAgent(
            "lead",
            InlinePrompt.builder()
                .model("orch")
                .use(Agents.builder().agents(manager.ref()).forwardInterrupts(true).build())
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    return new TwoLevels(lead, managerModel);
  }

  /** Each level's model saw the one call it made, answered once. */
  private static void assertEachLevelSawOneResult(SubAgentTeam team, TwoLevels levels) {
    assertThat(
            levels.managerModel().lastRequest().messages().stream()
                .flatMap(m -> m.toolResponses().stream()))
        .extracting(
            p -> p.toolResponse().ref(), p -> p.toolResponse().output().path("response").asString())
        .containsExactly(tuple("d1", "Wrote both"));
    assertThat(
            team.orchestratorModel.lastRequest().messages().stream()
                .flatMap(m -> m.toolResponses().stream()))
        .extracting(
            p -> p.toolResponse().ref(), p -> p.toolResponse().output().path("response").asString())
        .containsExactly(tuple("m1", "The coder shipped both."));
  }

  /** The interrupt a two-level wrapped interrupt wraps: the manager's, wrapping the coder's. */
  private static JsonNode innerInterrupt(ToolRequestPart held) {
    return held.metadata()
        .path("interrupt")
        .path(Agents.SUB_AGENT)
        .path("interrupts")
        .get(0)
        .path("metadata")
        .path("interrupt");
  }

  private static String taskId(ToolRequestPart held) {
    return held.metadata().path("interrupt").path(Agents.SUB_AGENT).path("taskId").asString();
  }

  /**
   * The conversation holds the delegation call the model made, once, and one response to it with
   * the sub-agent's result.
   */
  private static void assertOneDelegation(List<Message> messages, String ref, String response) {
    List<ToolRequestPart> calls =
        messages.stream()
            .flatMap(m -> m.toolRequests().stream())
            .filter(p -> p.toolRequest().name().equals("delegate_to_coder"))
            .toList();
    assertThat(calls).extracting(p -> p.toolRequest().ref()).containsExactly(ref);
    List<ToolResponsePart> responses =
        messages.stream()
            .flatMap(m -> m.toolResponses().stream())
            .filter(p -> p.toolResponse().name().equals("delegate_to_coder"))
            .toList();
    assertThat(responses).extracting(p -> p.toolResponse().ref()).containsExactly(ref);
    assertThat(responses.get(0).toolResponse().output().path("response").asString())
        .isEqualTo(response);
    assertThat(messages)
        .noneMatch(m -> m.metadata() != null && m.metadata().has("baton.askedAgain"));
  }

  @Test
  void aRefusalReachesTheSubAgentAsToolApprovalsRefusal() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    team.coderModel.respondText("Understood, I did not write it.");
    team.orchestratorModel.respondText("The user declined.");

    AgentOutput done =
        team.resume(
            team.baton.context(), asked.snapshotId(), answer(held(asked), "denied by user"));

    assertThat(done.text()).isEqualTo("The user declined.");
    assertThat(team.writes).isEmpty();
    ToolResponsePart refusal = lastToolResponses(team.coderModel).get(0);
    assertThat(refusal.toolResponse().name()).isEqualTo("write_file");
    assertThat(refusal.toolResponse().ref()).isEqualTo("w1");
    assertThat(refusal.toolResponse().output().asString()).isEqualTo("denied by user");
    assertThat(team.delegationOutput("d1").path("response").asString())
        .isEqualTo("Understood, I did not write it.");
  }

  @Test
  void aToolsOwnQuestionIsForwardedAndItsAnswerReachesTheTool() {
    SubAgentTeam team = teams.inMemory();
    team.orchestratorModel.respond(calls(delegate("d1", "Write the main class")));
    team.coderModel.respond(
        calls(Part.toolRequest("ask_user", "q1", Json.object().put("question", "Which package?"))));
    AgentOutput asked = team.orchestrator.runText("Build it");

    ToolRequestPart held = held(asked);
    assertThat(held.metadata().path("interrupt").path("question").asString())
        .isEqualTo("Which package?");
    team.coderModel.respondText("Using dev.example");
    team.orchestratorModel.respondText("Done.");

    team.resume(team.baton.context(), asked.snapshotId(), answer(held, "dev.example"));

    assertThat(lastToolResponses(team.coderModel).get(0).toolResponse().output().asString())
        .isEqualTo("dev.example");
    assertThat(team.delegationOutput("d1").path("response").asString())
        .isEqualTo("Using dev.example");
  }

  @Test
  void anOrchestratorRecreatedOnTheSameFileStoresRoutesTheAnswer() {
    Path coderDir = dir.resolve("coder");
    Path orchestratorDir = dir.resolve("orchestrator");
    SubAgentTeam before =
        teams.add(
            new SubAgentTeam(
                FileSessionStore.builder(coderDir).build(),
                FileSessionStore.builder(orchestratorDir).build(),
                true));
    AgentOutput asked = before.heldWrite(before.baton.context());
    ToolRequestPart held = held(asked);
    before.baton.close();

    SubAgentTeam after =
        teams.add(
            new SubAgentTeam(
                FileSessionStore.builder(coderDir).build(),
                FileSessionStore.builder(orchestratorDir).build(),
                true));
    after.coderModel.respondText("Wrote " + PATH);
    after.orchestratorModel.respondText("The coder wrote it.");
    AgentOutput done = after.resume(after.baton.context(), asked.snapshotId(), approve(held));

    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(after.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    assertThat(after.delegationOutput("d1").path("response").asString()).isEqualTo("Wrote " + PATH);
  }

  @Test
  void anAnswerToAnUnknownInterruptIsRefusedAndChangesNothing() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    ToolRequestPart unknown =
        Part.toolRequest("delegate_to_coder", "nope", held.toolRequest().input());

    Status status =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), approve(unknown)));

    assertThat(status).isEqualTo(Status.INVALID_ARGUMENT);
    assertUntouched(team, held);
    // The held turn is still there to answer.
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder wrote it.");
    assertThat(team.resume(team.baton.context(), asked.snapshotId(), approve(held)).text())
        .isEqualTo("The coder wrote it.");
    assertThat(team.writes).hasSize(1);
  }

  @Test
  void anAlreadyAnsweredInterruptIsRefusedAndChangesNothing() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder wrote it.");
    AgentOutput done = team.resume(team.baton.context(), asked.snapshotId(), approve(held));
    int coderCalls = team.coderModel.calls();

    // Once more on the turn that answered it, and otherwise on the held turn itself, whose coder
    // has moved on (the same answer again is a retry, which folds what the coder answered).
    Status again =
        failure(() -> team.resume(team.baton.context(), done.snapshotId(), approve(held)));
    Status replay =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), answer(held, "No.")));

    assertThat(again).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(replay).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(team.writes).hasSize(1);
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
  }

  @Test
  void anotherPrincipalCannotAnswerTheInterrupt() {
    SubAgentTeam team = teams.inMemory();
    ActionContext alice = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    ActionContext bob = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));
    AgentOutput asked = team.heldWrite(alice);
    ToolRequestPart held = held(asked);

    Status status = failure(() -> team.resume(bob, asked.snapshotId(), approve(held)));

    assertThat(status).isEqualTo(Status.NOT_FOUND);
    assertThat(team.writes).isEmpty();
    assertStillLatest(team.coder.snapshots(alice), held);
  }

  @Test
  void aSubAgentSessionThatMovedOnRefusesTheAnswerAndChangesNothing() {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    // Someone answers the coder directly, behind the orchestrator's back.
    team.coderModel.respondText("Skipped the write.");
    team.coder.run(
        team.baton.context(),
        AgentInput.resume(
            Resume.respond(Part.toolResponse("write_file", "w1", Json.nodes().stringNode("no")))),
        AgentInit.ofSnapshot(taskSnapshot(held)),
        StreamCallback.discard());
    int orchestratorCalls = team.orchestratorModel.calls();
    int coderCalls = team.coderModel.calls();

    Status status =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), approve(held)));

    assertThat(status).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(team.writes).isEmpty();
    assertThat(team.orchestratorModel.calls()).isEqualTo(orchestratorCalls);
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
  }

  @Test
  void aClientManagedSubAgentKeepsTheSeedsDeadEnd() {
    SubAgentTeam team = teams.inMemory();
    Agent asker =
        team.baton.defineAgent(
            "asker",
            InlinePrompt.builder().model("coder-model").tools(team.askUser).build(),
            AgentOptions.DEFAULTS);
    Agent lead = team.clientManagedLead(agents -> agents.agents(asker.ref()));
    team.orchestratorModel.respond(
        calls(Part.toolRequest("delegate_to_asker", "q", Json.object().put("task", "ask"))));
    team.coderModel.respond(
        calls(Part.toolRequest("ask_user", "u1", Json.object().put("question", "?"))));
    team.orchestratorModel.respondText("ok");

    AgentOutput output = lead.runText("go");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.delegationOutput("q").path("response").asString())
        .startsWith("Sub-agent \"asker\" interrupted for additional input");
  }

  @Test
  void aQuestionTwoLevelsDownReachesTheTopAndItsAnswerGoesBackDown() {
    SubAgentTeam team = teams.inMemory();
    TwoLevels levels = twoLevels(team, "Write the main class");
    team.coderModel.respond(calls(write("w1", PATH)));

    AgentOutput asked = levels.lead().runText("Ship it");

    ToolRequestPart held = held(asked);
    JsonNode interrupt = held.metadata().get("interrupt");
    assertThat(interrupt.path("toolApproval").path("tool").asString()).isEqualTo("write_file");
    assertThat(interrupt.path(Agents.SUB_AGENT).path("agent").asString()).isEqualTo("manager");
    JsonNode inner = innerInterrupt(held);
    assertThat(inner.path(Agents.SUB_AGENT).path("agent").asString()).isEqualTo("coder");

    levels.reply(team, "Wrote " + PATH, "The coder shipped it.");
    AgentOutput done = levels.resume(team, asked, approve(held));

    assertThat(done.text()).isEqualTo("Shipped.");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    assertThat(team.delegationOutput("m1").path("response").asString())
        .isEqualTo("The coder shipped it.");
    assertThat(
            lastToolResponses(levels.managerModel())
                .get(0)
                .toolResponse()
                .output()
                .path("response")
                .asString())
        .isEqualTo("Wrote " + PATH);
  }
}
