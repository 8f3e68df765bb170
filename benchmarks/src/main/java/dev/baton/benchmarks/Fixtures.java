package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the benchmarks share: instances with or without tracing, and scripted models. The models are
 * plain functions rather than baton-testing's {@code ProgrammableModel}, which records every
 * request it gets: over millions of invocations that record, not Baton, would be what is measured.
 */
final class Fixtures {
  private Fixtures() {}

  /**
   * An experimental instance. {@code tracing} is {@code off} (no SDK), {@code spans} (an SDK
   * records every span and hands it to a batch processor whose exporter drops it: what an
   * application with tracing pays) or {@code content} (the same, with inputs and outputs written as
   * JSON, as in dev mode).
   */
  static Baton baton(String tracing) {
    Baton.Builder builder = Baton.builder().experimental();
    if (!tracing.equals("off")) {
      builder.traceContent(tracing.equals("content"));
      builder.openTelemetry(
          OpenTelemetrySdk.builder()
              .setTracerProvider(
                  SdkTracerProvider.builder()
                      .addSpanProcessor(BatchSpanProcessor.builder(new CountingExporter()).build())
                      .build())
              .build());
    }
    return builder.build();
  }

  /** A model that answers every call with the same text. */
  static void chatModel(Baton baton, String name) {
    ModelResponse answer =
        ModelResponse.of(Message.model("Sure, here is a short answer."), FinishReason.STOP);
    baton.defineModel(name, ModelInfo.full(name), (ctx, request, stream) -> answer);
  }

  /** A model that calls {@code lookup} once, then answers from the tool's output. */
  static void toolModel(Baton baton, String name) {
    ModelResponse call =
        ModelResponse.of(
            new Message(
                Role.MODEL,
                java.util.List.of(
                    Part.toolRequest("lookup", "call-1", Json.object().put("city", "Paris")))),
            FinishReason.STOP);
    ModelResponse answer =
        ModelResponse.of(Message.model("It is 18 degrees in Paris."), FinishReason.STOP);
    baton.defineModel(
        name,
        ModelInfo.full(name),
        (ctx, request, stream) -> {
          Message last = request.messages().get(request.messages().size() - 1);
          return last.role() == Role.TOOL ? answer : call;
        });
  }

  /** An exporter that sends nothing anywhere and counts the spans it is handed. */
  static final class CountingExporter implements SpanExporter {
    final LongAdder spans = new LongAdder();

    @Override
    public CompletableResultCode export(Collection<SpanData> batch) {
      spans.add(batch.size());
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
      return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
      return CompletableResultCode.ofSuccess();
    }
  }
}
