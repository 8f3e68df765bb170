package dev.baton.middleware.agents;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.testing.FakeTime;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * What the tests of the {@link Agents} middleware share: a fresh experimental {@link Baton} with
 * the orchestrator's programmable model "orch" per test, agent builders, scripted tool calls, and
 * readers of what the orchestrator's model was sent.
 */
abstract class AgentsMiddlewareTestSupport {
  final FakeTime time = FakeTime.create();
  final Baton baton =
      onFakeTime()
          ? Baton.builder().experimental().clock(time).scheduler(time.scheduler()).build()
          : Baton.builder().experimental().build();
  final ProgrammableModel orchestratorModel = ProgrammableModel.define(baton.registry(), "orch");

  /**
   * Whether the instance reads its clock from {@link #time} and runs its timers on its scheduler,
   * so sub-agents' heartbeats beat and their rows expire only when a test advances the time. Called
   * while the instance is built: return a constant.
   */
  boolean onFakeTime() {
    return false;
  }

  ProgrammableModel model(String name) {
    return ProgrammableModel.define(baton.registry(), name);
  }

  static ModelResponse calls(ToolRequestPart... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  static ToolRequestPart delegate(String tool, String ref, String task) {
    return Part.toolRequest(tool, ref, Json.object().put("task", task));
  }

  static ModelResponse reply(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }

  /** The outputs of the tool responses the orchestrator's model was sent last. */
  Map<String, JsonNode> toolOutputs(ProgrammableModel model) {
    List<Message> messages = model.lastRequest().messages();
    return messages.get(messages.size() - 1).toolResponses().stream()
        .collect(Collectors.toMap(p -> p.toolResponse().ref(), p -> p.toolResponse().output()));
  }

  Agent orchestrator(AgentOptions options, Middleware... use) {
    return baton.defineAgent(
        "orchestrator",
        InlinePrompt.builder().model("orch").system("Delegate.").use(use).build(),
        options);
  }

  Agent subAgent(String name, String modelName, AgentOptions options, Middleware... use) {
    return baton.defineAgent(
        name,
        InlinePrompt.builder().model(modelName).system("You are " + name + ".").use(use).build(),
        options);
  }

  static String systemText(ModelRequest request) {
    return request.messages().get(0).content().stream()
        .map(p -> ((TextPart) p).text())
        .collect(Collectors.joining("\n---\n"));
  }
}
