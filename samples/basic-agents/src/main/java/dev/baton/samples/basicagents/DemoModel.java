package dev.baton.samples.basicagents;

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
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A scripted stand-in for a real model, so the sample runs with no provider: it plays each agent's
 * part by looking at the agent's system prompt and the last message, and calls the same tools a
 * real model would. Everything else (delegation, artifacts, sessions, streaming) is the real
 * runtime.
 */
final class DemoModel {
  static final String NAME = "demo/scripted";

  private DemoModel() {}

  static void define(Baton baton) {
    baton.defineModel(
        NAME,
        new ModelInfo("Scripted demo model", ModelInfo.Supports.TEXT_ONLY, null),
        DemoModel::answer);
  }

  /** The scripted answer, with usage estimated as a real model would report it. */
  private static ModelResponse answer(
      dev.baton.core.ActionContext context,
      ModelRequest request,
      StreamCallback<ModelResponseChunk> stream) {
    ModelResponse response = play(request, stream);
    int in = tokens(request.messages());
    int out = tokens(List.of(Objects.requireNonNull(response.message())));
    return response.withUsage(
        GenerationUsage.builder().inputTokens(in).outputTokens(out).totalTokens(in + out).build());
  }

  /** One token per four characters of the messages, as JSON: text and tool calls alike. */
  private static int tokens(List<Message> messages) {
    return messages.stream().mapToInt(m -> Json.toTree(m.content()).toString().length() / 4).sum();
  }

  private static ModelResponse play(
      ModelRequest request, StreamCallback<ModelResponseChunk> stream) {
    String system =
        request.messages().get(0).role() == Role.SYSTEM ? request.messages().get(0).text() : "";
    Message last = request.messages().get(request.messages().size() - 1);
    String question = lastUserText(request);
    if (system.contains(Team.COORDINATOR_SYSTEM)) {
      return coordinator(last, question, stream);
    }
    boolean researcher = system.contains(Team.RESEARCHER_SYSTEM);
    if (last.role() == Role.USER) {
      return researcher
          ? write(
              "notes.md",
              "# Notes\n- "
                  + question
                  + "\n- Key idea: split the problem in half each step.\n- Cost: O(log n) comparisons.")
          : write(
              "example.py",
              "def search(items, target):\n    lo, hi = 0, len(items) - 1\n    while lo <= hi:\n        mid = (lo + hi) // 2\n        if items[mid] == target:\n            return mid\n        if items[mid] < target:\n            lo = mid + 1\n        else:\n            hi = mid - 1\n    return -1\n");
    }
    return text(researcher ? "My findings are in notes.md." : "The example is in example.py.");
  }

  private static ModelResponse coordinator(
      Message last, String question, StreamCallback<ModelResponseChunk> stream) {
    if (last.role() == Role.USER) {
      return calls(
          Part.toolRequest(
              "delegate_to_researcher",
              "research",
              Json.object().put("task", "Find the key facts about: " + question)),
          Part.toolRequest(
              "delegate_to_coder",
              "code",
              Json.object().put("task", "Write a short example of: " + question)));
    }
    List<String> artifacts = new ArrayList<>();
    String notes = "";
    for (ToolResponsePart response : last.toolResponses()) {
      JsonNode output = response.toolResponse().output();
      if (output == null) {
        continue;
      }
      output.path("artifacts").forEach(a -> artifacts.add(a.path("name").asString()));
      if (response.toolResponse().name().equals("read_artifact")) {
        notes = output.path("content").asString();
      }
    }
    if (!artifacts.isEmpty()) {
      return calls(
          Part.toolRequest("read_artifact", "read", Json.object().put("name", artifacts.get(0))));
    }
    String answer =
        "Here is what the team found. "
            + notes
                .lines()
                .filter(l -> l.startsWith("- "))
                .map(l -> l.substring(2))
                .reduce((a, b) -> a + " " + b)
                .orElse("")
            + " The coder's example is saved in the session as an artifact.";
    for (String word : answer.split("(?<= )")) {
      stream.onChunk(ModelResponseChunk.text(word));
    }
    return text(answer);
  }

  private static String lastUserText(ModelRequest request) {
    List<Message> messages = request.messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.USER && !messages.get(i).text().isEmpty()) {
        return messages.get(i).text().strip();
      }
    }
    return "";
  }

  private static ModelResponse write(String name, String content) {
    return calls(
        Part.toolRequest(
            "write_artifact", "write", Json.object().put("name", name).put("content", content)));
  }

  private static ModelResponse calls(Part... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  private static ModelResponse text(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }
}
