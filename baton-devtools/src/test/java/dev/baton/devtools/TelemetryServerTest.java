package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.otel.BatonTelemetry;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Where a run's spans go: to the telemetry server the CLI announces through {@code /api/notify},
 * unless {@code GENKIT_TELEMETRY_SERVER} names one, which wins as in Genkit JS and Go; in both
 * cases the spans are there when the run answers.
 */
class TelemetryServerTest {
  @TempDir Path project;
  private final FakeHttpServer announced = FakeHttpServer.start();
  private final FakeHttpServer configured = FakeHttpServer.start();
  private final AtomicInteger metricFlushes = new AtomicInteger();

  @AfterEach
  void stop() {
    announced.close();
    configured.close();
  }

  @Test
  void spansGoToTheServerTheCliAnnounces() throws Exception {
    JsonNode trace = runWithNotify(Map.of());
    assertThat(configured.requests()).isEmpty();
    assertThat(announced.requests()).isNotEmpty();
    assertThat(Json.parse(announced.request(0).body()).path("traceId").asString())
        .isEqualTo(trace.path("telemetry").path("traceId").asString());
  }

  @Test
  void aServerNamedInTheEnvironmentWinsOverTheAnnouncedOne() throws Exception {
    JsonNode trace =
        runWithNotify(Map.of("GENKIT_TELEMETRY_SERVER", configured.baseUrl().toString()));
    assertThat(announced.requests()).isEmpty();
    assertThat(configured.requests()).isNotEmpty();
    assertThat(Json.parse(configured.request(0).body()).path("traceId").asString())
        .isEqualTo(trace.path("telemetry").path("traceId").asString());
  }

  @Test
  void aRunWaitsForTheTelemetryServerAloneNotForTheMetricsOrOtherExports() throws Exception {
    runWithNotify(Map.of());
    assertThat(announced.requests()).isNotEmpty();
    assertThat(metricFlushes).hasValue(0);
  }

  /** Notifies the announced server, runs a flow, and returns the run's answer. */
  private JsonNode runWithNotify(Map<String, String> extraEnv) throws Exception {
    for (int i = 0; i < 4; i++) {
      announced.reply(Reply.json("{}"));
      configured.reply(Reply.json("{}"));
    }
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("GENKIT_ENV", "dev");
    env.put("GENKIT_REFLECTION_PORT", "0");
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    try (BatonTelemetry telemetry =
            BatonTelemetry.builder().environment(env).addMetricReader(new FlushCounter()).build();
        DevTools devTools = DevTools.start(DevApp.define(telemetry), env, project)) {
      ReflectionClient client = new ReflectionClient(devTools.url().orElseThrow());
      HttpResponse<String> notified =
          client.post(
              "/api/notify",
              Json.object()
                  .put("telemetryServerUrl", announced.baseUrl().toString())
                  .put("reflectionApiSpecVersion", 1));
      assertThat(notified.statusCode()).isEqualTo(200);
      // No waiting: the run flushes its spans before it answers.
      return client.json(
          client.post("/api/runAction", Json.object().put("key", "/flow/echo").put("input", "x")));
    }
  }

  /** A metric reader that counts the flushes asked of it, and reads nothing. */
  private final class FlushCounter implements MetricReader {
    @Override
    public void register(CollectionRegistration registration) {}

    @Override
    public CompletableResultCode forceFlush() {
      metricFlushes.incrementAndGet();
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType type) {
      return AggregationTemporality.CUMULATIVE;
    }
  }
}
