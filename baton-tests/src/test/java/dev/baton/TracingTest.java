package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Status;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.RootSpanHooks;
import dev.baton.internal.core.TraceSpan;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final Baton baton =
      Baton.builder().openTelemetry(SpanCapture.exportingTo(exporter)).traceContent(true).build();

  @Test
  void everyActionRunIsASpanWithGenkitAttributes() {
    Flow<String, String, Void> inner =
        baton.defineFlow("inner", String.class, String.class, (ctx, in) -> in.toUpperCase());
    Flow<String, String, Void> outer =
        baton.defineFlow(
            "outer", String.class, String.class, (ctx, in) -> inner.run(ctx, in + "!"));

    assertThat(outer.run("hi")).isEqualTo("HI!");

    List<SpanData> spans = exporter.getFinishedSpanItems();
    assertThat(spans).hasSize(2);
    SpanData innerSpan = spans.get(0);
    SpanData outerSpan = spans.get(1);
    assertThat(innerSpan.getParentSpanId()).isEqualTo(outerSpan.getSpanId());
    assertThat(outerSpan.getAttributes().get(AttributeKey.booleanKey("genkit:isRoot"))).isTrue();
    assertThat(innerSpan.getAttributes().get(AttributeKey.booleanKey("genkit:isRoot"))).isNull();
    assertThat(attr(innerSpan, "genkit:type")).isEqualTo("action");
    assertThat(attr(innerSpan, "genkit:metadata:subtype")).isEqualTo("flow");
    assertThat(attr(innerSpan, "genkit:name")).isEqualTo("inner");
    // As Genkit JS writes paths: a flow's type is "flow", and only a span that is not the root
    // adds its subtype to its own segment.
    assertThat(attr(outerSpan, "genkit:path")).isEqualTo("/{outer,t:flow}");
    assertThat(attr(innerSpan, "genkit:path")).isEqualTo("/{outer,t:flow}/{inner,t:flow,s:flow}");
    assertThat(attr(innerSpan, "genkit:input")).isEqualTo("\"hi!\"");
    assertThat(attr(innerSpan, "genkit:output")).isEqualTo("\"HI!\"");
    assertThat(attr(innerSpan, "genkit:state")).isEqualTo("success");
  }

  @Test
  void everyActionSpanCarriesItsRegistryKeyAsGenkitJsLabelsIt() {
    Flow<String, String, Void> inner =
        baton.defineFlow("inner", String.class, String.class, (ctx, in) -> in);
    Flow<String, String, Void> outer =
        baton.defineFlow("outer", String.class, String.class, (ctx, in) -> inner.run(ctx, in));

    outer.run("x");

    SpanData innerSpan = exporter.getFinishedSpanItems().get(0);
    SpanData outerSpan = exporter.getFinishedSpanItems().get(1);
    assertThat(attr(outerSpan, "genkit:key")).isEqualTo("/flow/outer");
    assertThat(attr(innerSpan, "genkit:key")).isEqualTo("/flow/inner");
  }

  @Test
  void aSpanWhoseSubtypeIsNoActionTypeHasNoRegistryKey() {
    DefaultRegistry.tracing(baton.registry())
        .inSpan(baton.context(), "odd", "action", "no-such-type", () -> null, ctx -> "x");

    assertThat(attr(exporter.getFinishedSpanItems().get(0), "genkit:key")).isNull();
  }

  @Test
  void contentIsLeftOutUnlessAskedFor() {
    Baton quiet =
        Baton.builder()
            .openTelemetry(SpanCapture.exportingTo(exporter))
            .traceContent(false)
            .build();
    quiet.defineFlow("secret", String.class, String.class, (ctx, in) -> in).run("password");
    SpanData span = exporter.getFinishedSpanItems().get(0);
    assertThat(attr(span, "genkit:state")).isEqualTo("success");
    assertThat(attr(span, "genkit:input")).isNull();
    assertThat(attr(span, "genkit:output")).isNull();
  }

  @Test
  void aFailedRunIsMarkedAsError() {
    Flow<String, String, Void> failing =
        baton.defineFlow(
            "failing",
            String.class,
            String.class,
            (ctx, in) -> {
              throw BatonException.of(Status.UNAVAILABLE, "down");
            });
    Flow<String, String, Void> caller =
        baton.defineFlow("caller", String.class, String.class, (ctx, in) -> failing.run(ctx, in));
    assertThatThrownBy(() -> caller.run("x")).hasMessage("down");
    SpanData span = exporter.getFinishedSpanItems().get(0);
    SpanData outer = exporter.getFinishedSpanItems().get(1);
    assertThat(attr(span, "genkit:state")).isEqualTo("error");
    assertThat(span.getStatus().getDescription()).isEqualTo("down");
    assertThat(span.getAttributes().get(AttributeKey.booleanKey("genkit:isFailureSource")))
        .isTrue();
    assertThat(attr(outer, "genkit:state")).isEqualTo("error");
    assertThat(outer.getAttributes().get(AttributeKey.booleanKey("genkit:isFailureSource")))
        .as("only where the error started")
        .isNull();
  }

  @Test
  void rootSpanHooksLabelTheRootAndAreToldItsIdsBeforeTheWorkRuns() {
    Flow<String, String, Void> inner =
        baton.defineFlow("inner", String.class, String.class, (ctx, in) -> in);
    List<String> seen = new ArrayList<>();
    Flow<String, String, Void> outer =
        baton.defineFlow(
            "outer",
            String.class,
            String.class,
            (ctx, in) -> {
              seen.add("work");
              return inner.run(ctx, in);
            });
    RootSpanHooks hooks =
        new RootSpanHooks(
            Map.of("genkitx:label", "blue"), (traceId, spanId) -> seen.add(traceId + "/" + spanId));

    outer.run(baton.context().with(RootSpanHooks.KEY, hooks), "x");

    SpanData innerSpan = exporter.getFinishedSpanItems().get(0);
    SpanData outerSpan = exporter.getFinishedSpanItems().get(1);
    assertThat(seen).containsExactly(outerSpan.getTraceId() + "/" + outerSpan.getSpanId(), "work");
    assertThat(attr(outerSpan, "genkitx:label")).isEqualTo("blue");
    assertThat(attr(innerSpan, "genkitx:label")).isNull();
  }

  @Test
  void withTracingOffRootHooksAreToldZeroIdsOnceBeforeTheWorkRuns() {
    Baton untraced = Baton.builder().build();
    List<String> seen = new ArrayList<>();
    Flow<String, String, Void> inner =
        untraced.defineFlow(
            "inner",
            String.class,
            String.class,
            (ctx, in) -> {
              seen.add("inner");
              return in;
            });
    Flow<String, String, Void> outer =
        untraced.defineFlow(
            "outer",
            String.class,
            String.class,
            (ctx, in) -> {
              seen.add("outer");
              assertThat(TraceSpan.of(ctx)).as("no span is built").isNull();
              return inner.run(ctx, in);
            });
    RootSpanHooks hooks =
        new RootSpanHooks(Map.of(), (traceId, spanId) -> seen.add(traceId + "/" + spanId));

    outer.run(untraced.context().with(RootSpanHooks.KEY, hooks), "x");

    assertThat(seen)
        .as("only the first span is a root, as when tracing is on")
        .containsExactly("0".repeat(32) + "/" + "0".repeat(16), "outer", "inner");
  }

  private static String attr(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }
}
