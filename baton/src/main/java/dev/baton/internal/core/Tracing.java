package dev.baton.internal.core;

import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Opens OpenTelemetry spans around action runs with the attributes Genkit's tools read: {@code
 * genkit:type}, {@code genkit:metadata:subtype}, {@code genkit:name}, {@code genkit:path}, {@code
 * genkit:isRoot}, {@code genkit:input}, {@code genkit:output} and {@code genkit:state}.
 *
 * <p>Baton depends on the OpenTelemetry API only: with no SDK installed every span is a no-op.
 * Inputs and outputs ({@code genkit:input}, {@code genkit:output}) are recorded only when content
 * recording is on, because writing them as JSON costs more than the span itself and puts prompts
 * and answers into traces; Genkit's dev tools want them, production usually does not. Thread-safe.
 */
public final class Tracing {
  /**
   * The OpenTelemetry context a root action context was created in: the parent of its first span.
   */
  public static final ContextKey<Context> PARENT =
      ContextKey.of("baton.traceParent", Context.class);

  private static final String INSTRUMENTATION = "baton";

  private final Tracer tracer;
  private final boolean recordContent;
  // Errors already marked as the failure source, so the spans they unwind through are not.
  private final Set<Throwable> failureSources =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private Tracing(OpenTelemetry openTelemetry, boolean recordContent) {
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
    this.recordContent = recordContent;
  }

  /** Tracing that records nothing. A new instance each time: instances share no state. */
  public static Tracing noop() {
    return new Tracing(OpenTelemetry.noop(), false);
  }

  /**
   * Tracing through the given OpenTelemetry instance (an SDK, or {@code GlobalOpenTelemetry}).
   *
   * @param recordContent whether spans carry their input and output as JSON
   */
  public static Tracing of(OpenTelemetry openTelemetry, boolean recordContent) {
    return new Tracing(openTelemetry, recordContent);
  }

  /**
   * Runs a body inside a new span that is a child of the context's span.
   *
   * @param parent the caller's context; the body gets a copy carrying the new span
   * @param name the span name (an action name, {@code runTurn-1}, {@code generate})
   * @param genkitType {@code action}, {@code flowStep} or {@code util}
   * @param subtype the action type for actions ({@code model}, {@code agent}), or null
   * @param input the recorded input, built only if the span is recorded
   * @param body the work; its result is the recorded output unless it calls {@link
   *     TraceSpan#setOutput}
   */
  public <T> T inSpan(
      ActionContext parent,
      String name,
      String genkitType,
      @Nullable String subtype,
      Supplier<@Nullable Object> input,
      Function<ActionContext, T> body) {
    OpenSpan span = open(parent, name, genkitType, subtype, input);
    try {
      T result = body.apply(span.context());
      span.succeed(result);
      return result;
    } catch (RuntimeException | Error e) {
      span.fail(e);
      throw e;
    }
  }

  /**
   * Opens a span for work that outlives one method call, such as an agent invocation that streams
   * over a connection. End it with {@link OpenSpan#succeed} or {@link OpenSpan#fail}.
   */
  public OpenSpan open(
      ActionContext parent,
      String name,
      String genkitType,
      @Nullable String subtype,
      Supplier<@Nullable Object> input) {
    TraceSpan parentSpan = TraceSpan.of(parent);
    Context parentContext =
        parentSpan != null ? parentSpan.otelContext() : parent.get(PARENT).orElseGet(Context::root);
    String segment =
        "{" + name + ",t:" + genkitType + (subtype == null ? "" : ",s:" + subtype) + "}";
    String path = (parentSpan == null ? "" : parentSpan.path()) + "/" + segment;
    Span span = tracer.spanBuilder(name).setParent(parentContext).startSpan();
    TraceSpan traceSpan = new TraceSpan(span, path, parentContext.with(span));
    if (span.isRecording()) {
      span.setAttribute("genkit:name", name);
      span.setAttribute("genkit:type", genkitType);
      span.setAttribute("genkit:path", path);
      if (subtype != null) {
        span.setAttribute("genkit:metadata:subtype", subtype);
      }
      if (parentSpan == null) {
        span.setAttribute("genkit:isRoot", true);
      }
      if (recordContent) {
        span.setAttribute("genkit:input", toJson(input.get()));
      }
    }
    return new OpenSpan(
        traceSpan, parent.with(TraceSpan.KEY, traceSpan), recordContent, failureSources);
  }

  /** A span opened by {@link #open}; ending it twice has no further effect. */
  public static final class OpenSpan {
    private final TraceSpan span;
    private final ActionContext context;
    private final boolean recordContent;
    private final Set<Throwable> failureSources;
    private final AtomicBoolean ended = new AtomicBoolean();

    private OpenSpan(
        TraceSpan span,
        ActionContext context,
        boolean recordContent,
        Set<Throwable> failureSources) {
      this.span = span;
      this.context = context;
      this.recordContent = recordContent;
      this.failureSources = failureSources;
    }

    /** The context carrying this span, for the work inside it. */
    public ActionContext context() {
      return context;
    }

    public TraceSpan span() {
      return span;
    }

    /** Ends the span as a success, recording the output (unless the work replaced it). */
    public void succeed(@Nullable Object output) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      Span otel = span.otelSpan();
      if (otel.isRecording()) {
        if (recordContent) {
          Object recorded = span.outputOverridden() ? span.outputOverride() : output;
          otel.setAttribute("genkit:output", toJson(recorded));
        }
        otel.setAttribute("genkit:state", "success");
      }
      otel.end();
    }

    /** Ends the span as a failure. */
    public void fail(Throwable error) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      Span otel = span.otelSpan();
      if (otel.isRecording()) {
        otel.setAttribute("genkit:state", "error");
        if (failureSources.add(error)) {
          otel.setAttribute("genkit:isFailureSource", true);
        }
        otel.setStatus(StatusCode.ERROR, String.valueOf(error.getMessage()));
        otel.recordException(error);
      }
      otel.end();
    }
  }

  private static String toJson(@Nullable Object value) {
    try {
      return Json.write(value);
    } catch (RuntimeException e) {
      // A value that cannot be written must not fail the action it describes.
      return "\"<unserializable " + (value == null ? "null" : value.getClass().getName()) + ">\"";
    }
  }
}
