package dev.baton.internal.core;

import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Opens OpenTelemetry spans around action runs with the attributes Genkit's tools read: {@code
 * genkit:type}, {@code genkit:metadata:subtype}, {@code genkit:name}, {@code genkit:key} (an
 * action's registry key, such as {@code /flow/echo}), {@code genkit:path}, {@code genkit:isRoot},
 * {@code genkit:input}, {@code genkit:output} and {@code genkit:state}.
 *
 * <p>Baton depends on the OpenTelemetry API only: with no SDK installed every span is a no-op.
 * Inputs and outputs ({@code genkit:input}, {@code genkit:output}) are recorded only when content
 * recording is on, because writing them as JSON costs more than the span itself and puts prompts
 * and answers into traces; Genkit's dev tools want them, production usually does not.
 *
 * <p>Tracing {@linkplain #noop() off} (an instance without OpenTelemetry) builds nothing for spans:
 * no span, no path, no context carrying them. Callers on hot paths check {@link #isEnabled()} to
 * skip building span names and recorded values as well. Thread-safe.
 */
public final class Tracing {
  /**
   * The OpenTelemetry context a root action context was created in: the parent of its first span.
   */
  public static final ContextKey<Context> PARENT =
      ContextKey.of("baton.traceParent", Context.class);

  private static final String INSTRUMENTATION = "baton";

  // Attribute keys built once: the SDK's String overloads build a new key on every call, several
  // per span. A holder class, so that tracing off never loads them.
  private static final class Keys {
    static final AttributeKey<String> NAME = AttributeKey.stringKey("genkit:name");
    static final AttributeKey<String> TYPE = AttributeKey.stringKey("genkit:type");
    static final AttributeKey<String> KEY = AttributeKey.stringKey("genkit:key");
    static final AttributeKey<String> PATH = AttributeKey.stringKey("genkit:path");
    static final AttributeKey<String> SUBTYPE = AttributeKey.stringKey("genkit:metadata:subtype");
    static final AttributeKey<Boolean> IS_ROOT = AttributeKey.booleanKey("genkit:isRoot");
    static final AttributeKey<String> INPUT = AttributeKey.stringKey("genkit:input");
    static final AttributeKey<String> OUTPUT = AttributeKey.stringKey("genkit:output");
    static final AttributeKey<String> STATE = AttributeKey.stringKey("genkit:state");
    static final AttributeKey<Boolean> IS_FAILURE_SOURCE =
        AttributeKey.booleanKey("genkit:isFailureSource");
  }

  private final OpenTelemetry openTelemetry;
  private final Tracer tracer;
  private final GenAiTelemetry genAi;
  private final boolean recordContent;
  private final boolean enabled;
  // Errors already marked as the failure source, so the spans they unwind through are not.
  private final Set<Throwable> failureSources =
      Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private Tracing(OpenTelemetry openTelemetry, boolean recordContent, boolean enabled) {
    this.openTelemetry = openTelemetry;
    this.tracer = openTelemetry.getTracer(INSTRUMENTATION);
    this.genAi = new GenAiTelemetry(openTelemetry, enabled);
    this.recordContent = recordContent;
    this.enabled = enabled;
  }

  /**
   * Tracing that records nothing, spans and metrics alike, and builds nothing for them. A new
   * instance each time: instances share no state.
   */
  public static Tracing noop() {
    return new Tracing(OpenTelemetry.noop(), false, false);
  }

  /**
   * Tracing through the given OpenTelemetry instance (an SDK, or {@code GlobalOpenTelemetry}).
   *
   * @param recordContent whether spans carry their input and output as JSON
   */
  public static Tracing of(OpenTelemetry openTelemetry, boolean recordContent) {
    return new Tracing(openTelemetry, recordContent, true);
  }

  /**
   * Whether spans are opened at all. When they are not, {@link #inSpan} runs its body in the
   * caller's context and {@link #open} returns a span that records nothing, so a caller may skip
   * building a span's name or input.
   */
  public boolean isEnabled() {
    return enabled;
  }

  /** The OpenTelemetry instance spans and metrics go to (a no-op one by default). */
  public OpenTelemetry openTelemetry() {
    return openTelemetry;
  }

  /** The GenAI metrics of this instance. */
  public GenAiTelemetry genAi() {
    return genAi;
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
    if (!enabled) {
      return body.apply(untraced(parent));
    }
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
    if (!enabled) {
      return new OpenSpan(TraceSpan.NONE, untraced(parent), false, failureSources);
    }
    TraceSpan parentSpan = TraceSpan.of(parent);
    Context parentContext =
        parentSpan != null ? parentSpan.otelContext() : parent.get(PARENT).orElseGet(Context::root);
    String path =
        (parentSpan == null ? "" : parentSpan.path()) + "/" + segment(name, genkitType, subtype);
    RootSpanHooks hooks = parentSpan == null ? parent.get(RootSpanHooks.KEY).orElse(null) : null;
    SpanBuilder builder = tracer.spanBuilder(name).setParent(parentContext);
    return start(
        parent,
        builder,
        parentContext,
        path,
        parentSpan == null,
        hooks,
        name,
        genkitType,
        subtype,
        input);
  }

  /**
   * Opens the root span of a new trace for work that goes on in the background after the context's
   * span was answered for (a detached agent run): the span links to the context's span, its launch,
   * rather than nesting under it, so the launching trace can end while the work goes on. The body
   * gets a copy of {@code parent} carrying the new span.
   */
  public OpenSpan openLinked(
      ActionContext parent,
      String name,
      String genkitType,
      @Nullable String subtype,
      Supplier<@Nullable Object> input) {
    if (!enabled) {
      return new OpenSpan(TraceSpan.NONE, parent, false, failureSources);
    }
    TraceSpan launch = TraceSpan.of(parent);
    SpanBuilder builder = tracer.spanBuilder(name).setNoParent();
    if (launch != null) {
      builder.addLink(launch.otelSpan().getSpanContext());
    }
    String path = "/" + segment(name, genkitType, subtype);
    return start(
        parent, builder, Context.root(), path, true, null, name, genkitType, subtype, input);
  }

  /**
   * Starts a span with Genkit's attributes. They are set on the builder, so an exporter that sends
   * spans as they start (Genkit's real-time mode) already sees them.
   */
  private OpenSpan start(
      ActionContext parent,
      SpanBuilder builder,
      Context parentContext,
      String path,
      boolean root,
      @Nullable RootSpanHooks hooks,
      String name,
      String genkitType,
      @Nullable String subtype,
      Supplier<@Nullable Object> input) {
    builder
        .setAttribute(Keys.NAME, name)
        .setAttribute(Keys.TYPE, genkitType)
        .setAttribute(Keys.PATH, root || subtype == null ? path : withSubtype(path, subtype));
    if (subtype != null) {
      builder.setAttribute(Keys.SUBTYPE, subtype);
      if (genkitType.equals("action")) {
        // As Genkit JS labels every action's span, the root's and those nested below it alike.
        ActionType.fromWireName(subtype)
            .ifPresent(type -> builder.setAttribute(Keys.KEY, type.key(name)));
      }
    }
    if (root) {
      builder.setAttribute(Keys.IS_ROOT, true);
    }
    if (hooks != null) {
      hooks.attributes().forEach(builder::setAttribute);
    }
    Span span = builder.startSpan();
    TraceSpan traceSpan = new TraceSpan(span, path, parentContext.with(span));
    if (recordContent && span.isRecording()) {
      span.setAttribute(Keys.INPUT, toJson(input.get()));
    }
    if (hooks != null) {
      SpanContext ids = span.getSpanContext();
      hooks.onStart().accept(ids.getTraceId(), ids.getSpanId());
    }
    return new OpenSpan(
        traceSpan, parent.with(TraceSpan.KEY, traceSpan), recordContent, failureSources);
  }

  /**
   * The context work gets in place of a span's when tracing is off: the caller's, unless it carries
   * {@link RootSpanHooks}, which are told all-zero IDs (as OpenTelemetry's no-op spans have) and
   * leave the context, since only the first span under them is a root. For callers that skip {@link
   * #inSpan} when {@link #isEnabled()} is false.
   */
  public ActionContext untraced(ActionContext parent) {
    RootSpanHooks hooks = parent.get(RootSpanHooks.KEY).orElse(null);
    if (hooks == null) {
      return parent;
    }
    SpanContext none = SpanContext.getInvalid();
    hooks.onStart().accept(none.getTraceId(), none.getSpanId());
    return parent.without(RootSpanHooks.KEY);
  }

  /**
   * A span's segment of the path its children extend, as Genkit JS's {@code buildPath} writes it: a
   * flow's type is {@code flow}, and no subtype, which {@link #withSubtype} adds to the {@code
   * genkit:path} attribute of a span that is not a root.
   */
  private static String segment(String name, String genkitType, @Nullable String subtype) {
    return "{" + name + ",t:" + ("flow".equals(subtype) ? "flow" : genkitType) + "}";
  }

  /**
   * The path with {@code ,s:<subtype>} in its last segment (Genkit JS's decoratePathWithSubtype).
   */
  private static String withSubtype(String path, String subtype) {
    return path.substring(0, path.length() - 1) + ",s:" + subtype + "}";
  }

  /** A span opened by {@link #open}; ending it twice has no further effect. */
  public static final class OpenSpan {
    private final TraceSpan span;
    private final ActionContext context;
    private final boolean recordContent;
    private final Set<Throwable> failureSources;
    private static final AtomicIntegerFieldUpdater<OpenSpan> ENDED =
        AtomicIntegerFieldUpdater.newUpdater(OpenSpan.class, "ended");
    // 1 once ended; a field updater rather than an AtomicBoolean, one object less per span.
    private volatile int ended;

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

    /**
     * Records a value as a JSON attribute, such as an agent's {@code genkit:init}, when content
     * recording is on; the value is built only then.
     */
    public void recordContent(String key, Supplier<@Nullable Object> value) {
      Span otel = span.otelSpan();
      if (recordContent && otel.isRecording()) {
        otel.setAttribute(key, toJson(value.get()));
      }
    }

    /** Ends the span as a success, recording the output (unless the work replaced it). */
    public void succeed(@Nullable Object output) {
      if (!ENDED.compareAndSet(this, 0, 1)) {
        return;
      }
      Span otel = span.otelSpan();
      if (otel.isRecording()) {
        if (recordContent) {
          Object recorded = span.outputOverridden() ? span.outputOverride() : output;
          otel.setAttribute(Keys.OUTPUT, toJson(recorded));
        }
        otel.setAttribute(Keys.STATE, "success");
      }
      otel.end();
    }

    /** Ends the span as a failure. */
    public void fail(Throwable error) {
      if (!ENDED.compareAndSet(this, 0, 1)) {
        return;
      }
      Span otel = span.otelSpan();
      if (otel.isRecording()) {
        otel.setAttribute(Keys.STATE, "error");
        if (failureSources.add(error)) {
          otel.setAttribute(Keys.IS_FAILURE_SOURCE, true);
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
