/**
 * OpenTelemetry export for Baton: {@link dev.baton.otel.BatonTelemetry}, the OpenTelemetry SDK set
 * up for Genkit's telemetry server and for OTLP.
 */
module dev.baton.otel {
  requires transitive dev.baton;
  requires transitive io.opentelemetry.sdk.trace;
  requires transitive io.opentelemetry.sdk.metrics;
  requires io.opentelemetry.sdk;
  requires io.opentelemetry.sdk.common;
  requires io.opentelemetry.exporter.otlp;
  // The OTLP exporters find their HTTP sender through the service loader; requiring the JDK
  // sender resolves it on the module path, where nothing else would.
  requires io.opentelemetry.exporter.sender.jdk.internal;
  requires java.net.http;
  requires org.slf4j;

  exports dev.baton.otel;
}
