package dev.baton.plugins.openai;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.http.HttpErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Builds one {@link ModelResponse} from a chat completion, or from the chunks of a streamed one.
 *
 * <p>Only the first choice is read. A streamed {@code delta} and a whole {@code message} are read
 * alike: {@code content} adds text; {@code reasoning_content} or {@code reasoning} (which vLLM,
 * DeepSeek, Ollama and OpenRouter send) adds reasoning; {@code refusal} is kept as the finish
 * message. The calls of a whole message are taken in order; streamed {@code tool_calls} fragments
 * are joined by their {@code index}, the first fragment bringing the id and name and every fragment
 * a piece of the arguments. A fragment without an {@code index} (Gemini's OpenAI-compatible
 * endpoint sends each call whole, unindexed, in a chunk of its own) starts a new call when it
 * brings an id other than the last unindexed call's, or no id but a name other than that call's;
 * otherwise it continues that call. The message holds the reasoning, then the text, then the tool
 * requests in index order (unindexed calls after the indexed ones seen before them, in arrival
 * order). Arguments are parsed as JSON when complete: blank arguments are {@code {}}, and arguments
 * that are not JSON are kept as a JSON string so the tool's input validation reports them. An
 * {@code error} object in a stream fails the call.
 *
 * <p>Not thread-safe: one assembler per call.
 */
final class ChatResponseAssembler {
  private final String provider;
  private final StringBuilder text = new StringBuilder();
  private final StringBuilder reasoning = new StringBuilder();
  private final StringBuilder refusal = new StringBuilder();
  private final TreeMap<Integer, ToolCall> calls = new TreeMap<>();
  private @Nullable ToolCall unindexed;
  private @Nullable String finishReason;
  private @Nullable JsonNode usage;

  ChatResponseAssembler(String provider) {
    this.provider = provider;
  }

  /** Takes in a whole (non-streamed) chat completion. */
  void addCompletion(JsonNode completion) {
    addChunk(completion, "message");
  }

  /** Takes in one streamed chunk and returns the text and reasoning it added, for a chunk. */
  List<Part> addChunk(JsonNode chunk) {
    return addChunk(chunk, "delta");
  }

  private List<Part> addChunk(JsonNode chunk, String field) {
    JsonNode error = chunk.get("error");
    if (error != null && !error.isNull()) {
      throw HttpErrors.fromStreamError(provider, error);
    }
    if (chunk.path("usage").isObject()) {
      usage = chunk.path("usage");
    }
    JsonNode choice = chunk.path("choices").path(0);
    if (!choice.isObject()) {
      return List.of();
    }
    if (choice.path("finish_reason").isString()) {
      finishReason = choice.path("finish_reason").stringValue();
    }
    JsonNode delta = choice.path(field);
    List<Part> fresh = new ArrayList<>();
    String thought = firstString(delta, "reasoning_content", "reasoning");
    if (thought != null && !thought.isEmpty()) {
      reasoning.append(thought);
      fresh.add(Part.reasoning(thought));
    }
    if (delta.path("content").isString() && !delta.path("content").stringValue().isEmpty()) {
      text.append(delta.path("content").stringValue());
      fresh.add(Part.text(delta.path("content").stringValue()));
    }
    if (delta.path("refusal").isString()) {
      refusal.append(delta.path("refusal").stringValue());
    }
    int position = 0;
    for (JsonNode fragment : delta.path("tool_calls")) {
      // A whole message lists each call once, whole, so its position is its index.
      ToolCall call =
          field.equals("message")
              ? calls.computeIfAbsent(position++, i -> new ToolCall())
              : callFor(fragment);
      call.add(fragment);
    }
    return fresh;
  }

  /** The call a streamed fragment belongs to, as the class comment describes. */
  private ToolCall callFor(JsonNode fragment) {
    JsonNode index = fragment.path("index");
    if (index.isIntegralNumber()) {
      return calls.computeIfAbsent(index.intValue(), i -> new ToolCall());
    }
    if (unindexed == null || unindexed.isStartedAnewBy(fragment)) {
      unindexed = new ToolCall();
      calls.put(calls.isEmpty() ? 0 : calls.lastKey() + 1, unindexed);
    }
    return unindexed;
  }

  /** The tool requests assembled so far, in index order. */
  List<Part> toolRequests() {
    List<Part> parts = new ArrayList<>();
    calls.values().forEach(call -> parts.add(call.toPart()));
    return parts;
  }

  /** The response, as far as it arrived. */
  ModelResponse build(double latencyMs) {
    List<Part> content = new ArrayList<>();
    if (!reasoning.isEmpty()) {
      content.add(new ReasoningPart(reasoning.toString(), null));
    }
    if (!text.isEmpty()) {
      content.add(new TextPart(text.toString(), null));
    }
    content.addAll(toolRequests());
    FinishReason reason = finishReason(finishReason);
    String message = null;
    if (!refusal.isEmpty()) {
      reason = FinishReason.BLOCKED;
      message = refusal.toString();
    }
    return ModelResponse.of(new Message(Role.MODEL, content), reason)
        .withFinish(reason, message)
        .withLatencyMs(latencyMs)
        .withUsage(usage(usage));
  }

  /**
   * {@code stop} and {@code tool_calls} (and the older {@code function_call}) are {@link
   * FinishReason#STOP}; {@code length} is {@link FinishReason#LENGTH}; {@code content_filter} is
   * {@link FinishReason#BLOCKED}; a missing or unknown reason is {@link FinishReason#UNKNOWN}.
   */
  static FinishReason finishReason(@Nullable String reason) {
    if (reason == null) {
      return FinishReason.UNKNOWN;
    }
    return switch (reason) {
      case "stop", "tool_calls", "function_call" -> FinishReason.STOP;
      case "length" -> FinishReason.LENGTH;
      case "content_filter" -> FinishReason.BLOCKED;
      default -> FinishReason.UNKNOWN;
    };
  }

  /**
   * {@code usage} as Baton's: {@code prompt_tokens} is the input, {@code
   * prompt_tokens_details.cached_tokens} the cached input, {@code
   * completion_tokens_details.reasoning_tokens} the thoughts, and the output is {@code
   * completion_tokens} less the reasoning tokens, because OpenAI counts reasoning as completion
   * while Baton keeps thoughts apart from output. Null when there is no usage object.
   */
  static @Nullable GenerationUsage usage(@Nullable JsonNode usage) {
    if (usage == null || !usage.isObject()) {
      return null;
    }
    Integer completion = count(usage.path("completion_tokens"));
    Integer thoughts = count(usage.path("completion_tokens_details").path("reasoning_tokens"));
    Integer output = completion;
    if (completion != null && thoughts != null) {
      output = completion - thoughts;
    }
    return GenerationUsage.builder()
        .inputTokens(count(usage.path("prompt_tokens")))
        .outputTokens(output)
        .thoughtsTokens(thoughts)
        .cachedContentTokens(count(usage.path("prompt_tokens_details").path("cached_tokens")))
        .totalTokens(count(usage.path("total_tokens")))
        .build();
  }

  private static @Nullable Integer count(JsonNode value) {
    return value.isIntegralNumber() ? value.intValue() : null;
  }

  /** The text of a string node, or null when it is not a string or is empty. */
  private static @Nullable String nonEmpty(JsonNode node) {
    return node.isString() && !node.stringValue().isEmpty() ? node.stringValue() : null;
  }

  private static @Nullable String firstString(JsonNode node, String... fields) {
    for (String field : fields) {
      if (node.path(field).isString()) {
        return node.path(field).stringValue();
      }
    }
    return null;
  }

  /** One tool call, put together from its fragments. */
  private static final class ToolCall {
    private @Nullable String id;
    private String name = "";
    private final StringBuilder arguments = new StringBuilder();

    void add(JsonNode fragment) {
      String newId = nonEmpty(fragment.path("id"));
      if (newId != null) {
        id = newId;
      }
      JsonNode function = fragment.path("function");
      // The name comes whole in the first fragment; some servers repeat it in later ones.
      String newName = nonEmpty(function.path("name"));
      if (name.isEmpty() && newName != null) {
        name = newName;
      }
      if (function.path("arguments").isString()) {
        arguments.append(function.path("arguments").stringValue());
      }
    }

    /** Whether an unindexed fragment names a call other than this one. */
    boolean isStartedAnewBy(JsonNode fragment) {
      String newId = nonEmpty(fragment.path("id"));
      if (newId != null) {
        return !newId.equals(id);
      }
      String newName = nonEmpty(fragment.path("function").path("name"));
      return newName != null && !newName.equals(name);
    }

    ToolRequestPart toPart() {
      return new ToolRequestPart(ToolRequest.of(name, input()).withRef(id), null);
    }

    private JsonNode input() {
      String json = arguments.toString();
      if (json.isBlank()) {
        return Json.object();
      }
      try {
        return Json.parse(json);
      } catch (BatonException notJson) {
        return Json.nodes().stringNode(json);
      }
    }
  }
}
