package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.middleware.ToolApproval;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client registered as a plugin: its tools resolve by name for agents and generate calls, go
 * through Baton's tool loop (so middleware applies), and are traced with the client's name.
 */
class McpClientPluginTest {
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final McpClient fs = TestServers.stdio("fs").build();
  private final Baton baton =
      Baton.builder()
          .experimental()
          .plugin(fs)
          .openTelemetry(
              OpenTelemetrySdk.builder()
                  .setTracerProvider(
                      SdkTracerProvider.builder()
                          .addSpanProcessor(SimpleSpanProcessor.create(spans))
                          .build())
                  .build())
          .build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  @AfterEach
  void close() {
    baton.close();
  }

  private static ModelResponse callEcho(String text) {
    return ModelResponse.of(
        new Message(
            Role.MODEL,
            List.of(Part.toolRequest("fs/echo", "e1", Json.toTree(Map.of("text", text))))),
        FinishReason.STOP);
  }

  private static ToolResponsePart lastToolResponse(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    assertThat(last.role()).isEqualTo(Role.TOOL);
    return (ToolResponsePart) last.content().get(0);
  }

  @Test
  void anAgentCallsAnMcpToolByName() {
    Agent agent =
        baton.defineAgent(
            "helper", InlinePrompt.builder().model("pm").toolNames("fs/echo").build());
    model.respond(callEcho("from the agent"));
    model.respondText("all done");

    AgentOutput output = agent.runText("go");

    assertThat(output.text()).isEqualTo("all done");
    assertThat(model.requests().get(0).tools())
        .extracting(t -> t.name())
        .containsExactly("fs/echo");
    ToolResponsePart answer = lastToolResponse(model.requests().get(1));
    assertThat(answer.toolResponse().output().asString()).isEqualTo("echo: from the agent");
  }

  @Test
  void anAgentTakesTheClientsToolsAsAList() {
    Agent agent =
        baton.defineAgent("lister", InlinePrompt.builder().model("pm").tools(fs.tools()).build());
    model.respond(callEcho("listed"));
    model.respondText("all done");

    agent.runText("go");

    assertThat(model.requests().get(0).tools()).extracting(t -> t.name()).contains("fs/echo");
    assertThat(lastToolResponse(model.requests().get(1)).toolResponse().output().asString())
        .isEqualTo("echo: listed");
  }

  @Test
  void toolApprovalInterruptsAnUnapprovedMcpCall() {
    model.respond(callEcho("rm -rf"));

    GenerateResponse held =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .prompt("go")
                .toolNames("fs/echo")
                .use(ToolApproval.allowing("fs/image"))
                .build());

    assertThat(held.finishReason()).isEqualTo(FinishReason.INTERRUPTED);
    assertThat(held.interrupts())
        .extracting(p -> p.toolRequest().name())
        .containsExactly("fs/echo");
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void eachCallHasASpanNamingTheClient() {
    model.respond(callEcho("traced"));
    model.respondText("done");

    baton.generate(GenerateOptions.builder().model("pm").prompt("go").toolNames("fs/echo").build());

    List<SpanData> toolSpans =
        spans.getFinishedSpanItems().stream().filter(s -> s.getName().equals("fs/echo")).toList();
    assertThat(toolSpans).hasSize(1);
    assertThat(
            toolSpans
                .get(0)
                .getAttributes()
                .get(AttributeKey.stringKey("genkit:metadata:mcp:client")))
        .isEqualTo("fs");
    assertThat(
            toolSpans.get(0).getAttributes().get(AttributeKey.stringKey("genkit:metadata:subtype")))
        .isEqualTo("tool");
  }
}
