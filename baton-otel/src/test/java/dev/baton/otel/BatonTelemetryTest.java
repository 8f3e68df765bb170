package dev.baton.otel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Flow;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class BatonTelemetryTest {
  /**
   * A ceiling, not a wait: flush returns once the exports are done. Exports get as long, so that a
   * POST on a busy machine (a cold JVM's first one took over 5 s at load 15) is not given up.
   */
  private static final Duration FLUSH = Duration.ofMinutes(2);

  private final CaptureServer server = new CaptureServer();

  BatonTelemetryTest() throws Exception {}

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void realtimeModeSendsEverySpanWhenItStartsAndAgainWhenItEnds() {
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder()
            .exportTimeout(FLUSH)
            .genkitTelemetryServer(server.url())
            .realtime(true)
            .build()) {
      Flow<String, String, Void> echo = echoFlow(telemetry);
      echo.run("hi");
      assertThat(telemetry.flush(FLUSH)).isTrue();
    }

    List<JsonNode> posts = traces();
    assertThat(posts).hasSize(2);
    JsonNode started = onlySpan(posts.get(0));
    JsonNode ended = onlySpan(posts.get(1));
    assertThat(started.path("endTime").asDouble()).isZero();
    assertThat(started.path("attributes").path("genkit:name").asString()).isEqualTo("echo");
    assertThat(started.path("attributes").path("genkit:path").asString())
        .isEqualTo("/{echo,t:flow}");
    assertThat(ended.path("spanId")).isEqualTo(started.path("spanId"));
    assertThat(ended.path("endTime").asDouble())
        .isGreaterThanOrEqualTo(ended.path("startTime").asDouble())
        .isPositive();
    assertThat(ended.path("attributes").path("genkit:state").asString()).isEqualTo("success");
    assertThat(ended.path("attributes").path("genkit:isRoot").asBoolean()).isTrue();
    assertThat(ended.path("attributes").path("genkit:output").asString()).isEqualTo("\"hi\"");
    assertThat(ended.path("instrumentationLibrary").path("name").asString()).isEqualTo("baton");
    assertThat(ended.path("spanKind").asString()).isEqualTo("INTERNAL");
    assertThat(ended.path("status").path("code").asInt()).isZero();
    assertThat(ended.has("parentSpanId")).isFalse();
    JsonNode trace = posts.get(1);
    assertThat(trace.path("traceId")).isEqualTo(ended.path("traceId"));
    assertThat(trace.path("displayName").asString()).isEqualTo("echo");
    assertThat(trace.path("endTime")).isEqualTo(ended.path("endTime"));
  }

  @Test
  void withoutRealtimeEachSpanIsSentOnceWhenItEnds() {
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder().exportTimeout(FLUSH).genkitTelemetryServer(server.url()).build()) {
      echoFlow(telemetry).run("hi");
      assertThat(telemetry.flush(FLUSH)).isTrue();
    }
    List<JsonNode> posts = traces();
    assertThat(posts).hasSize(1);
    assertThat(onlySpan(posts.get(0)).path("endTime").asDouble()).isPositive();
  }

  @Test
  void inDevModeSpansWaitForTheServerTheCliAnnounces() {
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder()
            .exportTimeout(FLUSH)
            .environment(Map.of("GENKIT_ENV", "dev"))
            .build()) {
      Flow<String, String, Void> echo = echoFlow(telemetry);
      echo.run("dropped");
      assertThat(telemetry.flush(FLUSH)).isTrue();
      assertThat(traces()).isEmpty();

      assertThat(telemetry.useTelemetryServer(server.url())).isTrue();
      echo.run("sent");
      assertThat(telemetry.flush(FLUSH)).isTrue();
    }
    assertThat(traces()).hasSize(1);
  }

  @Test
  void theEnvironmentTurnsTheGenkitExportOnOnlyInDevMode() {
    String url = server.url().toString();
    try (BatonTelemetry production =
            BatonTelemetry.builder()
                .exportTimeout(FLUSH)
                .environment(Map.of("GENKIT_TELEMETRY_SERVER", url))
                .build();
        BatonTelemetry dev =
            BatonTelemetry.builder()
                .exportTimeout(FLUSH)
                .environment(
                    Map.of(
                        "GENKIT_ENV", "dev",
                        "GENKIT_TELEMETRY_SERVER", url,
                        "GENKIT_ENABLE_REALTIME_TELEMETRY", "true"))
                .build()) {
      echoFlow(production).run("not sent");
      assertThat(production.flush(FLUSH)).isTrue();
      assertThat(traces()).isEmpty();
      assertThat(production.useTelemetryServer(URI.create(url))).isFalse();

      echoFlow(dev).run("sent");
      assertThat(dev.flush(FLUSH)).isTrue();
      assertThat(traces()).as("started and ended").hasSize(2);
    }
  }

  @Test
  void otlpReceivesSpansAndTheGenAiMetricsOverTheJdkSender() {
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder()
            .exportTimeout(FLUSH)
            .environment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", server.url() + "/"))
            .serviceName("test-service")
            .build()) {
      Baton baton = Baton.builder().openTelemetry(telemetry).build();
      ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
      model.respond(answer(7, 3));
      baton.generate(GenerateOptions.builder().model("pm").prompt("hi").build());
      assertThat(telemetry.flush(FLUSH)).isTrue();
    }
    assertThat(server.requests("/v1/traces")).isNotEmpty();
    assertThat(server.requests("/v1/traces").get(0).contentType())
        .isEqualTo("application/x-protobuf");
    // Protobuf keeps strings as they are: the GenAI attribute names and the service name show.
    String spans = server.requests("/v1/traces").get(0).text();
    assertThat(spans).contains("gen_ai.request.model").contains("test-service");
    assertThat(server.requests("/v1/metrics")).isNotEmpty();
    assertThat(server.requests("/v1/metrics").get(0).text())
        .contains("gen_ai.client.token.usage")
        .contains("gen_ai.client.operation.duration");
  }

  @Test
  void otlpRequestsCarryTheHeadersOfTheEnvironmentAndTheBuilder() {
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder()
            .exportTimeout(FLUSH)
            .otlpHeader("x-tenant", "set first")
            .environment(
                Map.of(
                    "OTEL_EXPORTER_OTLP_ENDPOINT",
                    server.url().toString(),
                    "OTEL_EXPORTER_OTLP_HEADERS",
                    "api-key=s3cret%3D%2C, x-tenant = acme ,"))
            .otlpHeader("x-team", "agents")
            .build()) {
      Baton baton = Baton.builder().openTelemetry(telemetry).build();
      ProgrammableModel.define(baton.registry(), "pm").respond(answer(7, 3));
      baton.generate(GenerateOptions.builder().model("pm").prompt("hi").build());
      assertThat(telemetry.flush(FLUSH)).isTrue();
    }
    for (String path : List.of("/v1/traces", "/v1/metrics")) {
      assertThat(server.requests(path)).isNotEmpty();
      assertThat(server.requests(path).get(0).headers())
          .containsEntry("api-key", "s3cret=,")
          .containsEntry("x-tenant", "acme")
          .containsEntry("x-team", "agents");
    }
  }

  @Test
  void malformedOtlpHeadersAreRefusedWithoutQuotingTheirSecrets() {
    for (String headers : List.of("api-key", "=s3cret", "api-key=s3cret%zz")) {
      assertThatThrownBy(
              () ->
                  BatonTelemetry.builder()
                      .environment(Map.of("OTEL_EXPORTER_OTLP_HEADERS", headers)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("OTEL_EXPORTER_OTLP_HEADERS")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void extraExportersAndReadersSeeTheGenAiAttributesAndMetrics() {
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    try (BatonTelemetry telemetry =
        BatonTelemetry.builder()
            .exportTimeout(FLUSH)
            .addSpanExporter(spans)
            .addMetricReader(metrics)
            .build()) {
      Baton baton = Baton.builder().openTelemetry(telemetry).build();
      ProgrammableModel.define(baton.registry(), "pm").respond(answer(7, 3));
      baton.generate(GenerateOptions.builder().model("pm").prompt("hi").build());
      assertThat(telemetry.flush(FLUSH)).isTrue();

      SpanData call =
          spans.getFinishedSpanItems().stream()
              .filter(s -> s.getName().equals("pm"))
              .findFirst()
              .orElseThrow();
      assertThat(call.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name")))
          .isEqualTo("chat");
      assertThat(call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")))
          .isEqualTo(7);
      assertThat(metrics.collectAllMetrics())
          .extracting(MetricData::getName)
          .contains(
              "gen_ai.client.token.usage",
              "gen_ai.client.operation.duration",
              "baton.gen_ai.client.tokens",
              "baton.gen_ai.client.operations");
    }
  }

  private static ModelResponse answer(int in, int out) {
    return ModelResponse.of(Message.model("ok"), FinishReason.STOP)
        .withUsage(GenerationUsage.builder().inputTokens(in).outputTokens(out).build());
  }

  private static Flow<String, String, Void> echoFlow(BatonTelemetry telemetry) {
    Baton baton = Baton.builder().openTelemetry(telemetry).traceContent(true).build();
    return baton.defineFlow("echo", String.class, String.class, (ctx, in) -> in);
  }

  private List<JsonNode> traces() {
    return server.requests("/api/traces").stream()
        .peek(r -> assertThat(r.contentType()).isEqualTo("application/json"))
        .map(r -> Json.parse(r.text()))
        .toList();
  }

  private static JsonNode onlySpan(JsonNode trace) {
    assertThat(trace.path("spans").size()).as("spans in %s", trace).isEqualTo(1);
    return trace.path("spans").values().iterator().next();
  }
}
