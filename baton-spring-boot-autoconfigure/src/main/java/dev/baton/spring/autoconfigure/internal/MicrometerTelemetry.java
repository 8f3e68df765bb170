package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.spring.autoconfigure.BatonCustomizer;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.contrib.metrics.micrometer.MicrometerMeterProvider;
import org.jspecify.annotations.Nullable;

/**
 * Gives the {@link Baton} bean an {@link OpenTelemetry} whose metrics land in the application's
 * Micrometer {@link MeterRegistry}, through OpenTelemetry's Micrometer-backed meter provider, and
 * whose spans go through the application's {@code OpenTelemetry} bean when it has one. The meter
 * provider closes with the context, after the instance.
 */
public final class MicrometerTelemetry implements BatonCustomizer, AutoCloseable {
  private final MicrometerMeterProvider meterProvider;
  private final OpenTelemetry openTelemetry;

  /**
   * @param registry where the metrics go
   * @param tracing the application's {@code OpenTelemetry}, or null when it has none: spans are
   *     then not recorded
   */
  public MicrometerTelemetry(MeterRegistry registry, @Nullable OpenTelemetry tracing) {
    this.meterProvider = MicrometerMeterProvider.builder(registry).build();
    this.openTelemetry =
        new MeteredOpenTelemetry(tracing != null ? tracing : OpenTelemetry.noop(), meterProvider);
  }

  @Override
  public void customize(Baton.Builder builder) {
    builder.openTelemetry(openTelemetry);
  }

  @Override
  public void close() {
    meterProvider.close();
  }
}
