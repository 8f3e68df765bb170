package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.SpanCapture;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentTracingTest {
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private final Baton baton =
      Baton.builder()
          .experimental()
          .openTelemetry(SpanCapture.exportingTo(exporter))
          .traceContent(true)
          .build();

  private static String attr(SpanData span, String key) {
    return span.getAttributes().get(AttributeKey.stringKey(key));
  }

  private SpanData span(String name) {
    return exporter.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no span " + name + " in " + exporter.getFinishedSpanItems()));
  }

  @Test
  void anInvocationIsAnAgentSpanWithOneFlowStepPerTurn() {
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    Agent agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("pm").build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    model.respondText("one back");
    model.respondText("two back");
    AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW);
    connection.sendText("one");
    connection.sendText("two");
    AgentOutput output = connection.output();

    SpanData root = span("chat");
    SpanData first = span("runTurn-1");
    SpanData second = span("runTurn-2");
    assertThat(attr(root, "genkit:metadata:subtype")).isEqualTo("agent");
    assertThat(attr(root, "genkit:metadata:agent:sessionId")).isEqualTo(output.sessionId());
    assertThat(attr(root, "genkit:init")).isEqualTo("{}");
    // Action spans carry their registry key, as Genkit JS's do; steps and utilities have none.
    assertThat(attr(root, "genkit:key")).isEqualTo("/agent/chat");
    assertThat(attr(span("pm"), "genkit:key")).isEqualTo("/model/pm");
    assertThat(attr(first, "genkit:key")).isNull();
    assertThat(attr(span("generate"), "genkit:key")).isNull();
    assertThat(attr(first, "genkit:metadata:agent:sessionId")).isNull();
    for (SpanData turn : List.of(first, second)) {
      assertThat(turn.getParentSpanId()).isEqualTo(root.getSpanId());
      assertThat(attr(turn, "genkit:type")).isEqualTo("flowStep");
      assertThat(attr(turn, "genkit:metadata:subtype")).isNull();
    }
    assertThat(attr(second, "genkit:metadata:agent:snapshotId")).isEqualTo(output.snapshotId());
    assertThat(attr(second, "genkit:output")).contains("\"state\"").contains("two back");
    // Genkit JS's form: no subtype on the root or on an ancestor's segment.
    assertThat(attr(root, "genkit:path")).isEqualTo("/{chat,t:action}");
    assertThat(attr(span("generate"), "genkit:path"))
        .isEqualTo("/{chat,t:action}/{runTurn-1,t:flowStep}/{generate,t:util}");
    assertThat(attr(span("pm"), "genkit:path"))
        .isEqualTo(
            "/{chat,t:action}/{runTurn-1,t:flowStep}/{generate,t:util}/{pm,t:action,s:model}");
  }
}
