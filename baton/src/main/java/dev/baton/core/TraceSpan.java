package dev.baton.core;

import io.opentelemetry.api.trace.Span;
import org.jspecify.annotations.Nullable;

/**
 * The span of one action run, as the action's code sees it through {@link ActionContext#span()}. It
 * lets the code add Genkit attributes ({@code genkit:metadata:agent:sessionId}) and replace the
 * recorded output. All methods are cheap no-ops when the span is not recorded.
 *
 * <p>Thread-safe as far as the OpenTelemetry span is.
 */
public final class TraceSpan {
  private final Span span;
  private final String path;
  private volatile @Nullable Object outputOverride;
  private volatile boolean outputOverridden;

  TraceSpan(Span span, String path) {
    this.span = span;
    this.path = path;
  }

  /** Whether the span is recorded; skip building costly attribute values when it is not. */
  public boolean isRecording() {
    return span.isRecording();
  }

  /** Sets a raw attribute. */
  public void setAttribute(String key, String value) {
    span.setAttribute(key, value);
  }

  /** Sets {@code genkit:metadata:<key>}, the form Genkit's tools read span metadata in. */
  public void setMetadata(String key, String value) {
    if (span.isRecording()) {
      span.setAttribute("genkit:metadata:" + key, value);
    }
  }

  /** Records this value as the span's {@code genkit:output} instead of the action's result. */
  public void setOutput(@Nullable Object output) {
    this.outputOverride = output;
    this.outputOverridden = true;
  }

  /**
   * The Genkit path of this span, such as {@code /{chat,t:action,s:agent}/{runTurn-1,t:flowStep}}.
   */
  public String path() {
    return path;
  }

  Span otelSpan() {
    return span;
  }

  boolean outputOverridden() {
    return outputOverridden;
  }

  @Nullable Object outputOverride() {
    return outputOverride;
  }
}
