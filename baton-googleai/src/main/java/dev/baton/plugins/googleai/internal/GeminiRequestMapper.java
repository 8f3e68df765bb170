package dev.baton.plugins.googleai.internal;

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
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Builds the JSON body of a Gemini API {@code generateContent} request from a {@link ModelRequest}.
 *
 * <ul>
 *   <li>System messages become {@code systemInstruction}, their text parts in order; user messages
 *       become {@code user} contents, model messages {@code model} contents, and tool messages
 *       {@code user} contents holding {@code functionResponse} parts.
 *   <li>Text is {@code text}; reasoning is {@code text} with {@code thought: true}; media with a
 *       {@code data:} URL is {@code inlineData}, any other URL {@code fileData}; data parts are
 *       sent as their JSON text; custom parts are sent as they are (e.g. {@code executableCode}). A
 *       {@code data:} URL without {@code ;base64} has its {@code %XX} escapes decoded and every
 *       other character taken as it is ({@code +} stays a plus), then is sent base64-encoded.
 *   <li>A tool request is {@code functionCall {name, args, id}} and a tool response {@code
 *       functionResponse {name, id, response: {"output": <output>}}}. Gemini gets back only the IDs
 *       it issued: a call's id is its part's {@code metadata.functionCallId}, which {@link
 *       GeminiResponseMapper} records when Gemini sends one, and a response's id is that of the
 *       call in the request whose {@code ref} it answers. A ref the tool loop made up for a call
 *       Gemini sent without an id stays local, so neither part then has an id, and Gemini pairs
 *       them by order. Gemini reads the {@code output} key as the function's result, so a
 *       non-object result needs no special case.
 *   <li>A part's {@code metadata.thoughtSignature} goes back as the part's {@code
 *       thoughtSignature}, unchanged: Gemini rejects a function-call history without it.
 *   <li>Tools become one {@code functionDeclarations} list with the input schema in {@code
 *       parametersJsonSchema} (full JSON Schema, not the OpenAPI subset of {@code parameters}); a
 *       tool that accepts anything gets no schema. The tool choice becomes {@code
 *       toolConfig.functionCallingConfig.mode} ({@code AUTO}, {@code ANY}, {@code NONE}), sent only
 *       with tools: with none there are no functions to choose among.
 *   <li>Config keys go into {@code generationConfig} under their own names ({@code temperature},
 *       {@code maxOutputTokens}, {@code topP}, {@code topK}, {@code stopSequences}, {@code
 *       thinkingConfig}, and any other Gemini option), except {@code safetySettings} and {@code
 *       cachedContent}, which are request fields.
 *   <li>JSON output sets {@code responseMimeType: application/json} (or the requested content
 *       type), and constrained output adds the schema as {@code responseJsonSchema}.
 * </ul>
 *
 * <p>The {@code $schema} keyword is dropped from every schema sent: it names a draft, which tells
 * the model nothing. Requests that Gemini cannot express fail with {@code INVALID_ARGUMENT}.
 */
final class GeminiRequestMapper {
  /** Config keys that are fields of the request rather than of {@code generationConfig}. */
  private static final Set<String> REQUEST_FIELDS = Set.of("safetySettings", "cachedContent");

  static final String THOUGHT_SIGNATURE = "thoughtSignature";

  /** The metadata key of the id Gemini gave a function call; absent when it gave none. */
  static final String FUNCTION_CALL_ID = "functionCallId";

  private GeminiRequestMapper() {}

  static ObjectNode toRequest(ModelRequest request) {
    ObjectNode body = Json.object();
    ArrayNode contents = body.putArray("contents");
    ArrayNode system = Json.nodes().arrayNode();
    Map<String, String> callIds = geminiCallIds(request.messages());
    for (Message message : request.messages()) {
      if (message.role() == Role.SYSTEM) {
        for (Part part : message.content()) {
          if (!(part instanceof TextPart text)) {
            throw BatonException.invalidArgument(
                "Gemini takes only text in system instructions, got a %s",
                part.getClass().getSimpleName());
          }
          system.add(toGeminiPart(text, callIds));
        }
        continue;
      }
      ObjectNode content = contents.addObject();
      content.put("role", message.role() == Role.MODEL ? "model" : "user");
      ArrayNode parts = content.putArray("parts");
      message.content().forEach(part -> parts.add(toGeminiPart(part, callIds)));
    }
    if (!system.isEmpty()) {
      body.putObject("systemInstruction").set("parts", system);
    }
    if (!request.tools().isEmpty()) {
      ArrayNode declarations = body.putArray("tools").addObject().putArray("functionDeclarations");
      request.tools().forEach(tool -> declarations.add(declaration(tool)));
      if (request.toolChoice() != null) {
        body.putObject("toolConfig")
            .putObject("functionCallingConfig")
            .put("mode", mode(request.toolChoice()));
      }
    }
    ObjectNode generation = Json.object();
    JsonNode config = request.config();
    if (config != null && !config.isNull()) {
      if (!config.isObject()) {
        throw BatonException.invalidArgument("Gemini config must be a JSON object");
      }
      for (var entry : config.properties()) {
        ObjectNode target = REQUEST_FIELDS.contains(entry.getKey()) ? body : generation;
        target.set(entry.getKey(), entry.getValue().deepCopy());
      }
    }
    addOutput(generation, request.output());
    if (!generation.isEmpty()) {
      body.set("generationConfig", generation);
    }
    return body;
  }

  private static void addOutput(ObjectNode generation, OutputConfig output) {
    if (output.contentType() != null) {
      generation.put("responseMimeType", output.contentType());
    } else if ("json".equals(output.format())) {
      generation.put("responseMimeType", "application/json");
    }
    if (Boolean.TRUE.equals(output.constrained()) && output.schema() != null) {
      generation.set("responseJsonSchema", schema(output.schema()));
    }
  }

  private static ObjectNode declaration(ToolDefinition tool) {
    ObjectNode declaration = Json.object();
    declaration.put("name", tool.name());
    if (!tool.description().isEmpty()) {
      declaration.put("description", tool.description());
    }
    JsonNode parameters = schema(tool.inputSchema());
    if (!parameters.isEmpty()) {
      declaration.set("parametersJsonSchema", parameters);
    }
    return declaration;
  }

  private static String mode(ToolChoice choice) {
    return switch (choice) {
      case AUTO -> "AUTO";
      case REQUIRED -> "ANY";
      case NONE -> "NONE";
    };
  }

  private static JsonNode schema(JsonNode schema) {
    return Json.withoutField(schema, "$schema");
  }

  /**
   * The ids Gemini gave the function calls of a request's history, by the {@code ref} of the call:
   * what a function response answering that ref sends back as its id.
   */
  private static Map<String, String> geminiCallIds(List<Message> messages) {
    Map<String, String> ids = new HashMap<>();
    for (Message message : messages) {
      for (Part part : message.content()) {
        String id = geminiCallId(part);
        String ref = part instanceof ToolRequestPart call ? call.toolRequest().ref() : null;
        if (ref != null && id != null) {
          ids.put(ref, id);
        }
      }
    }
    return ids;
  }

  private static @Nullable String geminiCallId(Part part) {
    ObjectNode metadata = part.metadata();
    return metadata != null && metadata.path(FUNCTION_CALL_ID).isString()
        ? metadata.path(FUNCTION_CALL_ID).stringValue()
        : null;
  }

  /**
   * One Gemini part.
   *
   * @param callIds the ids Gemini gave the request's function calls, by ref
   */
  private static ObjectNode toGeminiPart(Part part, Map<String, String> callIds) {
    ObjectNode out =
        switch (part) {
          case TextPart text -> Json.object().put("text", text.text());
          case ReasoningPart reasoning ->
              Json.object().put("text", reasoning.reasoning()).put("thought", true);
          case MediaPart media -> media(media.media());
          case ToolRequestPart request -> functionCall(request.toolRequest(), geminiCallId(part));
          case ToolResponsePart response -> {
            String ref = response.toolResponse().ref();
            yield functionResponse(response.toolResponse(), ref == null ? null : callIds.get(ref));
          }
          case DataPart data -> Json.object().put("text", Json.write(data.data()));
          case CustomPart custom -> custom(custom.custom());
        };
    ObjectNode metadata = part.metadata();
    if (metadata != null && metadata.path(THOUGHT_SIGNATURE).isString()) {
      out.put(THOUGHT_SIGNATURE, metadata.path(THOUGHT_SIGNATURE).stringValue());
    }
    return out;
  }

  private static ObjectNode functionCall(ToolRequest request, @Nullable String id) {
    ObjectNode call = Json.object();
    call.put("name", request.name());
    JsonNode input = request.input();
    if (input != null && !input.isNull()) {
      if (!input.isObject()) {
        throw BatonException.invalidArgument(
            "Gemini function call arguments must be a JSON object; tool \"%s\" has %s",
            request.name(), input.getNodeType());
      }
      call.set("args", input);
    }
    if (id != null) {
      call.put("id", id);
    }
    return Json.object().set("functionCall", call);
  }

  private static ObjectNode functionResponse(ToolResponse response, @Nullable String id) {
    ObjectNode answer = Json.object();
    answer.put("name", response.name());
    if (id != null) {
      answer.put("id", id);
    }
    answer.putObject("response").set("output", resultOf(response));
    return Json.object().set("functionResponse", answer);
  }

  /** The output, or the text of the multipart content when a tool answered with content only. */
  private static JsonNode resultOf(ToolResponse response) {
    if (response.output() != null) {
      return response.output();
    }
    if (response.content() != null) {
      String text =
          response.content().stream()
              .filter(TextPart.class::isInstance)
              .map(p -> ((TextPart) p).text())
              .collect(Collectors.joining());
      return Json.nodes().stringNode(text);
    }
    return Json.nodes().nullNode();
  }

  private static ObjectNode media(Media media) {
    String url = media.url();
    if (url.startsWith("data:")) {
      int comma = url.indexOf(',');
      if (comma < 0) {
        throw BatonException.invalidArgument("malformed data URL: no comma");
      }
      String header = url.substring(5, comma);
      String payload = url.substring(comma + 1);
      boolean base64 = header.endsWith(";base64");
      String type = media.contentType() != null ? media.contentType() : DataUrls.mediaType(url);
      if (type == null) {
        throw BatonException.invalidArgument("Gemini needs a media type for inline data");
      }
      String data = base64 ? payload : Base64.getEncoder().encodeToString(percentDecoded(payload));
      ObjectNode inline = Json.object().put("mimeType", type).put("data", data);
      return Json.object().set("inlineData", inline);
    }
    ObjectNode file = Json.object();
    if (media.contentType() != null) {
      file.put("mimeType", media.contentType());
    }
    file.put("fileUri", url);
    return Json.object().set("fileData", file);
  }

  /**
   * The bytes of a data URL's payload: {@code %XX} is the byte XX, and any other character (a
   * {@code %} not followed by two hex digits included) stands for its own UTF-8 bytes. Not {@link
   * java.net.URLDecoder}, which is for form data and would turn {@code +} into a space.
   */
  private static byte[] percentDecoded(String payload) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int from = 0;
    for (int percent = payload.indexOf('%');
        percent >= 0;
        percent = payload.indexOf('%', percent + 1)) {
      if (percent + 2 < payload.length()
          && HexFormat.isHexDigit(payload.charAt(percent + 1))
          && HexFormat.isHexDigit(payload.charAt(percent + 2))) {
        bytes.writeBytes(payload.substring(from, percent).getBytes(StandardCharsets.UTF_8));
        bytes.write(HexFormat.fromHexDigits(payload, percent + 1, percent + 3));
        from = percent + 3;
      }
    }
    bytes.writeBytes(payload.substring(from).getBytes(StandardCharsets.UTF_8));
    return bytes.toByteArray();
  }

  private static ObjectNode custom(JsonNode custom) {
    if (!custom.isObject()) {
      throw BatonException.invalidArgument(
          "a custom part for Gemini must be a JSON object such as {\"executableCode\": …}");
    }
    return (ObjectNode) custom.deepCopy();
  }
}
