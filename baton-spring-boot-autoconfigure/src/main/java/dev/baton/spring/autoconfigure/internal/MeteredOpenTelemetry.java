package dev.baton.spring.autoconfigure.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.logs.LoggerProvider;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.propagation.ContextPropagators;

/**
 * An {@link OpenTelemetry} whose spans and logs are another's and whose metrics go to a meter
 * provider of their own: Spring Boot sends an application's metrics through Micrometer, not through
 * its {@code OpenTelemetry} bean, so Baton's metrics follow them there while its spans stay with
 * the application's tracer.
 *
 * @param tracing where spans, propagation and logs go: the application's {@code OpenTelemetry}, or
 *     {@link OpenTelemetry#noop()} when it has none
 * @param meterProvider where metrics go
 */
public record MeteredOpenTelemetry(OpenTelemetry tracing, MeterProvider meterProvider)
    implements OpenTelemetry {

  @Override
  public TracerProvider getTracerProvider() {
    return tracing.getTracerProvider();
  }

  @Override
  public MeterProvider getMeterProvider() {
    return meterProvider;
  }

  @Override
  public LoggerProvider getLogsBridge() {
    return tracing.getLogsBridge();
  }

  @Override
  public ContextPropagators getPropagators() {
    return tracing.getPropagators();
  }
}
