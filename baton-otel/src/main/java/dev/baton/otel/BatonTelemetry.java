package dev.baton.otel;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.LoggerProvider;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProviderBuilder;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The OpenTelemetry SDK set up for Baton: pass it to {@code Baton.builder().openTelemetry(...)}.
 *
 * <pre>{@code
 * BatonTelemetry telemetry = BatonTelemetry.fromEnvironment();
 * Baton baton = Baton.builder().openTelemetry(telemetry).build();
 * ...
 * telemetry.close(); // flushes what is still buffered
 * }</pre>
 *
 * <p>It exports to two kinds of target, each optional:
 *
 * <ul>
 *   <li><b>Genkit's telemetry server</b>, where {@code genkit start} and the Dev UI read traces:
 *       spans with Baton's {@code genkit:*} attributes, POSTed as Genkit's {@code TraceData}. In
 *       real-time mode every span is sent when it starts (with {@code endTime} 0) and again when it
 *       ends, so the Dev UI follows a run live; otherwise once, when it ends. The server is the one
 *       {@code GENKIT_TELEMETRY_SERVER} names, or the one the CLI announces later through the
 *       reflection API (see {@link #useTelemetryServer}).
 *   <li><b>An OTLP endpoint</b> (OTLP over HTTP, protobuf, sent by the JDK HttpClient): spans,
 *       batched, and metrics, among them the GenAI token and duration metrics, with the headers a
 *       backend asks for (an API key, say).
 * </ul>
 *
 * <p>Spans also carry OpenTelemetry's GenAI attributes ({@code gen_ai.*}), which Baton sets through
 * the OpenTelemetry API whatever SDK is installed. Thread-safe.
 */
public final class BatonTelemetry implements OpenTelemetry, AutoCloseable {
  private final OpenTelemetrySdk sdk;
  private final @Nullable TelemetryServerExporter telemetryServer;

  private BatonTelemetry(OpenTelemetrySdk sdk, @Nullable TelemetryServerExporter telemetryServer) {
    this.sdk = sdk;
    this.telemetryServer = telemetryServer;
  }

  /**
   * Telemetry configured from the environment, as {@link Builder#environment} describes: Genkit's
   * telemetry server in dev mode ({@code GENKIT_ENV=dev}), an OTLP endpoint when {@code
   * OTEL_EXPORTER_OTLP_ENDPOINT} is set, the service name from {@code OTEL_SERVICE_NAME}.
   */
  public static BatonTelemetry fromEnvironment() {
    return builder().environment(System.getenv()).build();
  }

  /** A builder that exports nowhere until told where. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public TracerProvider getTracerProvider() {
    return sdk.getTracerProvider();
  }

  @Override
  public MeterProvider getMeterProvider() {
    return sdk.getMeterProvider();
  }

  @Override
  public LoggerProvider getLogsBridge() {
    return sdk.getLogsBridge();
  }

  @Override
  public ContextPropagators getPropagators() {
    return sdk.getPropagators();
  }

  /**
   * Sends spans to the Genkit telemetry server at this URL from now on. Genkit's reflection API
   * calls it when the CLI announces its server ({@code POST /api/notify}), unless {@code
   * GENKIT_TELEMETRY_SERVER} is set. Does nothing when this instance was built without the Genkit
   * export (outside dev mode, unless {@link Builder#genkitTelemetryServer} asked for it).
   *
   * @return whether the Genkit export is on, so the URL is used
   */
  public boolean useTelemetryServer(URI url) {
    Objects.requireNonNull(url, "url");
    if (telemetryServer == null) {
      return false;
    }
    telemetryServer.target(url);
    return true;
  }

  /**
   * Exports every span ended so far, and the metrics collected so far, to every target, waiting at
   * most {@code timeout}.
   *
   * @return whether everything was sent in time
   */
  public boolean flush(Duration timeout) {
    CompletableResultCode result =
        CompletableResultCode.ofAll(
            List.of(
                sdk.getSdkTracerProvider().forceFlush(), sdk.getSdkMeterProvider().forceFlush()));
    return result.join(timeout.toMillis(), TimeUnit.MILLISECONDS).isSuccess();
  }

  /**
   * Waits at most {@code timeout} until the spans handed to the Genkit telemetry server so far are
   * sent, leaving other exporters and the metrics to their own schedules. Genkit's reflection API
   * calls it before it answers a run, so that the trace is in the telemetry server when the CLI
   * asks for it, without waiting for an OTLP backend.
   *
   * @return whether they were sent in time; true when this instance has no Genkit export
   */
  public boolean flushTelemetryServer(Duration timeout) {
    return telemetryServer == null
        || telemetryServer.flush().join(timeout.toMillis(), TimeUnit.MILLISECONDS).isSuccess();
  }

  /** Flushes and shuts the SDK down; spans started afterwards are dropped. Idempotent. */
  @Override
  public void close() {
    sdk.shutdown().join(10, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return "BatonTelemetry[genkit=" + (telemetryServer != null) + "]";
  }

  /** Configures a {@link BatonTelemetry}. Not thread-safe; build once. */
  public static final class Builder {
    private boolean genkitExport;
    private @Nullable URI genkitTelemetryServer;
    private boolean realtime;
    private @Nullable URI otlpEndpoint;
    private final Map<String, String> otlpHeaders = new LinkedHashMap<>();
    private Duration metricInterval = Duration.ofSeconds(60);
    private @Nullable Duration exportTimeout;
    private String serviceName = "baton";
    private final List<SpanExporter> spanExporters = new ArrayList<>();
    private final List<MetricReader> metricReaders = new ArrayList<>();

    private Builder() {}

    /**
     * Reads the configuration from environment variables, as {@code genkit start} and the
     * OpenTelemetry conventions set them:
     *
     * <ul>
     *   <li>{@code GENKIT_ENV=dev} turns on the Genkit export, to {@code GENKIT_TELEMETRY_SERVER}
     *       if set (otherwise to the server the CLI announces), live when {@code
     *       GENKIT_ENABLE_REALTIME_TELEMETRY=true};
     *   <li>{@code OTEL_EXPORTER_OTLP_ENDPOINT} is the OTLP base URL ({@code /v1/traces} and {@code
     *       /v1/metrics} are added), {@code OTEL_EXPORTER_OTLP_HEADERS} the headers sent with it
     *       ({@code key1=value1,key2=value2}, values percent-encoded, as OpenTelemetry specifies),
     *       and {@code OTEL_METRIC_EXPORT_INTERVAL} the metric export interval in milliseconds;
     *   <li>{@code OTEL_SERVICE_NAME} is the service name.
     * </ul>
     *
     * Variables that are absent leave the builder's settings as they are.
     *
     * @throws IllegalArgumentException when {@code OTEL_EXPORTER_OTLP_HEADERS} is not a list of
     *     {@code key=value} pairs
     */
    public Builder environment(Map<String, String> env) {
      if ("dev".equals(env.get("GENKIT_ENV"))) {
        genkitExport = true;
        String server = env.get("GENKIT_TELEMETRY_SERVER");
        if (server != null && !server.isBlank()) {
          genkitTelemetryServer = URI.create(server.strip());
        }
        realtime = "true".equals(env.get("GENKIT_ENABLE_REALTIME_TELEMETRY"));
      }
      String otlp = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
      if (otlp != null && !otlp.isBlank()) {
        otlpEndpoint = URI.create(otlp.strip());
      }
      String headers = env.get("OTEL_EXPORTER_OTLP_HEADERS");
      if (headers != null && !headers.isBlank()) {
        otlpHeaders.putAll(headerList(headers));
      }
      String interval = env.get("OTEL_METRIC_EXPORT_INTERVAL");
      if (interval != null && interval.strip().matches("\\d+")) {
        metricInterval = Duration.ofMillis(Long.parseLong(interval.strip()));
      }
      String service = env.get("OTEL_SERVICE_NAME");
      if (service != null && !service.isBlank()) {
        serviceName = service.strip();
      }
      return this;
    }

    /**
     * Exports spans to the Genkit telemetry server at this URL (for example {@code
     * http://localhost:4033}); null turns the Genkit export on with no server yet, so spans wait
     * for {@link BatonTelemetry#useTelemetryServer} and are dropped until then.
     */
    public Builder genkitTelemetryServer(@Nullable URI url) {
      this.genkitExport = true;
      this.genkitTelemetryServer = url;
      return this;
    }

    /**
     * Whether spans go to the Genkit telemetry server when they start as well as when they end, so
     * the Dev UI shows runs as they happen. Off by default.
     */
    public Builder realtime(boolean realtime) {
      this.realtime = realtime;
      return this;
    }

    /**
     * Exports spans and metrics over OTLP/HTTP to this base URL, such as {@code
     * http://localhost:4318}: spans to {@code /v1/traces}, metrics to {@code /v1/metrics}.
     */
    public Builder otlpEndpoint(URI endpoint) {
      this.otlpEndpoint = Objects.requireNonNull(endpoint, "endpoint");
      return this;
    }

    /**
     * Sends this header with every request to the OTLP endpoint, such as a backend's API key; a
     * header set twice keeps the last value.
     */
    public Builder otlpHeader(String name, String value) {
      otlpHeaders.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** How often metrics are sent to the OTLP endpoint; 60 seconds by default. */
    public Builder metricInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("the metric interval must be positive: " + interval);
      }
      this.metricInterval = interval;
      return this;
    }

    /**
     * How long one export may take, to the Genkit telemetry server (5 seconds unless set) and
     * through the batched exporters (the SDK's defaults unless set). Package-private: tests on a
     * loaded machine give it a generous ceiling, since a first POST from a cold JVM there can take
     * longer than the defaults, and the span it carried would be lost.
     */
    Builder exportTimeout(Duration timeout) {
      this.exportTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** The {@code service.name} resource attribute; {@code baton} by default. */
    public Builder serviceName(String serviceName) {
      this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
      return this;
    }

    /** Also exports spans here, batched: another backend, or an in-memory exporter in tests. */
    public Builder addSpanExporter(SpanExporter exporter) {
      spanExporters.add(Objects.requireNonNull(exporter, "exporter"));
      return this;
    }

    /** Also reads metrics with this reader: a Prometheus reader, or an in-memory one in tests. */
    public Builder addMetricReader(MetricReader reader) {
      metricReaders.add(Objects.requireNonNull(reader, "reader"));
      return this;
    }

    public BatonTelemetry build() {
      Resource resource =
          Resource.getDefault()
              .merge(
                  Resource.create(Attributes.builder().put("service.name", serviceName).build()));
      SdkTracerProviderBuilder tracing = SdkTracerProvider.builder().setResource(resource);
      TelemetryServerExporter genkit = null;
      if (genkitExport) {
        genkit =
            new TelemetryServerExporter(
                genkitTelemetryServer,
                exportTimeout != null ? exportTimeout : TelemetryServerExporter.TIMEOUT);
        tracing.addSpanProcessor(
            realtime ? new RealtimeSpanProcessor(genkit) : SimpleSpanProcessor.create(genkit));
      }
      List<SpanExporter> batched = new ArrayList<>(spanExporters);
      SdkMeterProviderBuilder metrics = SdkMeterProvider.builder().setResource(resource);
      metricReaders.forEach(metrics::registerMetricReader);
      if (otlpEndpoint != null) {
        var spanExporter = OtlpHttpSpanExporter.builder().setEndpoint(otlp("/v1/traces"));
        var metricExporter = OtlpHttpMetricExporter.builder().setEndpoint(otlp("/v1/metrics"));
        otlpHeaders.forEach(spanExporter::addHeader);
        otlpHeaders.forEach(metricExporter::addHeader);
        if (exportTimeout != null) {
          spanExporter.setTimeout(exportTimeout);
          metricExporter.setTimeout(exportTimeout);
        }
        batched.add(spanExporter.build());
        metrics.registerMetricReader(
            PeriodicMetricReader.builder(metricExporter.build())
                .setInterval(metricInterval)
                .build());
      }
      for (SpanExporter exporter : batched) {
        var processor = BatchSpanProcessor.builder(exporter);
        if (exportTimeout != null) {
          processor.setExporterTimeout(exportTimeout);
        }
        tracing.addSpanProcessor(processor.build());
      }
      OpenTelemetrySdk sdk =
          OpenTelemetrySdk.builder()
              .setTracerProvider(tracing.build())
              .setMeterProvider(metrics.build())
              .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
              .build();
      return new BatonTelemetry(sdk, genkit);
    }

    /**
     * {@code OTEL_EXPORTER_OTLP_HEADERS}: comma-separated {@code key=value} pairs, values
     * percent-decoded. The message never quotes the variable, which often holds a secret.
     */
    private static Map<String, String> headerList(String list) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (String pair : list.split(",", -1)) {
        if (pair.isBlank()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = eq < 0 ? "" : pair.substring(0, eq).strip();
        if (name.isEmpty()) {
          throw new IllegalArgumentException(
              "OTEL_EXPORTER_OTLP_HEADERS is not a list of key=value pairs");
        }
        try {
          headers.put(
              name, URLDecoder.decode(pair.substring(eq + 1).strip(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException badEscape) {
          throw new IllegalArgumentException(
              "OTEL_EXPORTER_OTLP_HEADERS has a value that is not percent-encoded: header " + name);
        }
      }
      return headers;
    }

    private String otlp(String path) {
      String base = String.valueOf(otlpEndpoint);
      return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    }
  }
}
