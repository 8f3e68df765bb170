package dev.baton.ai;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.core.SharedList;
import java.lang.reflect.Type;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The result of a generate call.
 *
 * @param response the last model response, with its {@code request} set and, on an interrupt, the
 *     revised message whose interrupted requests carry {@code metadata.interrupt}
 * @param history the whole conversation: the messages sent to the first model call, every tool
 *     round, and the final message. Middleware rewrites of a request (injected system text, a
 *     compressed view) are not part of it; what a middleware records on the conversation through
 *     {@link GenerateParams#history()} is.
 * @param totalUsage the usage of every model call the loop made
 * @param output the parsed structured output, when output options asked for JSON
 */
public record GenerateResponse(
    ModelResponse response,
    List<Message> history,
    GenerationUsage totalUsage,
    @Nullable JsonNode output) {

  public GenerateResponse {
    history = SharedList.copyOf(history);
    output = output == null ? null : Json.copy(output);
  }

  /**
   * A response whose history ends the conversation, with the response's own usage as the total and
   * no structured output.
   */
  public static GenerateResponse of(ModelResponse response, List<Message> history) {
    GenerationUsage usage = response.usage();
    return new GenerateResponse(
        response, history, usage == null ? GenerationUsage.EMPTY : usage, null);
  }

  public GenerateResponse withTotalUsage(GenerationUsage totalUsage) {
    return new GenerateResponse(response, history, totalUsage, output);
  }

  public GenerateResponse withOutput(@Nullable JsonNode output) {
    return new GenerateResponse(response, history, totalUsage, output);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode output() {
    return output == null ? null : Json.copy(output);
  }

  /** The final message. */
  public Message message() {
    Message message = response.message();
    if (message == null) {
      throw BatonException.internal("the model response has no message", null);
    }
    return message;
  }

  public String text() {
    return response.text();
  }

  public @Nullable FinishReason finishReason() {
    return response.finishReason();
  }

  public @Nullable GenerationUsage usage() {
    return response.usage();
  }

  public @Nullable ModelRequest request() {
    return response.request();
  }

  /** The tool requests of the final message that interrupted the loop, in order. */
  public List<ToolRequestPart> interrupts() {
    return response.toolRequests().stream()
        .filter(p -> Metadata.has(p.metadata(), "interrupt"))
        .toList();
  }

  /** The structured output converted to a Java type. */
  // The caller states T by what it assigns the result to, as with Jackson's readValue(JavaType).
  @SuppressWarnings("TypeParameterUnusedInFormals")
  public <T> T output(Type type) {
    if (output == null) {
      throw BatonException.failedPrecondition(
          "the response has no structured output; ask for one with GenerateOptions.output");
    }
    return Json.convert(output, type);
  }

  /** The structured output converted to a Java class. */
  public <T> T output(Class<T> type) {
    return output((Type) type);
  }
}
