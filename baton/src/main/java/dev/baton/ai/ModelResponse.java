package dev.baton.ai;

import dev.baton.core.Json;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a model answered. {@code request} echoes the request that produced it; the generate loop
 * sets it when the model leaves it out, so the response carries its whole history.
 *
 * <p>Build one with {@link #of} and the {@code with…} methods:
 *
 * <pre>{@code
 * ModelResponse.of(Message.model("Hi"), FinishReason.STOP).withUsage(usage).withLatencyMs(120.0)
 * }</pre>
 */
public record ModelResponse(
    @Nullable Message message,
    @Nullable FinishReason finishReason,
    @Nullable String finishMessage,
    @Nullable Double latencyMs,
    @Nullable GenerationUsage usage,
    @Nullable JsonNode custom,
    @Nullable JsonNode raw,
    @Nullable ModelRequest request) {

  public ModelResponse {
    custom = custom == null ? null : Json.copy(custom);
    raw = raw == null ? null : Json.copy(raw);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode custom() {
    return custom == null ? null : Json.copy(custom);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode raw() {
    return raw == null ? null : Json.copy(raw);
  }

  /** A response with a message and a finish reason. */
  public static ModelResponse of(Message message, @Nullable FinishReason finishReason) {
    return new ModelResponse(message, finishReason, null, null, null, null, null, null);
  }

  /** The message's text, or "" without a message. */
  public String text() {
    return message == null ? "" : message.text();
  }

  /** The message's tool requests, or none. */
  public List<ToolRequestPart> toolRequests() {
    return message == null ? List.of() : message.toolRequests();
  }

  public ModelResponse withMessage(@Nullable Message message) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  public ModelResponse withFinish(@Nullable FinishReason reason, @Nullable String finishMessage) {
    return new ModelResponse(
        message, reason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  public ModelResponse withUsage(@Nullable GenerationUsage usage) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  public ModelResponse withCustom(@Nullable JsonNode custom) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  /** How long the model took, in milliseconds. */
  public ModelResponse withLatencyMs(@Nullable Double latencyMs) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  /** The provider's raw response, for debugging. */
  public ModelResponse withRaw(@Nullable JsonNode raw) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }

  public ModelResponse withRequest(@Nullable ModelRequest request) {
    return new ModelResponse(
        message, finishReason, finishMessage, latencyMs, usage, custom, raw, request);
  }
}
