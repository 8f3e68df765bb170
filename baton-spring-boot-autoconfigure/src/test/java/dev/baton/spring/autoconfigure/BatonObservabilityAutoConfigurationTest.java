package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.otel.BatonTelemetry;
import dev.baton.testing.ProgrammableModel;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Baton's spans and {@code gen_ai.*} metrics from an agent turn reach the application's
 * OpenTelemetry SDK or its Micrometer registry, whichever carries the application's own.
 */
class BatonObservabilityAutoConfigurationTest {
  private static final AttributeKey<String> AGENT = AttributeKey.stringKey("gen_ai.agent.name");

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final InMemoryMetricReader metrics = InMemoryMetricReader.create();

  private final ApplicationContextRunner contexts =
      Contexts.baton()
          .withConfiguration(AutoConfigurations.of(BatonObservabilityAutoConfiguration.class))
          .withUserConfiguration(TestApplication.Agents.class);

  @Test
  void spansAndMetricsGoThroughTheApplicationsOpenTelemetry() {
    contexts
        .withBean(OpenTelemetry.class, this::sdk)
        .run(
            context -> {
              turn(context);
              assertThat(agentSpans()).isNotEmpty();
              assertThat(metricNames()).contains("gen_ai.client.operation.duration");
            });
  }

  @Test
  void withoutAnOpenTelemetryBeanMetricsGoToTheMeterRegistry() {
    contexts
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context -> {
              turn(context);
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertThat(
                      registry
                          .get("gen_ai.client.operation.duration")
                          .tag("gen_ai.agent.name", TestApplication.ASSISTANT)
                          .summary()
                          .count())
                  .isPositive();
              assertThat(
                      registry
                          .get("gen_ai.client.token.usage")
                          .tag("gen_ai.token.type", "input")
                          .summary()
                          .totalAmount())
                  .isEqualTo(12);
              assertThat(registry.get("baton.gen_ai.client.operations").counter().count())
                  .isPositive();
            });
  }

  @Test
  void spansGoToOpenTelemetryAndMetricsToMicrometerWhenTheSdkHasNoMeterProviderBean() {
    // Spring Boot's own set-up: an OpenTelemetry SDK for traces, metrics through Micrometer.
    contexts
        .withBean(OpenTelemetry.class, this::sdk)
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context -> {
              turn(context);
              assertThat(agentSpans()).isNotEmpty();
              assertThat(metricNames()).isEmpty();
              assertThat(
                      context
                          .getBean(MeterRegistry.class)
                          .find("gen_ai.client.operation.duration")
                          .summaries())
                  .isNotEmpty();
            });
  }

  @Test
  void anSdkMeterProviderBeanKeepsTheMetricsInOpenTelemetry() {
    // As Spring Boot wires an SdkMeterProvider bean into its OpenTelemetry.
    SdkMeterProvider meterProvider =
        SdkMeterProvider.builder().registerMetricReader(metrics).build();
    contexts
        .withBean(SdkMeterProvider.class, () -> meterProvider)
        .withBean(
            OpenTelemetry.class,
            () ->
                OpenTelemetrySdk.builder()
                    .setTracerProvider(tracerProvider())
                    .setMeterProvider(meterProvider)
                    .build())
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context -> {
              turn(context);
              assertThat(metricNames()).contains("gen_ai.client.operation.duration");
              assertThat(
                      context
                          .getBean(MeterRegistry.class)
                          .find("gen_ai.client.operation.duration")
                          .summaries())
                  .isEmpty();
            });
  }

  @Test
  void aBatonTelemetryBeanKeepsTheMetricsItExportsItself() {
    contexts
        .withBean(BatonTelemetry.class, () -> BatonTelemetry.builder().build())
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            context ->
                assertThat(context)
                    .hasBean("batonOpenTelemetry")
                    .doesNotHaveBean("batonMicrometerTelemetry"));
  }

  @Test
  void withNeitherBatonRecordsThroughNothing() {
    contexts.run(
        context ->
            assertThat(context)
                .doesNotHaveBean("batonOpenTelemetry")
                .doesNotHaveBean("batonMicrometerTelemetry"));
  }

  /** An SDK whose meter provider is not a bean: Spring Boot would send metrics to Micrometer. */
  private OpenTelemetrySdk sdk() {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(tracerProvider())
        .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
        .build();
  }

  private SdkTracerProvider tracerProvider() {
    return SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build();
  }

  private static void turn(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    context
        .getBean(ProgrammableModel.class)
        .respond(
            ModelResponse.of(Message.model("hello"), FinishReason.STOP)
                .withUsage(GenerationUsage.builder().inputTokens(12).outputTokens(5).build()));
    context.getBean(TestApplication.ASSISTANT, Agent.class).runText("hi");
  }

  private List<SpanData> agentSpans() {
    return spans.getFinishedSpanItems().stream()
        .filter(span -> TestApplication.ASSISTANT.equals(span.getAttributes().get(AGENT)))
        .toList();
  }

  private List<String> metricNames() {
    return metrics.collectAllMetrics().stream().map(MetricData::getName).toList();
  }
}
