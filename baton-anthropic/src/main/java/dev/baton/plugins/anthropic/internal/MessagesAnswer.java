package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.CustomPart;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One Messages API answer, read whole or put together from its stream events, as the content blocks
 * the API would have sent whole.
 *
 * <p>A stream is read event by event, by each event's {@code type}: {@code message_start} brings
 * the usage of the input; {@code content_block_start} opens the block at its {@code index}; {@code
 * content_block_delta} adds to it ({@code text_delta} text, {@code thinking_delta} thinking, {@code
 * signature_delta} the thinking's signature, {@code input_json_delta} a piece of a tool's input as
 * JSON text; other deltas are ignored); {@code message_delta} brings the stop reason and the usage
 * so far; {@code message_stop} ends the answer; {@code ping} is skipped; {@code error} fails the
 * call as {@link MessagesErrors#fromStreamError} says. A delta for a block that never started opens
 * a text block. Tool input is parsed when its block is built: blank input is {@code {}}, and input
 * that is not JSON is kept as a JSON string so the tool's input validation reports it.
 *
 * <p>Blocks become parts as {@link #part} says. Not thread-safe: one per call.
 */
final class MessagesAnswer {
  private final String provider;
  private final TreeMap<Integer, Block> blocks = new TreeMap<>();
  private final ObjectNode usage = Json.object();
  private @Nullable String stopReason;
  private boolean stopped;

  MessagesAnswer(String provider) {
    this.provider = provider;
  }

  /** Takes in a whole (non-streamed) message. */
  void addMessage(JsonNode message) {
    int index = 0;
    for (JsonNode block : message.path("content")) {
      blocks.put(index++, new Block(block));
    }
    readStop(message);
    mergeUsage(message.path("usage"));
    stopped = true;
  }

  /** Takes in one stream event and returns the parts it adds, for a chunk. */
  List<Part> addEvent(JsonNode event) {
    return switch (event.path("type").asString("")) {
      case "message_start" -> {
        mergeUsage(event.path("message").path("usage"));
        yield List.of();
      }
      case "content_block_start" -> {
        Block block = new Block(event.path("content_block"));
        blocks.put(event.path("index").asInt(blocks.size()), block);
        yield block.text.isEmpty() ? List.of() : List.of(Part.text(block.text.toString()));
      }
      case "content_block_delta" -> blockAt(event).add(event.path("delta"));
      case "content_block_stop" -> {
        Block block = blockAt(event);
        // A tool's input is whole only now: the request goes out as one chunk.
        yield block.type().equals("tool_use") ? List.of(part(block.toWire())) : List.of();
      }
      case "message_delta" -> {
        readStop(event.path("delta"));
        mergeUsage(event.path("usage"));
        yield List.of();
      }
      case "message_stop" -> {
        stopped = true;
        yield List.of();
      }
      case "error" -> throw MessagesErrors.fromStreamError(provider, event.path("error"));
      default -> List.of(); // ping, and event types the API may add
    };
  }

  /** Whether the answer is complete: a whole message, or a stream up to {@code message_stop}. */
  boolean stopped() {
    return stopped;
  }

  @Nullable String stopReason() {
    return stopReason;
  }

  /** The content blocks as the API sends them whole, to send back or to map to parts. */
  ArrayNode content() {
    ArrayNode content = Json.nodes().arrayNode();
    blocks.values().forEach(block -> content.add(block.toWire()));
    return content;
  }

  @Nullable GenerationUsage usage() {
    return usage(usage);
  }

  private Block blockAt(JsonNode event) {
    return blocks.computeIfAbsent(
        event.path("index").asInt(0),
        i -> new Block(Json.object().put("type", "text").put("text", "")));
  }

  private void readStop(JsonNode holder) {
    if (holder.path("stop_reason").isString()) {
      stopReason = holder.path("stop_reason").stringValue();
    }
  }

  /** Later counts replace earlier ones: {@code message_delta}'s usage is cumulative. */
  private void mergeUsage(JsonNode more) {
    if (more.isObject()) {
      more.properties().forEach(entry -> usage.set(entry.getKey(), entry.getValue().deepCopy()));
    }
  }

  /**
   * A content block as a part: {@code text} a text part; {@code thinking} a reasoning part with the
   * {@code signature} in its metadata (none when the block has none); {@code redacted_thinking} an
   * empty reasoning part with the encrypted {@code data} as {@code redactedThinking} in its
   * metadata; {@code tool_use} a tool request whose ref is the block's id; any other block (a
   * server tool's call or result) a custom part {@code {"anthropic": <block>}}, sent back as it
   * came.
   */
  static Part part(JsonNode block) {
    return switch (block.path("type").asString("")) {
      case "text" -> new TextPart(block.path("text").asString(""), null);
      case "thinking" -> {
        // Thinking without a signature (a stream cut short) cannot go back: the API checks it.
        String signature = block.path("signature").asString("");
        yield new ReasoningPart(
            block.path("thinking").asString(""),
            signature.isEmpty() ? null : Json.object().put("signature", signature));
      }
      case "redacted_thinking" ->
          new ReasoningPart(
              "", Json.object().put("redactedThinking", block.path("data").asString("")));
      case "tool_use" ->
          new ToolRequestPart(
              ToolRequest.of(block.path("name").asString(""), block.path("input"))
                  .withRef(block.path("id").asString(null)),
              null);
      default -> new CustomPart(Json.object().set("anthropic", block), null);
    };
  }

  /**
   * {@code end_turn}, {@code stop_sequence} and {@code tool_use} are {@link FinishReason#STOP} (the
   * tool loop runs the requested tools); {@code max_tokens} and {@code
   * model_context_window_exceeded} are {@link FinishReason#LENGTH}; {@code refusal} is {@link
   * FinishReason#BLOCKED}; {@code pause_turn} (left only when its continuations ran out) is {@link
   * FinishReason#OTHER}; anything else is {@link FinishReason#UNKNOWN}.
   */
  static FinishReason finishReason(@Nullable String reason) {
    if (reason == null) {
      return FinishReason.UNKNOWN;
    }
    return switch (reason) {
      case "end_turn", "stop_sequence", "tool_use" -> FinishReason.STOP;
      case "max_tokens", "model_context_window_exceeded" -> FinishReason.LENGTH;
      case "refusal" -> FinishReason.BLOCKED;
      case "pause_turn" -> FinishReason.OTHER;
      default -> FinishReason.UNKNOWN;
    };
  }

  /**
   * The API's usage as Baton's. The API counts input in three parts: {@code input_tokens} (after
   * the last cache breakpoint), {@code cache_creation_input_tokens} (written to the cache) and
   * {@code cache_read_input_tokens} (read from it). Input tokens are their sum, so that a budget
   * counts every token the call was billed for; cached input tokens are those read from the cache;
   * the tokens written to it are also reported as {@code custom.cacheCreationInputTokens}. Output
   * tokens are {@code output_tokens}, which include thinking: the API does not count thinking
   * apart. Total tokens are input plus output. Null when nothing was reported.
   */
  static @Nullable GenerationUsage usage(JsonNode usage) {
    Integer input = count(usage.path("input_tokens"));
    Integer written = count(usage.path("cache_creation_input_tokens"));
    Integer read = count(usage.path("cache_read_input_tokens"));
    Integer output = count(usage.path("output_tokens"));
    if (input == null && written == null && read == null && output == null) {
      return null;
    }
    int allInput = orZero(input) + orZero(written) + orZero(read);
    return GenerationUsage.builder()
        .inputTokens(allInput)
        .outputTokens(output)
        .cachedContentTokens(read)
        .totalTokens(allInput + orZero(output))
        .custom(written == null ? null : Map.of("cacheCreationInputTokens", (double) written))
        .build();
  }

  private static @Nullable Integer count(JsonNode value) {
    return value.isIntegralNumber() ? value.intValue() : null;
  }

  private static int orZero(@Nullable Integer value) {
    return value == null ? 0 : value;
  }

  /** One content block, as it started and with what its deltas added. */
  private static final class Block {
    private final ObjectNode start;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final StringBuilder inputJson = new StringBuilder();
    private final StringBuilder signature = new StringBuilder();

    Block(JsonNode start) {
      this.start = start.isObject() ? (ObjectNode) start.deepCopy() : Json.object();
      text.append(this.start.path("text").asString(""));
      thinking.append(this.start.path("thinking").asString(""));
      signature.append(this.start.path("signature").asString(""));
    }

    String type() {
      return start.path("type").asString("");
    }

    List<Part> add(JsonNode delta) {
      List<Part> fresh = new ArrayList<>(1);
      switch (delta.path("type").asString("")) {
        case "text_delta" -> {
          String more = delta.path("text").asString("");
          text.append(more);
          if (!more.isEmpty()) {
            fresh.add(Part.text(more));
          }
        }
        case "thinking_delta" -> {
          String more = delta.path("thinking").asString("");
          thinking.append(more);
          if (!more.isEmpty()) {
            fresh.add(Part.reasoning(more));
          }
        }
        case "signature_delta" -> signature.append(delta.path("signature").asString(""));
        case "input_json_delta" -> inputJson.append(delta.path("partial_json").asString(""));
        default -> {
          // citations_delta and deltas the API may add: the block keeps what it has.
        }
      }
      return fresh;
    }

    ObjectNode toWire() {
      ObjectNode block = start.deepCopy();
      switch (type()) {
        case "text" -> block.put("text", text.toString());
        case "thinking" ->
            block.put("thinking", thinking.toString()).put("signature", signature.toString());
        case "tool_use", "server_tool_use" -> {
          if (!inputJson.isEmpty() || !block.path("input").isObject()) {
            block.set("input", input(inputJson.toString()));
          }
        }
        default -> {
          // Other blocks (redacted thinking, server tool results) come whole at their start.
        }
      }
      return block;
    }

    private static JsonNode input(String json) {
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
