package dev.baton.internal.ai;

import dev.baton.ai.GenerationUsage;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.core.ActionContext;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.GenAiTelemetry;
import dev.baton.internal.core.TraceSpan;
import dev.baton.internal.core.Tracing;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Records a model call by OpenTelemetry's GenAI conventions: the {@code gen_ai.*} attributes on the
 * model action's own span ({@code chat}, the model, the request's sampling settings, the reported
 * usage and finish reason) and the call's tokens and duration as metrics (see {@link
 * GenAiTelemetry}). It runs inside the model action, so a model run directly (from the Dev UI, say)
 * is recorded as well as one the tool loop makes.
 *
 * <p>Stateless and thread-safe.
 */
public final class ModelTelemetry {
  private ModelTelemetry() {}

  /** Whether model calls in this context are traced: when not, {@link #observe} adds nothing. */
  public static boolean isEnabled(ActionContext context) {
    return DefaultRegistry.tracing(context.registry()).isEnabled();
  }

  /**
   * Runs a model's function and records it.
   *
   * @param context the model action's context, which carries its span
   * @param model the model's registered name
   */
  public static ModelResponse observe(
      ActionContext context, String model, ModelRequest request, Supplier<ModelResponse> call) {
    Tracing tracing = DefaultRegistry.tracing(context.registry());
    if (!tracing.isEnabled()) {
      return call.get();
    }
    TraceSpan span = TraceSpan.of(context);
    String agent = context.get(GenAiTelemetry.AGENT).orElse(null);
    if (span != null && span.isRecording()) {
      describeRequest(span, model, agent, request);
    }
    GenAiTelemetry metrics = tracing.genAi();
    long start = System.nanoTime();
    ModelResponse response;
    try {
      response = call.get();
    } catch (RuntimeException | Error e) {
      metrics.recordModelCall(
          model, agent, null, null, System.nanoTime() - start, GenAiTelemetry.errorType(e));
      throw e;
    }
    GenerationUsage usage = response.usage();
    Long input = usage == null ? null : toLong(usage.inputTokens());
    Long output = usage == null ? null : toLong(usage.outputTokens());
    metrics.recordModelCall(model, agent, input, output, System.nanoTime() - start, null);
    if (span != null) {
      if (input != null) {
        span.set(GenAiTelemetry.USAGE_INPUT_TOKENS, input);
      }
      if (output != null) {
        span.set(GenAiTelemetry.USAGE_OUTPUT_TOKENS, output);
      }
      if (response.finishReason() != null) {
        span.set(
            GenAiTelemetry.RESPONSE_FINISH_REASONS, List.of(response.finishReason().wireName()));
      }
    }
    return response;
  }

  private static void describeRequest(
      TraceSpan span, String model, @Nullable String agent, ModelRequest request) {
    span.set(GenAiTelemetry.OPERATION_NAME, GenAiTelemetry.CHAT);
    span.set(GenAiTelemetry.REQUEST_MODEL, model);
    String provider = GenAiTelemetry.providerOf(model);
    if (provider != null) {
      span.set(GenAiTelemetry.PROVIDER_NAME, provider);
    }
    if (agent != null) {
      span.set(GenAiTelemetry.AGENT_NAME, agent);
    }
    JsonNode config = request.config();
    if (config == null || !config.isObject()) {
      return;
    }
    // Genkit's common generation config names.
    if (config.path("temperature").isNumber()) {
      span.set(GenAiTelemetry.REQUEST_TEMPERATURE, config.path("temperature").asDouble());
    }
    if (config.path("topP").isNumber()) {
      span.set(GenAiTelemetry.REQUEST_TOP_P, config.path("topP").asDouble());
    }
    if (config.path("topK").isNumber()) {
      span.set(GenAiTelemetry.REQUEST_TOP_K, config.path("topK").asLong());
    }
    if (config.path("maxOutputTokens").isNumber()) {
      span.set(GenAiTelemetry.REQUEST_MAX_TOKENS, config.path("maxOutputTokens").asLong());
    }
  }

  private static @Nullable Long toLong(@Nullable Integer value) {
    return value == null ? null : value.longValue();
  }
}
