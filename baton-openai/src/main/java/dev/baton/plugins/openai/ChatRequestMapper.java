package dev.baton.plugins.openai;

import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.Media;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolDefinition;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.http.DataUrls;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the JSON body of a chat completions request from a {@link ModelRequest}.
 *
 * <ul>
 *   <li>A system message is {@code {"role": "system", "content": <text>}}. A user message whose
 *       content is one text part is {@code {"role": "user", "content": <text>}}; any other user
 *       message is a list of content parts: {@code text}, {@code image_url} for images (and for a
 *       URL without a type), {@code input_audio} for WAV or MP3 {@code data:} URLs, and {@code
 *       file} for other {@code data:} URLs (such as PDFs). Data parts are sent as their JSON text.
 *   <li>A model message is {@code {"role": "assistant", "content": <text or null>, "tool_calls":
 *       [...]}}, each call {@code {"id": <ref>, "type": "function", "function": {"name",
 *       "arguments": <input as JSON text>}}}. Reasoning parts are not sent back: the API has no
 *       field for them.
 *   <li>Each tool response is its own {@code {"role": "tool", "tool_call_id": <ref>, "content":
 *       <output>}} message; a string output is sent as it is, anything else as JSON text. A request
 *       or response without a ref uses the tool name as its id on both sides.
 *   <li>Tools are {@code {"type": "function", "function": {"name", "description", "parameters"}}};
 *       a tool that accepts anything gets no {@code parameters}. The tool choice is {@code
 *       tool_choice} ({@code auto}, {@code required}, {@code none}).
 *   <li>Config: {@code temperature} as it is, {@code maxOutputTokens} under the plugin's
 *       {@linkplain OpenAICompatible.Builder#maxTokensField max tokens field} ({@code
 *       max_completion_tokens} for OpenAI itself, {@code max_tokens} for other servers), {@code
 *       topP} as {@code top_p}, {@code topK} as {@code top_k} (a vLLM, llama.cpp and Ollama
 *       extension), {@code stopSequences} as {@code stop}, and {@code parallelToolCalls} as {@code
 *       parallel_tool_calls} (sent only with tools, which the API requires). Every other key is
 *       copied unchanged, so server options such as {@code seed}, {@code reasoning_effort} or
 *       {@code max_tokens} pass through.
 *   <li>JSON output with a schema and constrained decoding is {@code response_format: {"type":
 *       "json_schema", "json_schema": {"name": "output", "schema", "strict"}}}; JSON output without
 *       one is {@code {"type": "json_object"}}.
 *   <li>A streaming request adds {@code stream: true} and {@code stream_options: {"include_usage":
 *       true}}, so the last event reports usage.
 * </ul>
 *
 * <p>The {@code $schema} keyword is dropped from every schema sent. Requests the API cannot express
 * fail with {@code INVALID_ARGUMENT}.
 */
final class ChatRequestMapper {
  private static final Map<String, String> RENAMED_CONFIG =
      Map.of(
          "topP", "top_p",
          "topK", "top_k",
          "stopSequences", "stop",
          "parallelToolCalls", "parallel_tool_calls");

  private ChatRequestMapper() {}

  static ObjectNode toRequest(
      String model,
      ModelRequest request,
      boolean stream,
      boolean strictJsonSchema,
      String maxTokensField) {
    ObjectNode body = Json.object();
    body.put("model", model);
    ArrayNode messages = body.putArray("messages");
    request.messages().forEach(message -> addMessage(messages, message));
    if (!request.tools().isEmpty()) {
      ArrayNode tools = body.putArray("tools");
      request.tools().forEach(tool -> tools.add(tool(tool)));
    }
    if (request.toolChoice() != null) {
      body.put("tool_choice", request.toolChoice().wireName());
    }
    addConfig(body, request.config(), !request.tools().isEmpty(), maxTokensField);
    addOutput(body, request.output(), strictJsonSchema);
    if (stream) {
      body.put("stream", true);
      body.putObject("stream_options").put("include_usage", true);
    }
    return body;
  }

  private static void addMessage(ArrayNode messages, Message message) {
    switch (message.role()) {
      case SYSTEM -> {
        requireText(message);
        messages.addObject().put("role", "system").put("content", message.text());
      }
      case USER -> messages.add(userMessage(message));
      case MODEL -> messages.add(assistantMessage(message));
      case TOOL -> {
        for (Part part : message.content()) {
          if (!(part instanceof ToolResponsePart response)) {
            throw BatonException.invalidArgument(
                "a tool message may hold only tool responses, got a %s",
                part.getClass().getSimpleName());
          }
          ToolResponse answer = response.toolResponse();
          messages
              .addObject()
              .put("role", "tool")
              .put("tool_call_id", answer.ref() != null ? answer.ref() : answer.name())
              .put("content", outputText(answer));
        }
      }
    }
  }

  private static ObjectNode userMessage(Message message) {
    ObjectNode out = Json.object().put("role", "user");
    if (message.content().size() == 1 && message.content().get(0) instanceof TextPart text) {
      return out.put("content", text.text());
    }
    ArrayNode content = out.putArray("content");
    for (Part part : message.content()) {
      switch (part) {
        case TextPart text -> content.addObject().put("type", "text").put("text", text.text());
        case DataPart data ->
            content.addObject().put("type", "text").put("text", Json.write(data.data()));
        case MediaPart media -> content.add(media(media.media()));
        default ->
            throw BatonException.invalidArgument(
                "a user message for chat completions may not hold a %s",
                part.getClass().getSimpleName());
      }
    }
    return out;
  }

  private static ObjectNode assistantMessage(Message message) {
    ObjectNode out = Json.object().put("role", "assistant");
    StringBuilder text = new StringBuilder();
    ArrayNode calls = Json.nodes().arrayNode();
    for (Part part : message.content()) {
      switch (part) {
        case TextPart t -> text.append(t.text());
        case DataPart data -> text.append(Json.write(data.data()));
        case ReasoningPart ignored -> {
          // Chat completions take no reasoning back; the model reasons afresh each turn.
        }
        case ToolRequestPart request -> calls.add(toolCall(request.toolRequest()));
        case MediaPart ignored -> throw unsupportedInAssistant(part);
        case ToolResponsePart ignored -> throw unsupportedInAssistant(part);
        case CustomPart ignored -> throw unsupportedInAssistant(part);
      }
    }
    if (text.isEmpty() && !calls.isEmpty()) {
      out.putNull("content");
    } else {
      out.put("content", text.toString());
    }
    if (!calls.isEmpty()) {
      out.set("tool_calls", calls);
    }
    return out;
  }

  private static BatonException unsupportedInAssistant(Part part) {
    return BatonException.invalidArgument(
        "an assistant message for chat completions may not hold a %s",
        part.getClass().getSimpleName());
  }

  private static ObjectNode toolCall(ToolRequest request) {
    ObjectNode call = Json.object();
    call.put("id", request.ref() != null ? request.ref() : request.name());
    call.put("type", "function");
    JsonNode input = request.input();
    call.putObject("function")
        .put("name", request.name())
        .put("arguments", input == null || input.isNull() ? "{}" : Json.write(input));
    return call;
  }

  private static String outputText(ToolResponse response) {
    JsonNode output = response.output();
    if (output == null && response.content() != null) {
      return response.content().stream()
          .filter(TextPart.class::isInstance)
          .map(p -> ((TextPart) p).text())
          .collect(Collectors.joining());
    }
    if (output != null && output.isString()) {
      return output.stringValue();
    }
    return Json.write(output == null ? Json.nodes().nullNode() : output);
  }

  private static ObjectNode media(Media media) {
    String url = media.url();
    boolean inline = url.startsWith("data:");
    String type = media.contentType();
    if (type == null && inline) {
      type = DataUrls.mediaType(url);
    }
    if (type == null || type.startsWith("image/")) {
      ObjectNode part = Json.object().put("type", "image_url");
      part.putObject("image_url").put("url", url);
      return part;
    }
    if (!inline) {
      throw BatonException.invalidArgument(
          "chat completions take images by URL; send %s as a data: URL", type);
    }
    String format =
        switch (type) {
          case "audio/wav", "audio/x-wav", "audio/wave" -> "wav";
          case "audio/mpeg", "audio/mp3" -> "mp3";
          default -> null;
        };
    if (format != null) {
      ObjectNode part = Json.object().put("type", "input_audio");
      part.putObject("input_audio")
          .put("data", url.substring(url.indexOf(',') + 1))
          .put("format", format);
      return part;
    }
    ObjectNode part = Json.object().put("type", "file");
    String extension = type.substring(type.indexOf('/') + 1);
    part.putObject("file").put("filename", "file." + extension).put("file_data", url);
    return part;
  }

  private static ObjectNode tool(ToolDefinition tool) {
    ObjectNode function = Json.object().put("name", tool.name());
    if (!tool.description().isEmpty()) {
      function.put("description", tool.description());
    }
    JsonNode parameters = schema(tool.inputSchema());
    if (!parameters.isEmpty()) {
      function.set("parameters", parameters);
    }
    ObjectNode out = Json.object().put("type", "function");
    out.set("function", function);
    return out;
  }

  private static void addConfig(
      ObjectNode body, @Nullable JsonNode config, boolean hasTools, String maxTokensField) {
    if (config == null || config.isNull()) {
      return;
    }
    if (!config.isObject()) {
      throw BatonException.invalidArgument("chat completions config must be a JSON object");
    }
    for (var entry : config.properties()) {
      String key =
          entry.getKey().equals("maxOutputTokens")
              ? maxTokensField
              : RENAMED_CONFIG.getOrDefault(entry.getKey(), entry.getKey());
      if (key.equals("parallel_tool_calls") && !hasTools) {
        continue;
      }
      body.set(key, entry.getValue().deepCopy());
    }
  }

  private static void addOutput(ObjectNode body, OutputConfig output, boolean strict) {
    if (!"json".equals(output.format())) {
      return;
    }
    ObjectNode format = body.putObject("response_format");
    JsonNode schema = output.schema();
    if (Boolean.TRUE.equals(output.constrained()) && schema != null) {
      format.put("type", "json_schema");
      format
          .putObject("json_schema")
          .put("name", "output")
          .put("strict", strict)
          .set("schema", schema(schema));
    } else {
      format.put("type", "json_object");
    }
  }

  private static JsonNode schema(JsonNode schema) {
    return Json.withoutField(schema, "$schema");
  }

  private static void requireText(Message system) {
    for (Part part : system.content()) {
      if (!(part instanceof TextPart)) {
        throw BatonException.invalidArgument(
            "a system message for chat completions may hold only text, got a %s",
            part.getClass().getSimpleName());
      }
    }
  }
}
