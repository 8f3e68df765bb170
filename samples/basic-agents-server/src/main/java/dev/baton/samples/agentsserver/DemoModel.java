package dev.baton.samples.agentsserver;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider: it answers in the part
 * its agent's system prompt gives it, streaming the answer in two chunks, and reports usage as a
 * real model would, so the console has spend to show. The coordinator's part calls the tools a real
 * model would: it hands the question to the researcher in the background, waits for the task, and
 * sums up its findings. A request that contains "slowly" takes ten seconds (or until its run is
 * aborted), so there is time to try {@code abort}.
 */
final class DemoModel {
  static final String NAME = "demo/scripted";

  private static final String DELEGATE = "delegate_to_researcher";
  private static final String WAIT = "wait_for_background_tasks";

  private DemoModel() {}

  static void define(Baton baton) {
    baton.defineModel(
        NAME, ModelInfo.of("Scripted demo model", ModelInfo.Supports.TEXT_ONLY), DemoModel::answer);
  }

  private static ModelResponse answer(
      ActionContext context, ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String question = "";
    for (Message message : request.messages()) {
      if (message.role() == Role.USER) {
        question = message.text();
      }
    }
    if (question.contains("slowly")) {
      CountDownLatch aborted = new CountDownLatch(1);
      try (var onAbort = context.cancellation().onCancel(aborted::countDown)) {
        aborted.await(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      context.cancellation().throwIfCancelled();
    }
    String system =
        request.messages().get(0).role() == Role.SYSTEM ? request.messages().get(0).text() : "";
    ModelResponse response =
        system.contains(ServedAgents.COORDINATOR_SYSTEM)
            ? coordinator(request.messages(), question, stream)
            : streamed(
                system.contains(ServedAgents.RESEARCHER_SYSTEM)
                    ? "(demo) Findings on \""
                    : "(demo) About \"",
                question
                    + "\": "
                    + (system.contains(ServedAgents.RESEARCHER_SYSTEM)
                        ? "the key facts fit in a sentence or two."
                        : "go in spring, pack light, and book the trains early."),
                stream);
    int in = tokens(request.messages());
    int out = tokens(List.of(Objects.requireNonNull(response.message())));
    return response.withUsage(
        GenerationUsage.builder().inputTokens(in).outputTokens(out).totalTokens(in + out).build());
  }

  /**
   * The coordinator's next step: launch the research in the background, then wait for it, then
   * answer from the report the wait returns.
   */
  private static ModelResponse coordinator(
      List<Message> messages, String question, StreamCallback<ModelResponseChunk> stream) {
    Message last = messages.get(messages.size() - 1);
    if (last.role() == Role.USER) {
      return calls(
          tool(
              DELEGATE,
              Json.object().put("task", question).put("background", true).put("name", "research")));
    }
    ToolResponse response = last.toolResponses().get(0).toolResponse();
    JsonNode output = response.output() == null ? Json.object() : response.output();
    if (response.name().equals(DELEGATE) && output.path("taskId").isString()) {
      ObjectNode wait = Json.object().put("timeoutSeconds", 30);
      wait.putArray("taskIds").add(output.path("taskId").asString());
      return calls(tool(WAIT, wait));
    }
    JsonNode report = output.path("tasks").path(0);
    return report.path("status").asString("").equals("completed")
        ? streamed("(demo) The researcher reports: ", report.path("response").asString(""), stream)
        : streamed(
            "(demo) The research did not finish: ", report.path("status").asString("?"), stream);
  }

  private static ModelResponse streamed(
      String opening, String rest, StreamCallback<ModelResponseChunk> stream) {
    stream.onChunk(ModelResponseChunk.text(opening));
    stream.onChunk(ModelResponseChunk.text(rest));
    return ModelResponse.of(Message.model(opening + rest), FinishReason.STOP);
  }

  private static Part tool(String name, ObjectNode input) {
    return Part.toolRequest(name, name, input);
  }

  private static ModelResponse calls(Part... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  /** One token per four characters of the messages, as JSON: text and tool calls alike. */
  private static int tokens(List<Message> messages) {
    return messages.stream().mapToInt(m -> Json.toTree(m.content()).toString().length() / 4).sum();
  }
}
