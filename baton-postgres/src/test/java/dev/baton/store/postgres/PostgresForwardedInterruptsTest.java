package dev.baton.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolApproval;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Forwarded sub-agent interrupts ({@link Agents#forwardInterrupts}) on PostgreSQL: the orchestrator
 * is re-created (a new Baton, new store instances over the same schema) between the question and
 * the answer, and the answer still reaches the sub-agent's session, for a synchronous delegation
 * and for a background task. Everything that routes it is in the rows.
 */
@Timeout(60)
class PostgresForwardedInterruptsTest {
  private static final String PATH = "src/Main.java";

  private final TestSchema schema = new TestSchema(TestDatabase.shared());
  private final List<Baton> instances = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws SQLException {
    instances.forEach(Baton::close);
    schema.close();
  }

  /**
   * One process of the team: an orchestrator delegating to {@code coder}, whose {@code write_file}
   * is held by ToolApproval, both keeping their sessions in the schema.
   */
  private final class Team {
    final Baton baton = Baton.builder().experimental().build();
    final ProgrammableModel orchestratorModel = ProgrammableModel.define(baton.registry(), "orch");
    final ProgrammableModel coderModel = ProgrammableModel.define(baton.registry(), "coder-model");
    final List<JsonNode> writes = new CopyOnWriteArrayList<>();
    final Agent coder;
    final Agent orchestrator;

    Team(boolean background) {
      instances.add(baton);
      var writeFile =
          baton.defineJsonTool(
              "write_file",
              "Writes a file.",
              null,
              null,
              (ctx, in) -> {
                writes.add(in);
                return Json.nodes().stringNode("written");
              });
      coder =
          baton.defineAgent(
              "coder",
              InlinePrompt.builder()
                  .model("coder-model")
                  .tools(writeFile)
                  .use(ToolApproval.allowing())
                  .build(),
              AgentOptions.builder().sessionStore(schema.open()).build());
      orchestrator =
          baton.defineAgent(
              "orchestrator",
              InlinePrompt.builder()
                  .model("orch")
                  .use(
                      Agents.builder()
                          .agents(coder.ref())
                          .async(background)
                          .forwardInterrupts(true)
                          .build())
                  .build(),
              AgentOptions.builder().sessionStore(schema.open()).build());
    }

    AgentOutput run(AgentInput input, AgentInit init) {
      return orchestrator.run(baton.context(), input, init, StreamCallback.discard());
    }

    /** The coder's task row once it has settled. */
    SessionSnapshot settle(String taskId) {
      return coder.snapshots().waitFor(taskId.substring("coder:".length()));
    }

    /** The output of the latest tool response with this ref the orchestrator's model was sent. */
    JsonNode toolOutput(String ref) {
      @Nullable JsonNode output = null;
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

  private static ModelResponse calls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  private static ToolRequestPart writeCall() {
    return Part.toolRequest("write_file", "w1", Json.object().put("path", PATH));
  }

  private static ToolRequestPart held(AgentOutput output) {
    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    List<ToolRequestPart> interrupts =
        output.message().toolRequests().stream()
            .filter(p -> p.metadata() != null && p.metadata().has("interrupt"))
            .toList();
    assertThat(interrupts).hasSize(1);
    return interrupts.get(0);
  }

  private static Resume approve(ToolRequestPart held) {
    return Resume.restart(
        new ToolRequestPart(
            held.toolRequest(),
            Json.object().set("resumed", Json.object().put("toolApproved", true))));
  }

  @Test
  void aRecreatedOrchestratorRoutesTheAnswerOfASynchronousDelegation() {
    Team before = new Team(false);
    before.orchestratorModel.respond(
        calls(Part.toolRequest("delegate_to_coder", "d1", Json.object().put("task", "Write it"))));
    before.coderModel.respond(calls(writeCall()));
    AgentOutput asked = before.run(AgentInput.text("Build it"), AgentInit.NEW);
    ToolRequestPart held = held(asked);
    assertThat(held.metadata().path("interrupt").path(Agents.SUB_AGENT).path("agent").asString())
        .isEqualTo("coder");
    before.baton.close();

    Team after = new Team(false);
    after.coderModel.respondText("Wrote " + PATH);
    after.orchestratorModel.respondText("The coder wrote it.");
    AgentOutput done =
        after.run(AgentInput.resume(approve(held)), AgentInit.ofSnapshot(asked.snapshotId()));

    assertThat(done.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(done.text()).isEqualTo("The coder wrote it.");
    assertThat(before.writes).isEmpty();
    assertThat(after.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
    assertThat(after.toolOutput("d1").path("response").asString()).isEqualTo("Wrote " + PATH);
  }

  @Test
  void aRecreatedOrchestratorResumesABackgroundTaskThatStoppedOnAQuestion() {
    Team before = new Team(true);
    ObjectNode launch =
        Json.object().put("task", "Write it").put("name", "main").put("background", true);
    before.orchestratorModel.respond(calls(Part.toolRequest("delegate_to_coder", "d1", launch)));
    before.orchestratorModel.respondText("Started.");
    before.coderModel.respond(calls(writeCall()));
    AgentOutput started = before.run(AgentInput.text("Build it"), AgentInit.NEW);
    String taskId = before.toolOutput("d1").path("taskId").asString();
    assertThat(before.settle(taskId).finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    ObjectNode ids = Json.object();
    ids.putArray("taskIds").add(taskId);
    before.orchestratorModel.respond(calls(Part.toolRequest("check_background_tasks", "c1", ids)));
    AgentOutput checked =
        before.run(AgentInput.text("How is it going?"), AgentInit.ofSnapshot(started.snapshotId()));
    ToolRequestPart held = held(checked);
    assertThat(held.metadata().path("interrupt").path(Agents.SUB_AGENT).path("taskId").asString())
        .isEqualTo(taskId);
    before.baton.close();

    Team after = new Team(true);
    after.coderModel.respondText("Wrote " + PATH);
    after.orchestratorModel.respondText("The coder goes on.");
    AgentOutput resumed =
        after.run(AgentInput.resume(approve(held)), AgentInit.ofSnapshot(checked.snapshotId()));

    assertThat(resumed.text()).isEqualTo("The coder goes on.");
    String fresh = after.toolOutput("c1").path("taskId").asString();
    assertThat(fresh).startsWith("coder:").isNotEqualTo(taskId);
    SessionSnapshot settled = after.settle(fresh);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.STOP);
    // The fresh task is in the question's session: the answer went where the question came from.
    assertThat(settled.sessionId())
        .isEqualTo(after.coder.snapshots().get(taskId.substring("coder:".length())).sessionId());
    assertThat(after.writes).extracting(w -> w.path("path").asString()).containsExactly(PATH);
  }
}
