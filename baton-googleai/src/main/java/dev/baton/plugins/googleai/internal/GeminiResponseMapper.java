package dev.baton.plugins.googleai.internal;

import dev.baton.ai.CustomPart;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Media;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads the pieces of a Gemini {@code GenerateContentResponse}: content parts, finish reasons and
 * {@code usageMetadata}.
 *
 * <ul>
 *   <li>A part with {@code thought: true} is a {@link ReasoningPart} (a thought summary); {@code
 *       text} is a {@link TextPart}; {@code inlineData} is a {@link MediaPart} with a {@code data:}
 *       URL; {@code fileData} a {@link MediaPart} with the file URI; {@code functionCall} a {@link
 *       ToolRequestPart} whose {@code ref} is the call's {@code id} (null when Gemini sent none,
 *       for the tool loop to fill in), with the id also in {@code metadata.functionCallId}, which
 *       marks it as Gemini's to send back (see {@link GeminiRequestMapper}). Any other part ({@code
 *       executableCode}, {@code codeExecutionResult}, …) is a {@link CustomPart} holding it
 *       unchanged. Empty parts are skipped.
 *   <li>A part's {@code thoughtSignature} is kept in the Baton part's {@code
 *       metadata.thoughtSignature}; a part carrying only a signature becomes an empty text part, so
 *       the signature is not lost.
 * </ul>
 */
final class GeminiResponseMapper {
  private GeminiResponseMapper() {}

  /** The Baton parts of a Gemini {@code content.parts} array, in order. */
  static List<Part> parts(JsonNode geminiParts) {
    List<Part> parts = new ArrayList<>();
    for (JsonNode part : geminiParts) {
      Part mapped = part(part);
      if (mapped != null) {
        parts.add(mapped);
      }
    }
    return parts;
  }

  private static @Nullable Part part(JsonNode part) {
    if (!part.isObject() || part.isEmpty()) {
      return null;
    }
    JsonNode signature = part.path(GeminiRequestMapper.THOUGHT_SIGNATURE);
    ObjectNode metadata =
        signature.isString()
            ? Metadata.with(null, GeminiRequestMapper.THOUGHT_SIGNATURE, signature)
            : null;
    if (part.path("thought").asBoolean(false)) {
      return new ReasoningPart(part.path("text").asString(""), metadata);
    }
    if (part.path("text").isString()) {
      return new TextPart(part.path("text").stringValue(), metadata);
    }
    if (part.has("inlineData")) {
      JsonNode inline = part.path("inlineData");
      String type = inline.path("mimeType").asString("application/octet-stream");
      String url = "data:" + type + ";base64," + inline.path("data").asString("");
      return new MediaPart(new Media(url, type), metadata);
    }
    if (part.has("fileData")) {
      JsonNode file = part.path("fileData");
      String type = file.path("mimeType").isString() ? file.path("mimeType").stringValue() : null;
      return new MediaPart(new Media(file.path("fileUri").asString(""), type), metadata);
    }
    if (part.has("functionCall")) {
      JsonNode call = part.path("functionCall");
      JsonNode id = call.path("id");
      JsonNode args = call.path("args").isObject() ? call.path("args") : Json.object();
      return new ToolRequestPart(
          ToolRequest.of(call.path("name").asString(""), args)
              .withRef(id.isString() ? id.stringValue() : null),
          id.isString()
              ? Metadata.with(metadata, GeminiRequestMapper.FUNCTION_CALL_ID, id)
              : metadata);
    }
    JsonNode rest = Json.withoutField(part, GeminiRequestMapper.THOUGHT_SIGNATURE);
    if (rest.isEmpty()) {
      return new TextPart("", metadata);
    }
    return new CustomPart(rest, metadata);
  }

  /**
   * Gemini's finish reason as Baton's: {@code STOP} is {@link FinishReason#STOP}; {@code
   * MAX_TOKENS} is {@link FinishReason#LENGTH}; reasons that mean a filter stopped the output
   * ({@code SAFETY}, {@code RECITATION}, {@code LANGUAGE}, {@code BLOCKLIST}, {@code
   * PROHIBITED_CONTENT}, {@code SPII}, {@code IMAGE_SAFETY}, …) are {@link FinishReason#BLOCKED}; a
   * failed or unwanted tool call and {@code OTHER} are {@link FinishReason#OTHER}; a missing or
   * unknown reason is {@link FinishReason#UNKNOWN}.
   */
  static FinishReason finishReason(@Nullable String reason) {
    if (reason == null) {
      return FinishReason.UNKNOWN;
    }
    return switch (reason) {
      case "STOP" -> FinishReason.STOP;
      case "MAX_TOKENS" -> FinishReason.LENGTH;
      case "SAFETY",
          "RECITATION",
          "LANGUAGE",
          "BLOCKLIST",
          "PROHIBITED_CONTENT",
          "SPII",
          "IMAGE_SAFETY",
          "IMAGE_PROHIBITED_CONTENT",
          "IMAGE_RECITATION" ->
          FinishReason.BLOCKED;
      case "MALFORMED_FUNCTION_CALL",
          "UNEXPECTED_TOOL_CALL",
          "TOO_MANY_TOOL_CALLS",
          "MISSING_THOUGHT_SIGNATURE",
          "IMAGE_OTHER",
          "NO_IMAGE",
          "OTHER" ->
          FinishReason.OTHER;
      default -> FinishReason.UNKNOWN;
    };
  }

  /**
   * {@code usageMetadata} as usage: the input is {@code promptTokenCount} (which includes cached
   * tokens) plus {@code toolUsePromptTokenCount} (the tokens of tool-use prompts, such as what a
   * built-in search fed the model, which Gemini's {@code totalTokenCount} counts apart from {@code
   * promptTokenCount}), {@code candidatesTokenCount} the output (which by Gemini's count already
   * leaves out thoughts), {@code thoughtsTokenCount} the thoughts, {@code cachedContentTokenCount}
   * the cached input and {@code totalTokenCount} the total. Null when there is no usage object.
   */
  static @Nullable GenerationUsage usage(@Nullable JsonNode usage) {
    if (usage == null || !usage.isObject()) {
      return null;
    }
    Integer prompt = count(usage, "promptTokenCount");
    Integer toolUsePrompt = count(usage, "toolUsePromptTokenCount");
    Integer input = prompt;
    if (toolUsePrompt != null) {
      input = Objects.requireNonNullElse(prompt, 0) + toolUsePrompt;
    }
    return GenerationUsage.builder()
        .inputTokens(input)
        .outputTokens(count(usage, "candidatesTokenCount"))
        .thoughtsTokens(count(usage, "thoughtsTokenCount"))
        .cachedContentTokens(count(usage, "cachedContentTokenCount"))
        .totalTokens(count(usage, "totalTokenCount"))
        .build();
  }

  private static @Nullable Integer count(JsonNode usage, String field) {
    JsonNode value = usage.path(field);
    return value.isIntegralNumber() ? value.intValue() : null;
  }
}
