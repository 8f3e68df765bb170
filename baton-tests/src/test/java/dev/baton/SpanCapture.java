package dev.baton;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

/** OpenTelemetry for the tests that read the spans a Baton writes. */
public final class SpanCapture {
  private SpanCapture() {}

  /** An SDK that hands each span to the exporter as it ends, so a test reads it at once. */
  public static OpenTelemetrySdk exportingTo(SpanExporter exporter) {
    return OpenTelemetrySdk.builder()
        .setTracerProvider(
            SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build())
        .build();
  }
}
