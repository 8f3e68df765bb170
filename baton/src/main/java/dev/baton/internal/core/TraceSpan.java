package dev.baton.internal.core;

import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import org.jspecify.annotations.Nullable;

/**
 * The span of one action run, carried on its context ({@link #of}). It lets the code add Genkit
 * attributes ({@code genkit:metadata:agent:sessionId}) and replace the recorded output. All methods
 * are cheap no-ops when the span is not recorded.
 *
 * <p>Thread-safe as far as the OpenTelemetry span is.
 */
public final class TraceSpan {
  /** The context attribute the current span is carried in. */
  static final ContextKey<TraceSpan> KEY = ContextKey.of("baton.span", TraceSpan.class);

  /** The span of work that tracing off does not record: every method is a no-op. */
  static final TraceSpan NONE = new TraceSpan(Span.getInvalid(), "", null);

  private final Span span;
  private final String path;
  // Null for NONE only: reading even the root context starts OpenTelemetry's context storage (and
  // java.util.logging with it), which tracing off never needs.
  private final @Nullable Context otelContext;
  private volatile @Nullable Object outputOverride;
  private volatile boolean outputOverridden;

  TraceSpan(Span span, String path, @Nullable Context otelContext) {
    this.span = span;
    this.path = path;
    this.otelContext = otelContext;
  }

  /** The span of the action a context belongs to, or null outside any action. */
  public static @Nullable TraceSpan of(ActionContext context) {
    return context.get(KEY).orElse(null);
  }

  /** Whether the span is recorded; skip building costly attribute values when it is not. */
  public boolean isRecording() {
    return span.isRecording();
  }

  /** Sets a raw attribute. */
  public void setAttribute(String key, String value) {
    span.setAttribute(key, value);
  }

  /** Sets a typed attribute (the {@code gen_ai.*} ones), if the span is recorded. */
  public <T> void set(AttributeKey<T> key, T value) {
    if (span.isRecording()) {
      span.setAttribute(key, value);
    }
  }

  /** Sets {@code genkit:metadata:<key>}, the form Genkit's tools read span metadata in. */
  public void setMetadata(String key, String value) {
    if (span.isRecording()) {
      span.setAttribute("genkit:metadata:" + key, value);
    }
  }

  /** Records this value as the span's {@code genkit:output} instead of the action's result. */
  public void setOutput(@Nullable Object output) {
    if (!span.isRecording()) {
      return;
    }
    this.outputOverride = output;
    this.outputOverridden = true;
  }

  /**
   * The Genkit path of this span that its children's paths extend, such as {@code
   * /{chat,t:action}/{runTurn-1,t:flowStep}}: as in Genkit JS, it leaves out the subtype ({@code
   * ,s:model}) that the span's {@code genkit:path} attribute adds to its last segment.
   */
  public String path() {
    return path;
  }

  Span otelSpan() {
    return span;
  }

  /**
   * The OpenTelemetry context whose current span is this one: the parent of child spans. Public for
   * Baton's own modules (the package is not exported to users), such as the benchmarks that open a
   * bare SDK span beside a Baton one.
   */
  public Context otelContext() {
    return otelContext == null ? Context.root() : otelContext;
  }

  boolean outputOverridden() {
    return outputOverridden;
  }

  @Nullable Object outputOverride() {
    return outputOverride;
  }
}
