package dev.baton.plugins.googleai.internal;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.http.HttpErrors;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Builds one {@link ModelResponse} from the {@code GenerateContentResponse} objects of a call: the
 * single answer of {@code generateContent}, or every SSE event of {@code streamGenerateContent}.
 *
 * <p>Only the first candidate is read. Parts are appended in arrival order. The parts of one
 * response object are kept as Gemini sent them, because the history sent back must match what
 * Gemini returned. Across the events of a stream, the first text (or thought) part of an event
 * joins the text (or thought) part that ended the event before, taking its thought signature if it
 * brings one, so that a streamed answer reads as one part; it never joins a part that already
 * carries a signature, because the signature belongs to the part it closed. The last finish reason,
 * finish message and usage seen win. A prompt blocked by {@code promptFeedback.blockReason} gives
 * an empty model message with {@link FinishReason#BLOCKED}; an {@code error} object inside a stream
 * fails the call.
 *
 * <p>Not thread-safe: one assembler per call.
 */
final class GeminiResponseAssembler {
  private final List<Part> parts = new ArrayList<>();
  private @Nullable String finishReason;
  private @Nullable String finishMessage;
  private @Nullable JsonNode usage;
  private @Nullable String blockReason;
  private @Nullable String blockReasonMessage;
  private final String provider;

  /**
   * @param provider how an error in a stream names the other side
   */
  GeminiResponseAssembler(String provider) {
    this.provider = provider;
  }

  /** Takes in one response object and returns the parts it added, for streaming as a chunk. */
  List<Part> add(JsonNode response) {
    JsonNode error = response.get("error");
    if (error != null) {
      throw HttpErrors.fromStreamError(provider, error);
    }
    JsonNode feedback = response.path("promptFeedback");
    if (feedback.path("blockReason").isString()) {
      blockReason = feedback.path("blockReason").stringValue();
      blockReasonMessage = textOrNull(feedback.path("blockReasonMessage"));
    }
    if (response.path("usageMetadata").isObject()) {
      usage = response.path("usageMetadata");
    }
    JsonNode candidate = response.path("candidates").path(0);
    if (!candidate.isObject()) {
      return List.of();
    }
    if (candidate.path("finishReason").isString()) {
      finishReason = candidate.path("finishReason").stringValue();
    }
    if (candidate.path("finishMessage").isString()) {
      finishMessage = candidate.path("finishMessage").stringValue();
    }
    List<Part> fresh = GeminiResponseMapper.parts(candidate.path("content").path("parts"));
    if (!fresh.isEmpty()) {
      continueOrAdd(fresh.get(0));
      parts.addAll(fresh.subList(1, fresh.size()));
    }
    return fresh;
  }

  /** The response, as far as it arrived. */
  ModelResponse build(double latencyMs) {
    if (blockReason != null) {
      String message =
          "the prompt was blocked ("
              + blockReason
              + ")"
              + (blockReasonMessage == null ? "" : ": " + blockReasonMessage);
      return response(List.of(), FinishReason.BLOCKED, message, latencyMs);
    }
    FinishReason reason = GeminiResponseMapper.finishReason(finishReason);
    String message = finishMessage;
    if (message == null && (reason == FinishReason.BLOCKED || reason == FinishReason.OTHER)) {
      // Baton's reason is coarser than Gemini's; keep the precise one where it was folded.
      message = "Gemini finish reason " + finishReason;
    }
    return response(parts, reason, message, latencyMs);
  }

  private ModelResponse response(
      List<Part> content, FinishReason reason, @Nullable String message, double latencyMs) {
    return ModelResponse.of(new Message(Role.MODEL, content), reason)
        .withFinish(reason, message)
        .withLatencyMs(latencyMs)
        .withUsage(GeminiResponseMapper.usage(usage));
  }

  /** Joins a streamed delta to the open part before it, or else adds it as a part of its own. */
  private void continueOrAdd(Part part) {
    if (!parts.isEmpty()) {
      Part last = parts.get(parts.size() - 1);
      boolean open = !Metadata.has(last.metadata(), GeminiRequestMapper.THOUGHT_SIGNATURE);
      if (open && last instanceof TextPart before && part instanceof TextPart next) {
        parts.set(parts.size() - 1, new TextPart(before.text() + next.text(), next.metadata()));
        return;
      }
      if (open && last instanceof ReasoningPart before && part instanceof ReasoningPart next) {
        parts.set(
            parts.size() - 1,
            new ReasoningPart(before.reasoning() + next.reasoning(), next.metadata()));
        return;
      }
    }
    parts.add(part);
  }

  private static @Nullable String textOrNull(JsonNode node) {
    return node.isString() ? node.stringValue() : null;
  }
}
