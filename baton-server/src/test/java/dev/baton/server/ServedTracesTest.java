package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What the trace of a served run records, as Genkit JS's Express handler has it recorded. */
class ServedTracesTest {
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final Baton baton =
      Baton.builder()
          .experimental()
          .openTelemetry(
              OpenTelemetrySdk.builder()
                  .setTracerProvider(
                      SdkTracerProvider.builder()
                          .addSpanProcessor(SimpleSpanProcessor.create(spans))
                          .build())
                  .build())
          .build();
  private @Nullable BatonServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void everyServedRunRecordsItsContextWithTheAuthRedacted() {
    baton.defineFlow("echo", String.class, String.class, (ctx, in) -> in);
    ProgrammableModel.define(baton.registry(), "model").respondText("hello");
    baton.defineAgent(
        "chat",
        InlinePrompt.builder().model("model").build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    // A request with a key gets an auth context; one without gets none.
    BatonServer started =
        BatonServer.start(
            BatonHandler.builder(baton)
                .allFlows()
                .allAgents()
                .contextProvider(
                    request ->
                        request.header("x-key") == null
                            ? null
                            : Map.of(ActionContext.PRINCIPAL, "alice", "key", "k-1"))
                .build(),
            "127.0.0.1",
            0);
    server = started;

    post(started.uri().resolve("/flows/echo"), envelope("hi"));
    assertThat(tracedContext("echo")).isEqualTo(Json.object());

    spans.reset();
    post(started.uri().resolve("/flows/echo"), envelope("hi"), "x-key", "k-1");
    assertThat(tracedContext("echo")).isEqualTo(Json.object().put("auth", "<redacted>"));

    spans.reset();
    JsonNode turn =
        post(
                started.uri().resolve("/agents/chat?stream=true"),
                envelope(Map.of("message", Message.user("hi"))),
                "x-key",
                "k-1")
            .lastFrame();
    assertThat(tracedContext("chat")).isEqualTo(Json.object().put("auth", "<redacted>"));

    spans.reset();
    post(
        started.uri().resolve("/agents/chat/getSnapshot"),
        envelope(Map.of("snapshotId", turn.at("/result/snapshotId").stringValue())),
        "x-key",
        "k-1");
    assertThat(tracedContext("chat")).isEqualTo(Json.object().put("auth", "<redacted>"));
  }

  /** The context recorded on the root span of the one run traced since the last reset. */
  private JsonNode tracedContext(String name) {
    SpanData root =
        spans.getFinishedSpanItems().stream()
            .filter(span -> !span.getParentSpanContext().isValid())
            .filter(span -> span.getName().equals(name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no root span " + name + " in " + spans));
    String context = root.getAttributes().get(AttributeKey.stringKey("genkit:metadata:context"));
    assertThat(context).as("genkit:metadata:context of " + name).isNotNull();
    return Json.parse(context);
  }
}
