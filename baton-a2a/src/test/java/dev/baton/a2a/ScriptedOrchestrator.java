package dev.baton.a2a;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An orchestrator that delegates to one sub-agent through the Agents middleware, its model playing
 * a script: each step answers the model's next request from the output of the tool call the step
 * before it made, and every tool output the model was sent is kept, in order, for the assertions.
 */
final class ScriptedOrchestrator {
  private final Deque<Function<@Nullable JsonNode, ModelResponse>> script =
      new ConcurrentLinkedDeque<>();
  private final List<JsonNode> outputs = Collections.synchronizedList(new ArrayList<>());
  private final Agent agent;

  ScriptedOrchestrator(Baton baton, Agent subAgent) {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "orch");
    model.fallback(
        request -> {
          JsonNode output = toolOutput(request);
          if (output != null) {
            outputs.add(output);
          }
          return Objects.requireNonNull(script.poll(), "script used up").apply(output);
        });
    agent =
        baton.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .use(Agents.builder().agents(subAgent.ref()).async(true).build())
                .maxTurns(10)
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  /** The model delegates {@code task} and waits for its answer. */
  ScriptedOrchestrator delegate(String task) {
    return then(previous -> call("delegate_to_researcher", Json.object().put("task", task)));
  }

  /** The model delegates {@code task} in the background. */
  ScriptedOrchestrator delegateInBackground(String task) {
    return then(
        previous ->
            call(
                "delegate_to_researcher", Json.object().put("task", task).put("background", true)));
  }

  /** The model continues the task the previous output names, with {@code instructions}. */
  ScriptedOrchestrator continueTask(String instructions) {
    return then(
        previous ->
            call(
                "continue_task",
                Json.object().put("taskId", taskId(previous)).put("instructions", instructions)));
  }

  /**
   * The model calls {@code tool} (a background task tool) on the task the previous output names.
   */
  ScriptedOrchestrator onTask(String tool) {
    return then(previous -> call(tool, taskIds(previous)));
  }

  /** The model's next step, from the previous tool output (null before any). */
  ScriptedOrchestrator then(Function<@Nullable JsonNode, ModelResponse> step) {
    script.add(step);
    return this;
  }

  /** Runs the orchestrator on {@code prompt}; after the script's steps its model says "done". */
  AgentOutput run(String prompt) {
    then(previous -> ModelResponse.of(Message.model("done"), FinishReason.STOP));
    return agent.runText(prompt);
  }

  /** The {@code index}th tool output the model was sent. */
  JsonNode output(int index) {
    return outputs.get(index);
  }

  /** The task a tool output names (a delegation's or a continuation's). */
  static String taskId(@Nullable JsonNode output) {
    return Objects.requireNonNull(output, "no task launched yet").get("taskId").stringValue();
  }

  /** {@code {"taskIds": [<the task the output names>]}}: a background task tool's input. */
  static JsonNode taskIds(@Nullable JsonNode output) {
    return Json.object().set("taskIds", Json.toTree(List.of(taskId(output))));
  }

  static ModelResponse call(String tool, JsonNode input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", input))), FinishReason.STOP);
  }

  /** The output of the tool response the model was just sent, or null when it was sent none. */
  private static @Nullable JsonNode toolOutput(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return last.toolResponses().isEmpty()
        ? null
        : last.toolResponses().get(0).toolResponse().output();
  }
}
