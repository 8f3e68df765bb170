package dev.baton.samples.agentsremote;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider. As the orchestrator it
 * splits the question at "and", gives each part to the researcher in the background, waits for the
 * tasks and combines their answers, calling the same tools a real model would; as the researcher it
 * takes half a second per question. Everything else (HTTP, background tasks, snapshots) is the real
 * thing.
 */
final class DemoModel {
  static final String NAME = "demo/scripted";

  private DemoModel() {}

  static void define(Baton baton) {
    baton.defineModel(
        NAME, ModelInfo.of("Scripted demo model", ModelInfo.Supports.TEXT_ONLY), DemoModel::answer);
  }

  private static ModelResponse answer(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String system =
        request.messages().get(0).role() == Role.SYSTEM ? request.messages().get(0).text() : "";
    Message last = request.messages().get(request.messages().size() - 1);
    if (system.contains(Orchestration.RESEARCHER_SYSTEM)) {
      return research(context, last.text(), stream);
    }
    if (last.role() == Role.USER) {
      List<Part> launches = new ArrayList<>();
      int n = 0;
      for (String part : last.text().split("(?i)\\s+and\\s+|;", -1)) {
        if (!part.isBlank()) {
          launches.add(
              Part.toolRequest(
                  "delegate_to_researcher",
                  "part-" + ++n,
                  Json.object().put("task", part.strip()).put("background", true)));
        }
      }
      return ModelResponse.of(new Message(Role.MODEL, launches), FinishReason.STOP);
    }
    List<ToolResponsePart> results = last.toolResponses();
    if (!results.isEmpty() && results.get(0).toolResponse().name().startsWith("delegate_to_")) {
      List<String> taskIds = new ArrayList<>();
      for (ToolResponsePart result : results) {
        JsonNode output = result.toolResponse().output();
        if (output != null && output.path("taskId").isString()) {
          taskIds.add(output.path("taskId").stringValue());
        }
      }
      return ModelResponse.of(
          new Message(
              Role.MODEL,
              List.of(
                  Part.toolRequest(
                      "wait_for_background_tasks",
                      "wait",
                      Json.object().set("taskIds", Json.toTree(taskIds))))),
          FinishReason.STOP);
    }
    StringBuilder text = new StringBuilder("Here is what the researcher found:");
    for (ToolResponsePart result : results) {
      JsonNode output = result.toolResponse().output();
      for (JsonNode task : output == null ? Json.nodes().arrayNode() : output.path("tasks")) {
        text.append("\n- ")
            .append(task.path("response").asString(task.path("error").asString("(no answer)")));
      }
    }
    stream.onChunk(ModelResponseChunk.text(text.toString()));
    return ModelResponse.of(Message.model(text.toString()), FinishReason.STOP);
  }

  private static ModelResponse research(
      ActionContext context, String question, StreamCallback<ModelResponseChunk> stream) {
    CountDownLatch aborted = new CountDownLatch(1);
    try (var onAbort = context.cancellation().onCancel(aborted::countDown)) {
      aborted.await(500, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.cancellation().throwIfCancelled();
    String answer = "Findings on \"" + question + "\": the key facts fit in a sentence or two.";
    stream.onChunk(ModelResponseChunk.text(answer));
    return ModelResponse.of(Message.model(answer), FinishReason.STOP);
  }
}
