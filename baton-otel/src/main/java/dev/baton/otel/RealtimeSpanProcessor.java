package dev.baton.otel;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.List;

/**
 * Exports every span twice, as Genkit JS's real-time processor does: when it starts (not ended, so
 * written with {@code endTime} 0 and the attributes set so far) and when it ends. The Dev UI then
 * shows a run's spans as they open. Thread-safe, as the exporter is.
 */
final class RealtimeSpanProcessor implements SpanProcessor {
  private final SpanExporter exporter;

  RealtimeSpanProcessor(SpanExporter exporter) {
    this.exporter = exporter;
  }

  @Override
  public void onStart(Context parentContext, ReadWriteSpan span) {
    if (span.getSpanContext().isSampled()) {
      exporter.export(List.of(span.toSpanData()));
    }
  }

  @Override
  public boolean isStartRequired() {
    return true;
  }

  @Override
  public void onEnd(ReadableSpan span) {
    if (span.getSpanContext().isSampled()) {
      exporter.export(List.of(span.toSpanData()));
    }
  }

  @Override
  public boolean isEndRequired() {
    return true;
  }

  @Override
  public CompletableResultCode forceFlush() {
    return exporter.flush();
  }

  @Override
  public CompletableResultCode shutdown() {
    return exporter.shutdown();
  }
}
