package dev.baton.mcp;

import static dev.baton.mcp.McpClientPromptsTest.PIXEL;
import static dev.baton.mcp.McpClientPromptsTest.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** An MCP server's resources, as tools for a model and as parts. */
class McpClientResourcesTest {
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private McpClient client;
  private Baton baton;
  private ProgrammableModel model;

  @BeforeEach
  void start() {
    client = McpClientPromptsTest.promptsServer();
    baton =
        Baton.builder()
            .plugin(client)
            .openTelemetry(
                OpenTelemetrySdk.builder()
                    .setTracerProvider(
                        SdkTracerProvider.builder()
                            .addSpanProcessor(SimpleSpanProcessor.create(spans))
                            .build())
                    .build())
            .build();
    model = ProgrammableModel.define(baton.registry(), "pm");
  }

  @AfterEach
  void stop() {
    baton.close();
  }

  @Test
  void theModelListsResourcesAndTemplates() {
    JsonNode list = callTool("p/list_resources", Json.object()).output();

    assertThat(list)
        .isEqualTo(
            Json.parse(
                """
                {"resources": [
                   {"uri": "notes://readme", "name": "readme", "description": "The read-me",
                    "mimeType": "text/plain"},
                   {"uri": "images://pixel", "name": "pixel", "description": "A one-pixel image",
                    "mimeType": "image/png"}],
                 "resourceTemplates": [
                   {"uriTemplate": "greetings://{name}", "name": "greeting",
                    "description": "A greeting for a name", "mimeType": "text/plain"}]}
                """));
  }

  @Test
  void theModelReadsTextAndBlobs() {
    model.respond(
        calls(
            Part.toolRequest("p/read_resource", "text", Json.object().put("uri", "notes://readme")),
            Part.toolRequest(
                "p/read_resource", "blob", Json.object().put("uri", "images://pixel"))));
    model.respondText("done");

    baton.generate(options().build());

    Map<String, ToolResponse> answers = answers(model.lastRequest().messages());
    ToolResponse text = answers.get("text");
    assertThat(text.output().asString()).isEqualTo("Hello from the resource");
    assertThat(text.content()).singleElement().isInstanceOf(TextPart.class);
    assertThat(((TextPart) text.content().get(0)).text()).isEqualTo("Hello from the resource");
    ToolResponse blob = answers.get("blob");
    assertThat(blob.content()).singleElement().isInstanceOf(MediaPart.class);
    MediaPart media = (MediaPart) blob.content().get(0);
    assertThat(media.media().url()).isEqualTo("data:image/png;base64," + PIXEL);
    assertThat(media.metadata().path("resource").path("uri").asString())
        .isEqualTo("images://pixel");
  }

  @Test
  void aReadHasASpanNamingTheClient() {
    callTool("p/read_resource", Json.object().put("uri", "notes://readme"));

    assertThat(spans.getFinishedSpanItems())
        .filteredOn(span -> span.getName().equals("p/read_resource"))
        .singleElement()
        .satisfies(
            span ->
                assertThat(
                        span.getAttributes()
                            .get(AttributeKey.stringKey("genkit:metadata:mcp:client")))
                    .isEqualTo("p"));
  }

  @Test
  void aTemplateResourceReads() {
    assertThat(client.resource("greetings://ada"))
        .singleElement()
        .isInstanceOfSatisfying(
            TextPart.class, part -> assertThat(part.text()).isEqualTo("Hello, ada!"));
    assertThat(
            callTool("p/read_resource", Json.object().put("uri", "greetings://bo"))
                .output()
                .asString())
        .isEqualTo("Hello, bo!");
  }

  @Test
  void anUnknownUriIsTheModelsToPutRight() {
    ToolResponse answer = callTool("p/read_resource", Json.object().put("uri", "notes://nope"));

    assertThat(answer.output().path("error").asString()).contains("notes://nope");
    assertStatus(() -> client.resource("notes://nope"), Status.INVALID_ARGUMENT, "notes://nope");
  }

  @Test
  void aChangedResourceListIsListedAgain() {
    assertThat(Json.write(callTool("p/list_resources", Json.object()).output()))
        .doesNotContain("notes://extra");

    client.prompt("unlock").render(baton.context(), null, List.of()).build();

    await()
        .untilAsserted(
            () ->
                assertThat(Json.write(callTool("p/list_resources", Json.object()).output()))
                    .contains("notes://extra"));
  }

  @Test
  void theResourceToolsAreAmongTheClientsTools() {
    assertThat(client.tools())
        .extracting(Tool::name)
        .contains("p/list_resources", "p/read_resource");
  }

  private GenerateOptions.Builder options() {
    return GenerateOptions.builder()
        .model("pm")
        .messages(List.of(Message.user("go")))
        .toolNames("p/list_resources", "p/read_resource");
  }

  /** Runs one call of a tool through a model's tool loop, as a model would make it. */
  private ToolResponse callTool(String tool, JsonNode input) {
    model.respond(calls(Part.toolRequest(tool, "1", input)));
    model.respondText("done");
    baton.generate(options().build());
    return answers(model.lastRequest().messages()).get("1");
  }

  private static ModelResponse calls(Part... calls) {
    return ModelResponse.of(new Message(Role.MODEL, List.of(calls)), FinishReason.STOP);
  }

  private static Map<String, ToolResponse> answers(List<Message> messages) {
    return messages.get(messages.size() - 1).toolResponses().stream()
        .map(ToolResponsePart::toolResponse)
        .collect(Collectors.toMap(ToolResponse::ref, Function.identity()));
  }
}
