package dev.baton.benchmarks;

import dev.baton.core.ActionContext;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Tracing;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one Baton span costs beyond a bare OpenTelemetry SDK span (the aim: at most 0.3 µs). Both
 * benchmarks open a child span under the same parent and end it, through the same SDK, whose span
 * processor hands every span synchronously to an exporter that counts it: the exporter always keeps
 * up, so no span is dropped, and the tear-down checks that every span opened was exported. The
 * Baton span carries Genkit's attributes (name, type, path, subtype) and the context copy its body
 * gets.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TracingBenchmark {
  private static final AttributeKey<String> NAME = AttributeKey.stringKey("genkit:name");
  private static final AttributeKey<String> TYPE = AttributeKey.stringKey("genkit:type");
  private static final AttributeKey<String> PATH = AttributeKey.stringKey("genkit:path");
  private static final AttributeKey<String> SUBTYPE =
      AttributeKey.stringKey("genkit:metadata:subtype");
  private static final AttributeKey<String> STATE = AttributeKey.stringKey("genkit:state");

  private final Fixtures.CountingExporter exporter = new Fixtures.CountingExporter();
  private final LongAdder opened = new LongAdder();
  private SdkTracerProvider provider;
  private Tracer tracer;
  private Tracing tracing;
  private Context parentContext;
  private ActionContext parent;
  private Tracing.OpenSpan generate;

  @Setup(Level.Trial)
  public void setUp() {
    provider =
        SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(provider).build();
    tracer = sdk.getTracer("bench");
    tracing = Tracing.of(sdk, false);
    // Both kinds of span are children of one open root span, as a tool's span is of its generate.
    generate =
        tracing.open(
            ActionContext.root(DefaultRegistry.create(tracing, false)),
            "generate",
            "util",
            null,
            () -> null);
    parent = generate.context();
    parentContext = generate.span().otelContext();
  }

  @TearDown(Level.Trial)
  public void checkNothingDropped() {
    generate.succeed(null);
    provider.forceFlush().join(10, TimeUnit.SECONDS);
    // Every child span, plus the parent.
    long expected = opened.sum() + 1;
    if (exporter.spans.sum() != expected) {
      throw new IllegalStateException(
          "the exporter saw " + exporter.spans.sum() + " spans of " + expected + " opened");
    }
    provider.shutdown().join(10, TimeUnit.SECONDS);
  }

  /** The floor: a child span through the SDK, no attributes, nothing else. */
  @Benchmark
  public Span sdkSpan() {
    Span span = tracer.spanBuilder("lookup").setParent(parentContext).startSpan();
    span.end();
    opened.increment();
    return span;
  }

  /**
   * The same span with the attributes Genkit's tools set, built by hand: what the SDK adds for
   * them.
   */
  @Benchmark
  public Span sdkSpanWithGenkitAttributes() {
    Span span =
        tracer
            .spanBuilder("lookup")
            .setParent(parentContext)
            .setAttribute(NAME, "lookup")
            .setAttribute(TYPE, "action")
            .setAttribute(PATH, "/{generate,t:util}/{lookup,t:action,s:tool}")
            .setAttribute(SUBTYPE, "tool")
            .startSpan();
    span.setAttribute(STATE, "success");
    span.end();
    opened.increment();
    return span;
  }

  /** A tool's span as Baton opens it around the tool's body. */
  @Benchmark
  public ActionContext batonSpan() {
    ActionContext inner =
        tracing.inSpan(parent, "lookup", "action", "tool", () -> null, context -> context);
    opened.increment();
    return inner;
  }
}
