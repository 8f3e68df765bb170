package dev.baton.middleware.agents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the tests of background delegation share: a server-managed sub-agent whose model calls the
 * test gates, an orchestrator whose model is scripted step by step from the requests it gets (so a
 * step can name the task a launch returned), and readers of the tool results.
 */
abstract class BackgroundTestSupport extends AgentsMiddlewareTestSupport {
  final InMemorySessionStore subStore = InMemorySessionStore.create();
  final ProgrammableModel researcherModel = model("researcher-model");
  private final Deque<Function<ModelRequest, ModelResponse>> steps = new ArrayDeque<>();

  BackgroundTestSupport() {
    orchestratorModel.fallback(
        request -> {
          Function<ModelRequest, ModelResponse> step = steps.poll();
          if (step == null) {
            throw new AssertionError("the orchestrator's model has no step scripted");
          }
          return step.apply(request);
        });
  }

  static final Duration HEARTBEAT_TIMEOUT = Duration.ofMillis(400);

  /** The options of a server-managed sub-agent with short heartbeats. */
  AgentOptions.Builder serverManaged(SessionStore store) {
    return AgentOptions.builder()
        .sessionStore(store)
        .heartbeat(Duration.ofMillis(50), HEARTBEAT_TIMEOUT)
        .waitPollInterval(Duration.ofMillis(10));
  }

  Agent researcher() {
    return subAgent("researcher", "researcher-model", serverManaged(subStore).build());
  }

  /** Scripts the orchestrator's next model calls, each computed from the request it gets. */
  @SafeVarargs
  final void script(Function<ModelRequest, ModelResponse>... next) {
    // One by one: handing the array on to another varargs method is what javac warns of.
    for (Function<ModelRequest, ModelResponse> step : next) {
      steps.add(step);
    }
  }

  static Function<ModelRequest, ModelResponse> answer(String text) {
    return request -> reply(text);
  }

  static ToolRequestPart call(String tool, String ref, ObjectNode input) {
    return Part.toolRequest(tool, ref, input);
  }

  static ToolRequestPart launch(String tool, String ref, String task) {
    return call(tool, ref, Json.object().put("task", task).put("background", true));
  }

  static ObjectNode ids(String... taskIds) {
    ObjectNode input = Json.object();
    ArrayNode list = input.putArray("taskIds");
    for (String id : taskIds) {
      list.add(id);
    }
    return input;
  }

  /** The output of the tool response with this ref in a request's conversation. */
  static JsonNode output(ModelRequest request, String ref) {
    for (Message message : request.messages()) {
      for (ToolResponsePart part : message.toolResponses()) {
        if (ref.equals(part.toolResponse().ref())) {
          return part.toolResponse().output();
        }
      }
    }
    throw new AssertionError("no tool response " + ref + " in the request");
  }

  /** The task ID the tool response with this ref returned. */
  static String taskId(ModelRequest request, String ref) {
    String id = output(request, ref).path("taskId").asString();
    assertThat(id).as("the task ID in tool response " + ref).isNotEmpty();
    return id;
  }

  /** The output of the tool response with this ref that the orchestrator's model was sent last. */
  JsonNode last(String ref) {
    return output(orchestratorModel.lastRequest(), ref);
  }

  /** The report on one task in a check, wait or abort result. */
  static JsonNode report(JsonNode reports, String taskId) {
    for (JsonNode report : reports.path("tasks")) {
      if (taskId.equals(report.path("taskId").asString())) {
        return report;
      }
    }
    throw new AssertionError("no report on " + taskId + " in " + reports);
  }

  SessionSnapshot row(Agent agent, String taskId) {
    return agent.getSnapshot(taskId.substring(taskId.indexOf(':') + 1));
  }

  static ObjectNode task(String taskId) {
    return Json.object().put("taskId", taskId);
  }

  static ObjectNode task(String taskId, String instructions) {
    return task(taskId).put("instructions", instructions);
  }

  /** The texts of the messages in a task's row. */
  List<String> history(Agent agent, String taskId) {
    return row(agent, taskId).state().messages().stream().map(Message::text).toList();
  }
}
