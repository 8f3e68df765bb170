package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the tests of remote sub-agents' forwarded interrupts share: the model's calls, the one
 * wrapped interrupt of an orchestrator's held turn, the caller's answers to it, the orchestrator's
 * turns, and what its model was sent.
 */
final class SubAgentQuestions {
  private SubAgentQuestions() {}

  static ModelResponse calls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  /** The one interrupted call of an interrupted turn. */
  static ToolRequestPart held(AgentOutput output) {
    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.INTERRUPTED);
    List<ToolRequestPart> interrupts =
        output.message().toolRequests().stream()
            .filter(p -> p.metadata() != null && p.metadata().has("interrupt"))
            .toList();
    assertThat(interrupts).hasSize(1);
    return interrupts.get(0);
  }

  /** The routing of a wrapped interrupt. */
  static JsonNode routing(ToolRequestPart held) {
    return held.metadata().path("interrupt").path(Agents.SUB_AGENT);
  }

  /** The sub-agent's snapshot a wrapped interrupt routes to. */
  static String taskSnapshot(ToolRequestPart held) {
    String taskId = routing(held).path("taskId").asString();
    return taskId.substring(taskId.indexOf(':') + 1);
  }

  /** A restart of the held call with {@code data} as its {@code metadata.resumed}. */
  static Resume restart(ToolRequestPart held, JsonNode data) {
    return Resume.restart(
        new ToolRequestPart(held.toolRequest(), Json.object().set("resumed", data)));
  }

  /** ToolApproval's approval of the held call. */
  static Resume approve(ToolRequestPart held) {
    return restart(held, Json.object().put("toolApproved", true));
  }

  /** A response to the held call. */
  static Resume answer(ToolRequestPart held, Object output) {
    return Resume.respond(
        Part.toolResponse(
            held.toolRequest().name(), held.toolRequest().ref(), Json.toTree(output)));
  }

  /** The output of the tool response with this ref in the model's last request. */
  static JsonNode toolOutput(ProgrammableModel model, String ref) {
    List<Message> messages = model.lastRequest().messages();
    return messages.get(messages.size() - 1).toolResponses().stream()
        .filter(p -> ref.equals(p.toolResponse().ref()))
        .findFirst()
        .orElseThrow()
        .toolResponse()
        .output();
  }

  /** A resume turn on the orchestrator's session, from the snapshot given. */
  static AgentOutput resume(
      Agent orchestrator, ActionContext context, String snapshotId, Resume resume) {
    return orchestrator.run(
        context,
        AgentInput.resume(resume),
        AgentInit.ofSnapshot(snapshotId),
        StreamCallback.discard());
  }

  /** A user turn on the orchestrator's session, after the snapshot given. */
  static AgentOutput turn(Agent orchestrator, ActionContext context, String text, String after) {
    return orchestrator.run(
        context, AgentInput.text(text), AgentInit.ofSnapshot(after), StreamCallback.discard());
  }

  /**
   * The input of a call to a background-task tool ({@code check_}, {@code wait_for_}) on a task.
   */
  static ObjectNode taskIds(String taskId) {
    ObjectNode input = Json.object();
    input.putArray("taskIds").add(taskId);
    return input;
  }

  /** The status a turn failed with, whether the agent threw it or reported it. */
  static Status failure(Supplier<AgentOutput> turn) {
    try {
      AgentOutput output = turn.get();
      assertThat(output.isFailed()).as("the turn failed").isTrue();
      return output.error().statusCode();
    } catch (BatonException e) {
      return e.status();
    }
  }
}
