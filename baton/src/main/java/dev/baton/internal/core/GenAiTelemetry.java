package dev.baton.internal.core;

import dev.baton.core.BatonException;
import dev.baton.core.ContextKey;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * OpenTelemetry's GenAI semantic conventions as Baton records them: the {@code gen_ai.*} span
 * attributes (their keys are here) and the metrics, through the OpenTelemetry metrics API only.
 *
 * <p>Model calls record {@code gen_ai.client.token.usage} (one value per token type) and {@code
 * gen_ai.client.operation.duration}, the convention's histograms, with {@code
 * gen_ai.operation.name=chat}, {@code gen_ai.request.model} and, inside an agent, {@code
 * gen_ai.agent.name}; agent turns record the duration with {@code
 * gen_ai.operation.name=invoke_agent} and {@code gen_ai.agent.name}. Two counters carry the same
 * attributes for backends that sum rather than bucket: {@code baton.gen_ai.client.tokens} and
 * {@code baton.gen_ai.client.operations}. A failed operation adds {@code error.type} (its status,
 * or the exception's class). Tokens are recorded for model calls only, so summing them never counts
 * a call twice; group by {@code gen_ai.agent.name} for an agent's spend.
 *
 * <p>One instance per Baton instance ({@link Tracing#genAi()}); with no SDK installed every record
 * is a no-op, and with tracing off ({@link Tracing#noop()}) one that builds no attributes either.
 * Thread-safe.
 */
public final class GenAiTelemetry {
  /** The agent whose turn a context runs in: model calls made there are attributed to it. */
  public static final ContextKey<String> AGENT = ContextKey.of("baton.genAiAgent", String.class);

  public static final AttributeKey<String> OPERATION_NAME =
      AttributeKey.stringKey("gen_ai.operation.name");
  public static final AttributeKey<String> PROVIDER_NAME =
      AttributeKey.stringKey("gen_ai.provider.name");
  public static final AttributeKey<String> REQUEST_MODEL =
      AttributeKey.stringKey("gen_ai.request.model");
  public static final AttributeKey<Double> REQUEST_TEMPERATURE =
      AttributeKey.doubleKey("gen_ai.request.temperature");
  public static final AttributeKey<Double> REQUEST_TOP_P =
      AttributeKey.doubleKey("gen_ai.request.top_p");
  public static final AttributeKey<Long> REQUEST_TOP_K =
      AttributeKey.longKey("gen_ai.request.top_k");
  public static final AttributeKey<Long> REQUEST_MAX_TOKENS =
      AttributeKey.longKey("gen_ai.request.max_tokens");
  public static final AttributeKey<List<String>> RESPONSE_FINISH_REASONS =
      AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
  public static final AttributeKey<Long> USAGE_INPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.input_tokens");
  public static final AttributeKey<Long> USAGE_OUTPUT_TOKENS =
      AttributeKey.longKey("gen_ai.usage.output_tokens");
  public static final AttributeKey<String> AGENT_NAME = AttributeKey.stringKey("gen_ai.agent.name");
  public static final AttributeKey<String> AGENT_DESCRIPTION =
      AttributeKey.stringKey("gen_ai.agent.description");
  public static final AttributeKey<String> CONVERSATION_ID =
      AttributeKey.stringKey("gen_ai.conversation.id");
  public static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");
  public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

  /** The operation of a model call. */
  public static final String CHAT = "chat";

  /** The operation of an agent's invocation and of each of its turns. */
  public static final String INVOKE_AGENT = "invoke_agent";

  // The conventions' advised bucket boundaries.
  private static final List<Long> TOKEN_BUCKETS =
      List.of(
          1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L, 262144L, 1048576L, 4194304L,
          16777216L, 67108864L);
  private static final List<Double> DURATION_BUCKETS =
      List.of(
          0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92);

  // Null with tracing off: building the instruments, even no-op ones, loads dozens of classes.
  private final @Nullable Instruments instruments;

  private record Instruments(
      LongHistogram tokenUsage,
      DoubleHistogram duration,
      LongCounter tokens,
      LongCounter operations) {
    static Instruments of(Meter meter) {
      return new Instruments(
          meter
              .histogramBuilder("gen_ai.client.token.usage")
              .ofLongs()
              .setUnit("{token}")
              .setDescription("Number of input and output tokens used, per model call")
              .setExplicitBucketBoundariesAdvice(TOKEN_BUCKETS)
              .build(),
          meter
              .histogramBuilder("gen_ai.client.operation.duration")
              .setUnit("s")
              .setDescription("Duration of model calls and agent turns")
              .setExplicitBucketBoundariesAdvice(DURATION_BUCKETS)
              .build(),
          meter
              .counterBuilder("baton.gen_ai.client.tokens")
              .setUnit("{token}")
              .setDescription("Tokens used by model calls")
              .build(),
          meter
              .counterBuilder("baton.gen_ai.client.operations")
              .setUnit("{operation}")
              .setDescription("Model calls and agent turns, failed ones with error.type")
              .build());
    }
  }

  GenAiTelemetry(OpenTelemetry openTelemetry, boolean enabled) {
    this.instruments = enabled ? Instruments.of(openTelemetry.getMeter("baton")) : null;
  }

  /**
   * Records one model call.
   *
   * @param agent the agent whose turn made the call, or null outside agents
   * @param inputTokens tokens the model reported reading, or null when it reported none
   * @param outputTokens tokens the model reported writing, or null
   * @param errorType the failure's status or class, or null for a success
   */
  public void recordModelCall(
      String model,
      @Nullable String agent,
      @Nullable Long inputTokens,
      @Nullable Long outputTokens,
      long durationNanos,
      @Nullable String errorType) {
    Instruments recorded = instruments;
    if (recorded == null) {
      return;
    }
    AttributesBuilder common =
        Attributes.builder().put(OPERATION_NAME, CHAT).put(REQUEST_MODEL, model);
    String provider = providerOf(model);
    if (provider != null) {
      common.put(PROVIDER_NAME, provider);
    }
    if (agent != null) {
      common.put(AGENT_NAME, agent);
    }
    recordTokens(recorded, common, "input", inputTokens);
    recordTokens(recorded, common, "output", outputTokens);
    recordOperation(recorded, common, durationNanos, errorType);
  }

  /** Records one agent turn. */
  public void recordAgentTurn(String agent, long durationNanos, @Nullable String errorType) {
    Instruments recorded = instruments;
    if (recorded == null) {
      return;
    }
    recordOperation(
        recorded,
        Attributes.builder().put(OPERATION_NAME, INVOKE_AGENT).put(AGENT_NAME, agent),
        durationNanos,
        errorType);
  }

  /** The {@code error.type} of a failure: its Genkit status, or the exception's class. */
  public static String errorType(Throwable error) {
    return error instanceof BatonException batonException
        ? batonException.status().name()
        : error.getClass().getName();
  }

  /**
   * The provider a model name says it comes from: its plugin namespace ({@code googleai} for {@code
   * googleai/gemini-flash-latest}), or null for a name without one.
   */
  public static @Nullable String providerOf(String model) {
    int slash = model.indexOf('/');
    return slash > 0 ? model.substring(0, slash) : null;
  }

  private static void recordTokens(
      Instruments recorded, AttributesBuilder common, String type, @Nullable Long count) {
    if (count == null) {
      return;
    }
    Attributes attributes = common.build().toBuilder().put(TOKEN_TYPE, type).build();
    recorded.tokenUsage().record(count, attributes);
    recorded.tokens().add(count, attributes);
  }

  private static void recordOperation(
      Instruments recorded,
      AttributesBuilder common,
      long durationNanos,
      @Nullable String errorType) {
    if (errorType != null) {
      common.put(ERROR_TYPE, errorType);
    }
    Attributes attributes = common.build();
    recorded.duration().record(durationNanos / 1e9, attributes);
    recorded.operations().add(1, attributes);
  }
}
