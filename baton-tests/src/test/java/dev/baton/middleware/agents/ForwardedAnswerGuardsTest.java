package dev.baton.middleware.agents;

import static dev.baton.middleware.agents.SubAgentTeam.PATH;
import static dev.baton.middleware.agents.SubAgentTeam.approve;
import static dev.baton.middleware.agents.SubAgentTeam.assertStillLatest;
import static dev.baton.middleware.agents.SubAgentTeam.assertUntouched;
import static dev.baton.middleware.agents.SubAgentTeam.calls;
import static dev.baton.middleware.agents.SubAgentTeam.delegate;
import static dev.baton.middleware.agents.SubAgentTeam.failure;
import static dev.baton.middleware.agents.SubAgentTeam.held;
import static dev.baton.middleware.agents.SubAgentTeam.interrupts;
import static dev.baton.middleware.agents.SubAgentTeam.resume;
import static dev.baton.middleware.agents.SubAgentTeam.taskSnapshot;
import static dev.baton.middleware.agents.SubAgentTeam.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.RowsOnly;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.node.ObjectNode;

/**
 * The guards around answering a forwarded sub-agent interrupt: one answer per held turn, a
 * restarted delegation that cannot pause again, the caller's principal, and the option off.
 */
@Timeout(30)
class ForwardedAnswerGuardsTest {
  @AutoClose final SubAgentTeams teams = new SubAgentTeams();

  @Test
  void aSecondAnswerWhileTheFirstRunsIsRefusedAndTheSubAgentRunsOnce() throws Exception {
    SubAgentTeam team = teams.inMemory();
    AgentOutput asked = team.heldWrite(team.baton.context());
    ToolRequestPart held = held(asked);
    CountDownLatch writing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean firstWrite = new AtomicBoolean(true);
    team.onWrite =
        () -> {
          if (!firstWrite.getAndSet(false)) {
            return;
          }
          writing.countDown();
          try {
            release.await(20, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        };
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder wrote it.");
    CompletableFuture<AgentOutput> first =
        CompletableFuture.supplyAsync(
            () -> team.resume(team.baton.context(), asked.snapshotId(), approve(held)));
    assertThat(writing.await(20, TimeUnit.SECONDS)).as("the first answer runs the write").isTrue();

    // A retry of the same answer, while the first one is inside the sub-agent's held call.
    Status second =
        failure(() -> team.resume(team.baton.context(), asked.snapshotId(), approve(held)));
    release.countDown();

    assertThat(second).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(first.get(20, TimeUnit.SECONDS).finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.writes).hasSize(1);
    assertThat(team.delegationOutput("d1").path("response").asString()).isEqualTo("Wrote " + PATH);
  }

  @Test
  void aSubAgentQuestionInADelegationTheOrchestratorApprovedIsReportedAsText() {
    SubAgentTeam team = teams.inMemory();
    Agent lead =
        team.baton.defineAgent(
            "lead",
            InlinePrompt.builder()
                .model("orch")
                .use(ToolApproval.allowing())
                .use(Agents.builder().agents(team.coder.ref()).forwardInterrupts(true).build())
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    team.orchestratorModel.respond(calls(delegate("d1", "Write the main class")));
    AgentOutput approval = lead.runText("Build it");
    ToolRequestPart delegation = held(approval);
    assertThat(delegation.toolRequest().name()).isEqualTo("delegate_to_coder");
    team.coderModel.respond(calls(write("w1", PATH)));
    team.orchestratorModel.respondText("The coder needs approval.");

    AgentOutput approved =
        resume(
            lead,
            team.baton.context(),
            AgentInit.ofSnapshot(approval.snapshotId()),
            approve(delegation));

    assertThat(approved.finishReason())
        .as(String.valueOf(approved.error()))
        .isEqualTo(AgentFinishReason.STOP);
    assertThat(team.delegationOutput("d1").path("response").asString())
        .startsWith("Sub-agent \"coder\" interrupted for additional input");
    assertThat(team.writes).isEmpty();
  }

  @Test
  void anotherPrincipalsAnswerThroughAClientManagedOrchestratorIsNotFound() {
    SubAgentTeam team = teams.inMemory();
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref()));
    ActionContext alice = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
    ActionContext bob = team.baton.context().withAuth(Map.of(ActionContext.PRINCIPAL, "bob"));
    team.delegatesOneWrite();
    AgentOutput asked =
        lead.run(alice, AgentInput.text("Build it"), AgentInit.NEW, StreamCallback.discard());
    ToolRequestPart held = held(asked);
    int orchestratorCalls = team.orchestratorModel.calls();

    // Bob holds alice's conversation (the client keeps it) and answers her sub-agent's question.
    Status status =
        failure(() -> resume(lead, bob, AgentInit.ofState(asked.state()), approve(held)));

    assertThat(status).isEqualTo(Status.NOT_FOUND);
    assertThat(team.writes).isEmpty();
    assertThat(team.orchestratorModel.calls()).isEqualTo(orchestratorCalls);
    assertStillLatest(team.coder.snapshots(alice), held);
  }

  @Test
  void aClientHistoryWhosePartsLeaveAHeldCallUnansweredIsRefusedBeforeTheSubAgentRuns() {
    SubAgentTeam team = teams.inMemory();
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref()));
    team.delegatesTwoWrites();
    AgentOutput asked = lead.runText("Build it");
    // The client keeps the conversation, and points the second part at the first held call.
    List<Part> parts = new ArrayList<>();
    List<ToolRequestPart> answered = new ArrayList<>();
    for (Part part : asked.state().messages().getLast().content()) {
      if (part instanceof ToolRequestPart request) {
        ObjectNode metadata = request.metadata();
        wrappedRequest(metadata).put("ref", "w1");
        ToolRequestPart tampered = request.withMetadata(metadata);
        parts.add(tampered);
        answered.addAll(approve(tampered).restart());
      } else {
        parts.add(part);
      }
    }
    int coderCalls = team.coderModel.calls();

    Status status =
        failure(
            () ->
                resume(
                    lead,
                    team.baton.context(),
                    withLastMessage(asked, parts),
                    new Resume(List.of(), answered, null)));

    assertThat(status).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(team.writes).isEmpty();
    assertThat(team.coderModel.calls()).isEqualTo(coderCalls);
    // Not claimed either: the honest history's answers resume the coder's turn.
    team.coderModel.respondText("Wrote both");
    team.orchestratorModel.respondText("Done.");
    List<ToolRequestPart> honest = new ArrayList<>();
    interrupts(asked).forEach(part -> honest.addAll(approve(part).restart()));
    AgentOutput done =
        resume(
            lead,
            team.baton.context(),
            AgentInit.ofState(asked.state()),
            new Resume(List.of(), honest, null));
    assertThat(done.text()).isEqualTo("Done.");
    assertThat(team.writes).hasSize(2);
  }

  @Test
  void withTheOptionOffAHeldSubAgentIsReportedAsTextAndTheTurnGoesOn() {
    SubAgentTeam team = teams.inMemory(false);
    team.delegatesOneWrite();
    team.orchestratorModel.respondText("The coder needs approval.");

    AgentOutput output = team.orchestrator.runText("Build it");

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(team.delegationOutput("d1").path("response").asString())
        .startsWith("Sub-agent \"coder\" interrupted for additional input");
    assertThat(team.writes).isEmpty();
  }

  @Test
  void anAnswerWhoseBackgroundResumeIsRefusedGivesBackNoSlotItNeverTookNorTheQuestion() {
    SessionStore coderRows = InMemorySessionStore.create();
    SessionStore leadRows = InMemorySessionStore.create();
    SubAgentTeam asking = teams.withCoderStore(coderRows);
    Agent lead = limitedLead(asking, leadRows);
    asking.orchestratorModel.respond(
        calls(
            Part.toolRequest(
                "delegate_to_coder",
                "d1",
                Json.object().put("task", "Write the main class").put("background", true))));
    asking.orchestratorModel.respondText("Started.");
    asking.coderModel.respond(calls(write("w1", PATH)));
    AgentOutput started = lead.runText("Build it");
    String taskId = asking.delegationOutput("d1").path("taskId").asString();
    asking.coder.snapshots().waitFor(taskId.substring("coder:".length()));
    asking.orchestratorModel.respond(
        calls(
            Part.toolRequest(
                "check_background_tasks",
                "c1",
                Json.object().set("taskIds", Json.nodes().arrayNode().add(taskId)))));
    AgentOutput asked =
        lead.run(
            asking.baton.context(),
            AgentInput.text("How is it going?"),
            AgentInit.ofSnapshot(started.snapshotId()),
            StreamCallback.discard());
    ToolRequestPart held = held(asked);

    // Another instance answers, whose coder store cannot run work in the background: the resumed
    // task's launch is refused. Its model then delegates twice, against a limit of one.
    SubAgentTeam answering = teams.withCoderStore(new RowsOnly(coderRows));
    Agent sameLead = limitedLead(answering, leadRows);
    answering.orchestratorModel.respond(
        calls(delegate("d2", "Write a test"), delegate("d3", "Write another test")));
    answering.coderModel.respondText("Wrote a test.");
    answering.coderModel.respondText("Wrote another test.");
    answering.orchestratorModel.respondText("Done.");
    resume(
        sameLead,
        answering.baton.context(),
        AgentInit.ofSnapshot(asked.snapshotId()),
        approve(held));

    assertThat(answering.delegationOutput("d2").path("response").asString())
        .isEqualTo("Wrote a test.");
    assertThat(answering.delegationOutput("d3").path("response").asString())
        .startsWith("Delegation limit reached (1)");

    // The refused launch left the task's question unanswered and gave its claim back: the first
    // instance answers it.
    asking.orchestratorModel.respondText("The coder goes on.");
    resume(lead, asking.baton.context(), AgentInit.ofSnapshot(asked.snapshotId()), approve(held));
    assertThat(asking.delegationOutput("c1").path("response").asString())
        .startsWith("The user answered the question of task " + taskId + ".");
    assertThat(asking.delegationOutput("c1").path("status").asString()).isEqualTo("pending");
  }

  @Test
  void aClientHistoryThatRoutesOneDelegationsAnswerToAnotherAgentIsRefused() {
    SubAgentTeam team = teams.inMemory();
    Agent helper =
        team.baton.defineAgent(
            "helper",
            InlinePrompt.builder().model("coder-model").build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref(), helper.ref()));
    AgentOutput asked = askThroughLead(team, lead);

    // The client renames the held delegation to the helper's: its wrapper still routes to coder.
    Status status = resumeForged(team, lead, asked, "delegate_to_helper", "d1");

    assertThat(status).isEqualTo(Status.INVALID_ARGUMENT);
    assertUntouched(team, held(asked));
  }

  @Test
  void aClientHistoryWhoseCheckAsksForATaskOutsideTheConversationIsRefused() {
    SubAgentTeam team = teams.inMemory();
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref()).async(true));
    AgentOutput asked = askThroughLead(team, lead);

    // The client presents the synchronous delegation's question as a check's: no result of this
    // conversation names that task.
    Status status = resumeForged(team, lead, asked, "check_background_tasks", "c1");

    assertThat(status).isEqualTo(Status.NOT_FOUND);
    assertUntouched(team, held(asked));
  }

  @Test
  void aHeldCallWithoutARefIsAnswered() {
    // Baton's generate loop gives every call a ref; another runtime's turn (a remote agent's) may
    // hold one without. Here the coder's held row and the client's wrapper lose the ref.
    SessionStore coderRows = InMemorySessionStore.create();
    SubAgentTeam team = teams.withCoderStore(coderRows);
    Agent lead = team.clientManagedLead(agents -> agents.agents(team.coder.ref()));
    AgentOutput asked = askThroughLead(team, lead);
    ToolRequestPart held = held(asked);
    coderRows.saveSnapshot(
        team.baton.context(),
        taskSnapshot(held),
        row -> {
          List<Message> messages = new ArrayList<>(row.state().messages());
          Message last = messages.remove(messages.size() - 1);
          messages.add(last.withContent(List.of(withoutRef(last.toolRequests().get(0)))));
          return row.withState(row.state().withMessages(messages));
        });
    ObjectNode metadata = held.metadata().deepCopy();
    wrappedRequest(metadata).remove("ref");
    ToolRequestPart refless = held.withMetadata(metadata);
    team.coderModel.respondText("Wrote " + PATH);
    team.orchestratorModel.respondText("The coder wrote it.");

    AgentOutput done =
        resume(
            lead, team.baton.context(), withLastMessage(asked, List.of(refless)), approve(refless));

    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(team.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    assertThat(team.delegationOutput("d1").path("response").asString()).isEqualTo("Wrote " + PATH);
  }

  /** The request of the call a wrapped interrupt's metadata wraps, to edit. */
  private static ObjectNode wrappedRequest(ObjectNode metadata) {
    return (ObjectNode)
        metadata
            .path("interrupt")
            .path(Agents.SUB_AGENT)
            .path("interrupts")
            .get(0)
            .path("toolRequest");
  }

  /** The conversation of the turn given, its last message holding the parts given instead. */
  private static AgentInit withLastMessage(AgentOutput output, List<? extends Part> content) {
    List<Message> messages = new ArrayList<>(output.state().messages());
    messages.set(messages.size() - 1, messages.getLast().withContent(List.copyOf(content)));
    return AgentInit.ofState(output.state().withMessages(messages));
  }

  private static ToolRequestPart withoutRef(ToolRequestPart part) {
    return new ToolRequestPart(part.toolRequest().withRef(null), part.metadata());
  }

  /** The lead delegates to the coder, whose write is held: the lead's turn ends interrupted. */
  private static AgentOutput askThroughLead(SubAgentTeam team, Agent lead) {
    team.delegatesOneWrite();
    return lead.runText("Build it");
  }

  /**
   * Approves the held delegation of a client-kept conversation in which the client replaced that
   * call with one of the tool and ref given, keeping its wrapper; the status the resume failed
   * with.
   */
  private static Status resumeForged(
      SubAgentTeam team, Agent lead, AgentOutput asked, String tool, String ref) {
    ToolRequestPart held = held(asked);
    ToolRequestPart forged =
        new ToolRequestPart(
            Part.toolRequest(tool, ref, Json.object().set("taskIds", Json.nodes().arrayNode()))
                .toolRequest(),
            held.metadata());
    return failure(
        () ->
            resume(
                lead,
                team.baton.context(),
                withLastMessage(asked, List.of(forged)),
                approve(forged)));
  }

  /** An orchestrator that delegates to the team's coder in the background, once per call. */
  private static Agent limitedLead(SubAgentTeam team, SessionStore rows) {
    return team.baton.defineAgent(
        "lead",
        InlinePrompt.builder()
            .model("orch")
            .use(
                Agents.builder()
                    .agents(team.coder.ref())
                    .async(true)
                    .maxDelegations(1)
                    .forwardInterrupts(true)
                    .build())
            .build(),
        AgentOptions.builder().sessionStore(rows).build());
  }
}
