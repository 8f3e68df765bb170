package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.Media;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolChoice;
import dev.baton.ai.ToolDefinition;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.http.DataUrls;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the body of a Messages API request from a {@link ModelRequest}, without {@code model} and
 * {@code stream}, which depend on how the API is reached.
 *
 * <ul>
 *   <li>System messages (text only) become the {@code system} blocks. User messages are {@code
 *       user} turns; tool messages are {@code user} turns of {@code tool_result} blocks; model
 *       messages are {@code assistant} turns. Consecutive turns of one role are merged, so tool
 *       results and a user message that follows them share one turn, as the API wants.
 *   <li>Text and data parts are {@code text} blocks (data as its JSON text; empty text is left out,
 *       which the API rejects). Media of an {@code image/*} type, or a URL without a type, are
 *       {@code image} blocks; {@code application/pdf} media are {@code document} blocks; either
 *       carries a {@code base64} source for a {@code data:} URL and a {@code url} source otherwise.
 *   <li>A tool request is a {@code tool_use} block whose {@code id} is the ref (made up from the
 *       name and position when there is none, as {@code ToolUseIds} says); a tool response is a
 *       {@code tool_result} for that id, its content the output as it is when a string and as JSON
 *       text otherwise, followed by the response's text and media.
 *   <li>A reasoning part that carries a {@code signature} in its metadata is sent back as the
 *       {@code thinking} block it came from, one that carries {@code redactedThinking} as a {@code
 *       redacted_thinking} block; any other reasoning (another provider's, say) is left out, since
 *       the API accepts only thinking it signed. A custom part {@code {"anthropic": <block>}} (a
 *       server tool's block, as responses carry them) is sent as that block.
 *   <li>{@code cache_control} goes on a block whose part's metadata has {@code cacheControl}
 *       ({@code true} for {@code {"type": "ephemeral"}}, or the object to send), on a message's
 *       last block when the message's metadata has it, on a tool whose definition's metadata has
 *       it, and where the {@code cacheControl} config object asks: {@code system}, {@code tools}
 *       and {@code lastMessage} put a breakpoint after the system prompt, the tools and the last
 *       message, and {@code ttl} (such as {@code "1h"}) is added to those. At most four are sent,
 *       and never on a thinking block, as {@code CacheBreakpoints} says.
 *   <li>Tools are {@code {"name", "description", "input_schema"}}; a tool that accepts anything
 *       gets {@code {"type": "object"}}. The request's tool choice is {@code auto}, {@code any}
 *       (required) or {@code none}; the {@code toolChoice} config key overrides it with {@code
 *       "auto"}, {@code "any"}, {@code "none"} or a tool's name, which forces that tool. {@code
 *       parallelToolCalls: false} sets {@code disable_parallel_tool_use}. The choice is sent only
 *       with tools.
 *   <li>{@code max_tokens} is {@code maxOutputTokens} from the config, else the default given. The
 *       config's {@code temperature} is sent as it is, {@code topP} as {@code top_p}, {@code topK}
 *       as {@code top_k} and {@code stopSequences} as {@code stop_sequences}. {@code thinking:
 *       {"budgetTokens": n}} (with {@code "enabled": true} or no {@code enabled}) is {@code
 *       {"type": "enabled", "budget_tokens": n}} (n at least 1024, as the API wants), and raises a
 *       default {@code max_tokens} that is not above the budget to the budget plus the default (a
 *       budget so large that the sum passes the model's output limit makes the API refuse the call:
 *       set {@code maxOutputTokens} then); a {@code thinking} object with a {@code type} is sent as
 *       it is. With thinking on, a tool choice that forces a tool ({@code any} or a named tool) is
 *       {@code INVALID_ARGUMENT}: the API takes only {@code auto} and {@code none} then. Every
 *       other key is copied unchanged, so the API's own options ({@code metadata}, {@code
 *       service_tier}, ...) pass through.
 *   <li>JSON output with a schema and constrained decoding is {@code output_config: {"format":
 *       {"type": "json_schema", "schema"}}}; structured outputs need {@code additionalProperties:
 *       false} on every object, so the schema gets it wherever it says nothing.
 * </ul>
 *
 * <p>{@code $schema} is dropped from every schema. Requests the API cannot express fail with {@code
 * INVALID_ARGUMENT}. Stateless and thread-safe.
 */
public final class MessagesRequestMapper {
  private static final Map<String, String> RENAMED_CONFIG =
      Map.of("topP", "top_p", "topK", "top_k", "stopSequences", "stop_sequences");

  /** Config keys this class turns into something else rather than copying. */
  private static final Set<String> READ_CONFIG =
      Set.of("maxOutputTokens", "thinking", "cacheControl", "toolChoice", "parallelToolCalls");

  /** The smallest thinking budget the API takes. */
  private static final int MIN_THINKING_BUDGET = 1024;

  private MessagesRequestMapper() {}

  /** The request body; {@code defaultMaxTokens} is sent unless the config says otherwise. */
  public static ObjectNode toBody(ModelRequest request, int defaultMaxTokens) {
    ObjectNode config = config(request.config());
    CacheBreakpoints breakpoints =
        new CacheBreakpoints(
            config.path("cacheControl").isObject()
                ? (ObjectNode) config.get("cacheControl")
                : Json.object());
    ObjectNode body = Json.object();
    ObjectNode thinking = thinking(config.get("thinking"));
    body.put("max_tokens", maxTokens(config, thinking, defaultMaxTokens));

    ArrayNode system = Json.nodes().arrayNode();
    ArrayNode messages = Json.nodes().arrayNode();
    ToolUseIds ids = new ToolUseIds();
    for (Message message : request.messages()) {
      if (message.role() == Role.SYSTEM) {
        system.addAll(systemBlocks(message));
      } else {
        addTurn(messages, message, ids);
      }
    }
    if (!system.isEmpty()) {
      breakpoints.fromConfig("system", system);
      body.set("system", system);
    }
    if (!messages.isEmpty()) {
      breakpoints.fromConfig(
          "lastMessage", (ArrayNode) messages.get(messages.size() - 1).get("content"));
    }
    body.set("messages", messages);

    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      request.tools().forEach(tool -> tools.add(tool(tool)));
      breakpoints.fromConfig("tools", tools);
      ObjectNode choice = toolChoice(request.toolChoice(), config);
      String forced = choice == null ? "" : choice.path("type").asString("");
      if (thinking != null
          && !"disabled".equals(thinking.path("type").asString(""))
          && (forced.equals("any") || forced.equals("tool"))) {
        throw BatonException.invalidArgument(
            "Claude with thinking takes only the tool choices auto and none, not %s: turn thinking"
                + " off to force a tool",
            forced.equals("any") ? "required (any)" : "a named tool");
      }
      if (choice != null) {
        body.set("tool_choice", choice);
      }
    }
    if (thinking != null) {
      body.set("thinking", thinking);
    }
    breakpoints.limit(body);
    addOutput(body, request.output());
    for (var entry : config.properties()) {
      if (!READ_CONFIG.contains(entry.getKey())) {
        body.set(
            RENAMED_CONFIG.getOrDefault(entry.getKey(), entry.getKey()),
            entry.getValue().deepCopy());
      }
    }
    return body;
  }

  private static ObjectNode config(@Nullable JsonNode config) {
    if (config == null || config.isNull()) {
      return Json.object();
    }
    if (!config.isObject()) {
      throw BatonException.invalidArgument("the Anthropic model config must be a JSON object");
    }
    return (ObjectNode) config;
  }

  private static int maxTokens(ObjectNode config, @Nullable ObjectNode thinking, int fallback) {
    JsonNode explicit = config.get("maxOutputTokens");
    if (explicit != null && !explicit.isNull()) {
      if (!explicit.canConvertToInt() || explicit.intValue() < 1) {
        throw BatonException.invalidArgument(
            "maxOutputTokens must be a positive integer, got %s", explicit);
      }
      return explicit.intValue();
    }
    // The API wants max_tokens above the thinking budget: a default must not make the call fail.
    int budget = thinking == null ? 0 : thinking.path("budget_tokens").asInt(0);
    return budget >= fallback ? budget + fallback : fallback;
  }

  private static @Nullable ObjectNode thinking(@Nullable JsonNode thinking) {
    if (thinking == null || thinking.isNull()) {
      return null;
    }
    if (!thinking.isObject()) {
      throw BatonException.invalidArgument(
          "thinking must be an object such as {\"budgetTokens\": 2048}");
    }
    if (thinking.has("type")) {
      return (ObjectNode) thinking.deepCopy();
    }
    if (!thinking.path("enabled").asBoolean(true)) {
      return null;
    }
    JsonNode budget = thinking.path("budgetTokens");
    if (!budget.canConvertToInt() || budget.intValue() < MIN_THINKING_BUDGET) {
      throw BatonException.invalidArgument(
          "thinking needs a budgetTokens of at least %d, such as {\"budgetTokens\": 2048}",
          MIN_THINKING_BUDGET);
    }
    return Json.object().put("type", "enabled").put("budget_tokens", budget.intValue());
  }

  private static ArrayNode systemBlocks(Message system) {
    ArrayNode blocks = Json.nodes().arrayNode();
    for (Part part : system.content()) {
      if (!(part instanceof TextPart text)) {
        throw BatonException.invalidArgument(
            "a system message for Claude may hold only text, got a %s",
            part.getClass().getSimpleName());
      }
      if (!text.text().isEmpty()) {
        blocks.add(CacheBreakpoints.fromMetadata(textBlock(text.text()), part.metadata()));
      }
    }
    return CacheBreakpoints.fromMetadata(blocks, system);
  }

  private static void addTurn(ArrayNode messages, Message message, ToolUseIds ids) {
    String role = message.role() == Role.MODEL ? "assistant" : "user";
    if (message.role() == Role.MODEL) {
      ids.nextTurn();
    }
    ArrayNode blocks = Json.nodes().arrayNode();
    for (Part part : message.content()) {
      ObjectNode block =
          switch (message.role()) {
            case MODEL -> assistantBlock(part, ids);
            case TOOL -> toolBlock(part, ids);
            default -> userBlock(part, ids);
          };
      if (block != null) {
        blocks.add(CacheBreakpoints.fromMetadata(block, part.metadata()));
      }
    }
    CacheBreakpoints.fromMetadata(blocks, message);
    if (blocks.isEmpty()) {
      return;
    }
    JsonNode last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
    if (last != null && role.equals(last.path("role").stringValue())) {
      ((ArrayNode) last.get("content")).addAll(blocks);
    } else {
      messages.addObject().put("role", role).set("content", blocks);
    }
  }

  private static @Nullable ObjectNode userBlock(Part part, ToolUseIds ids) {
    return switch (part) {
      case TextPart text -> text.text().isEmpty() ? null : textBlock(text.text());
      case DataPart data -> textBlock(Json.write(data.data()));
      case MediaPart media -> media(media.media());
      case ToolResponsePart response -> toolResult(response.toolResponse(), ids);
      case CustomPart custom -> customBlock(custom);
      case ReasoningPart ignored -> throw misplaced(part, "a user");
      case ToolRequestPart ignored -> throw misplaced(part, "a user");
    };
  }

  private static @Nullable ObjectNode assistantBlock(Part part, ToolUseIds ids) {
    return switch (part) {
      case TextPart text -> text.text().isEmpty() ? null : textBlock(text.text());
      case DataPart data -> textBlock(Json.write(data.data()));
      case ReasoningPart reasoning -> thinkingBlock(reasoning);
      case ToolRequestPart request -> toolUse(request.toolRequest(), ids);
      case CustomPart custom -> customBlock(custom);
      case MediaPart ignored -> throw misplaced(part, "an assistant");
      case ToolResponsePart ignored -> throw misplaced(part, "an assistant");
    };
  }

  private static ObjectNode toolBlock(Part part, ToolUseIds ids) {
    if (!(part instanceof ToolResponsePart response)) {
      throw BatonException.invalidArgument(
          "a tool message may hold only tool responses, got a %s", part.getClass().getSimpleName());
    }
    return toolResult(response.toolResponse(), ids);
  }

  private static BatonException misplaced(Part part, String turn) {
    return BatonException.invalidArgument(
        "%s turn for Claude may not hold a %s", turn, part.getClass().getSimpleName());
  }

  private static ObjectNode textBlock(String text) {
    return Json.object().put("type", "text").put("text", text);
  }

  /** The thinking block a reasoning part came from, or null when it carries none. */
  private static @Nullable ObjectNode thinkingBlock(ReasoningPart reasoning) {
    ObjectNode metadata = reasoning.metadata();
    if (metadata == null) {
      return null;
    }
    if (metadata.path("redactedThinking").isString()) {
      return Json.object()
          .put("type", "redacted_thinking")
          .put("data", metadata.path("redactedThinking").stringValue());
    }
    if (metadata.path("signature").isString()) {
      return Json.object()
          .put("type", "thinking")
          .put("thinking", reasoning.reasoning())
          .put("signature", metadata.path("signature").stringValue());
    }
    return null;
  }

  private static ObjectNode customBlock(CustomPart part) {
    JsonNode block = part.custom().path("anthropic");
    if (!block.isObject() || !block.path("type").isString()) {
      throw BatonException.invalidArgument(
          "a custom part for Claude must be {\"anthropic\": <content block>}");
    }
    return (ObjectNode) block;
  }

  private static ObjectNode toolUse(ToolRequest request, ToolUseIds ids) {
    ObjectNode block = Json.object().put("type", "tool_use");
    block.put("id", ids.ofRequest(request));
    block.put("name", request.name());
    JsonNode input = request.input();
    block.set("input", input == null || input.isNull() ? Json.object() : input);
    return block;
  }

  private static ObjectNode toolResult(ToolResponse response, ToolUseIds ids) {
    ObjectNode block = Json.object().put("type", "tool_result");
    block.put("tool_use_id", ids.ofResponse(response));
    JsonNode output = response.output();
    String outputText =
        output == null || output.isNull()
            ? null
            : output.isString() ? output.stringValue() : Json.write(output);
    if (response.content() == null || response.content().isEmpty()) {
      if (outputText != null) {
        block.put("content", outputText);
      }
      return block;
    }
    ArrayNode content = block.putArray("content");
    if (outputText != null) {
      content.add(textBlock(outputText));
    }
    for (Part part : response.content()) {
      switch (part) {
        case TextPart text -> content.add(textBlock(text.text()));
        case MediaPart media -> content.add(media(media.media()));
        case DataPart data -> content.add(textBlock(Json.write(data.data())));
        default ->
            throw BatonException.invalidArgument(
                "a tool result for Claude may hold text and media, got a %s",
                part.getClass().getSimpleName());
      }
    }
    return block;
  }

  private static ObjectNode media(Media media) {
    String url = media.url();
    boolean inline = url.startsWith("data:");
    String type =
        media.contentType() != null ? media.contentType() : inline ? DataUrls.mediaType(url) : null;
    String blockType;
    if (type == null || type.startsWith("image/")) {
      blockType = "image";
    } else if (type.equals("application/pdf")) {
      blockType = "document";
    } else {
      throw BatonException.invalidArgument(
          "Claude takes images and PDFs as media, not %s; send other text as a text part", type);
    }
    ObjectNode source = Json.object();
    if (!inline) {
      source.put("type", "url").put("url", url);
    } else {
      int comma = url.indexOf(',');
      if (type == null || comma < 0 || !url.substring(0, comma).endsWith(";base64")) {
        throw BatonException.invalidArgument(
            "inline media for Claude must be a base64 data: URL with a content type");
      }
      source.put("type", "base64").put("media_type", type).put("data", url.substring(comma + 1));
    }
    ObjectNode block = Json.object().put("type", blockType);
    block.set("source", source);
    return block;
  }

  private static ObjectNode tool(ToolDefinition tool) {
    ObjectNode out = Json.object().put("name", tool.name());
    if (!tool.description().isEmpty()) {
      out.put("description", tool.description());
    }
    JsonNode schema = Json.withoutField(tool.inputSchema(), "$schema");
    out.set("input_schema", schema.isEmpty() ? Json.object().put("type", "object") : schema);
    return CacheBreakpoints.fromMetadata(out, tool.metadata());
  }

  private static @Nullable ObjectNode toolChoice(@Nullable ToolChoice choice, ObjectNode config) {
    ObjectNode out = null;
    JsonNode named = config.path("toolChoice");
    if (named.isString()) {
      String name = named.stringValue();
      out =
          Set.of("auto", "any", "none").contains(name)
              ? Json.object().put("type", name)
              : Json.object().put("type", "tool").put("name", name);
    } else if (choice != null) {
      String type =
          switch (choice) {
            case AUTO -> "auto";
            case REQUIRED -> "any";
            case NONE -> "none";
          };
      out = Json.object().put("type", type);
    }
    if (!config.path("parallelToolCalls").asBoolean(true)) {
      out = out == null ? Json.object().put("type", "auto") : out;
      out.put("disable_parallel_tool_use", true);
    }
    return out;
  }

  private static void addOutput(ObjectNode body, OutputConfig output) {
    JsonNode schema = output.schema();
    if (!"json".equals(output.format())
        || schema == null
        || !Boolean.TRUE.equals(output.constrained())) {
      return;
    }
    ObjectNode format = Json.object().put("type", "json_schema");
    format.set("schema", closeObjects(Json.withoutField(schema, "$schema")));
    body.putObject("output_config").set("format", format);
  }

  /** The schema with {@code additionalProperties: false} on every object that says nothing. */
  private static JsonNode closeObjects(JsonNode schema) {
    if (schema instanceof ObjectNode object) {
      boolean isObject =
          "object".equals(object.path("type").asString("")) || object.path("properties").isObject();
      if (isObject && !object.has("additionalProperties")) {
        object.put("additionalProperties", false);
      }
      object.properties().forEach(entry -> closeObjects(entry.getValue()));
    } else if (schema instanceof ArrayNode array) {
      array.forEach(MessagesRequestMapper::closeObjects);
    }
    return schema;
  }
}
