package dev.baton.internal.core;

import dev.baton.core.ContextKey;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * What a caller outside any span asks of the root span its call opens, carried on the context under
 * {@link #KEY}: extra attributes, and a callback told the span's trace and span IDs as soon as it
 * starts. Genkit's reflection API uses it to send {@code X-Genkit-Trace-Id} before the action ends
 * and to label the trace ({@code telemetryLabels}, {@code genkit:metadata:context}).
 *
 * <p>Only the first span opened under the context is a root; spans below it, and background spans
 * linked to it, ignore the hooks. The callback runs on the thread that opens the span, before the
 * action's work starts, so it must not block; the IDs are all zeros when no OpenTelemetry SDK is
 * installed.
 *
 * @param attributes set on the root span (copied)
 * @param onStart told {@code (traceId, spanId)} in lower-case hex
 */
public record RootSpanHooks(Map<String, String> attributes, BiConsumer<String, String> onStart) {
  /** The context attribute the hooks ride on. */
  public static final ContextKey<RootSpanHooks> KEY =
      ContextKey.of("baton.rootSpanHooks", RootSpanHooks.class);

  public RootSpanHooks {
    attributes = Map.copyOf(attributes);
  }
}
