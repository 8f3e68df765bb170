package dev.baton.mcp;

import static dev.baton.mcp.TestServers.callThroughLoop;
import static dev.baton.mcp.TestServers.outputText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.ToolCallFeedback;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * An MCP server's tools as Baton tools, over stdio: names, descriptions and schemas as the server
 * gives them, and every kind of result as the model receives it through the tool loop.
 */
class McpClientToolsTest {
  private static McpClient client;
  private static List<Tool<?, ?>> tools;
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  @BeforeAll
  static void start() {
    client = TestServers.stdio("t").environment("BATON_TEST_VALUE", "from Java").build();
    tools = client.tools();
  }

  @AfterAll
  static void stop() {
    client.close();
  }

  private ToolResponse call(String tool, Object input) {
    return callThroughLoop(baton, model, tools, "t/" + tool, input);
  }

  private JsonNode runDirectly(String name, Object input) {
    return tool(name).runJson(baton.context(), Json.toTree(input), null, StreamCallback.discard());
  }

  private static Tool<?, ?> tool(String name) {
    return tools.stream().filter(t -> t.name().equals("t/" + name)).findFirst().orElseThrow();
  }

  @Test
  void toolCallFeedbackAnswersABadCallOfAnMcpToolAndTheModelCallsAgain() {
    model.respond(
        ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.toolRequest("t/echo", "r1", Json.object()))),
            FinishReason.STOP));
    model.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(Part.toolRequest("t/echo", "r2", Json.object().put("text", "again")))),
            FinishReason.STOP));
    model.respondText("done");

    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("go")
            .tools(tools)
            .use(new ToolCallFeedback())
            .build());

    ToolResponse feedback = lastToolResponse(model.requests().get(1));
    assertThat(feedback.output().path("validationErrors").isArray()).isTrue();
    assertThat(feedback.output().path("validationErrors").toString()).contains("text");
    assertThat(lastToolResponse(model.requests().get(2)).output().asString())
        .isEqualTo("echo: again");
  }

  private static ToolResponse lastToolResponse(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return ((ToolResponsePart) last.content().get(0)).toolResponse();
  }

  @Test
  void toolsAreNamedAfterTheClientWithTheServersDescriptionAndSchema() {
    assertThat(tools).extracting(Tool::name).contains("t/echo", "t/add", "t/shapes");
    assertThat(tool("echo").definition().description()).isEqualTo("Echoes its text");
    assertThat(tool("echo").definition().inputSchema())
        .isEqualTo(
            Json.parse(
                """
                {"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}"""));
  }

  @Test
  void aSchemaWithDefsAndDraft2020KeywordsPassesThroughUnchangedAndValidates() {
    assertThat(tool("shapes").definition().inputSchema())
        .isEqualTo(
            Json.parse(
                """
                {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
                 "$defs":{"point":{"type":"object","properties":{"x":{"type":"number"},
                   "y":{"type":"number"}},"required":["x","y"]}},
                 "properties":{"from":{"$ref":"#/$defs/point"},
                   "pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}},
                 "required":["from"],"additionalProperties":false}"""));

    ToolResponse ok =
        call("shapes", Map.of("from", Map.of("x", 1, "y", 2), "pair", List.of("a", 3)));
    assertThat(Json.parse(outputText(ok)))
        .isEqualTo(Json.parse("{\"from\":{\"x\":1,\"y\":2},\"pair\":[\"a\",3]}"));

    // Baton validates against the schema before the call: $ref into $defs and prefixItems hold.
    assertThatThrownBy(() -> runDirectly("shapes", Map.of("from", Map.of("x", 1))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("y");
    assertThatThrownBy(
            () ->
                runDirectly(
                    "shapes", Map.of("from", Map.of("x", 1, "y", 2), "pair", List.of(3, "a"))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
  }

  @Test
  void aToolWhoseSchemaIsNotJsonSchemaIsOfferedToNoModelAndFailsAloneWithInvalidArgument() {
    assertThat(tools).extracting(Tool::name).doesNotContain("t/broken_schema").contains("t/echo");

    McpClient own = TestServers.stdio("own").build();
    try (Baton withClient = Baton.builder().plugin(own).build()) {
      Tool<?, ?> broken = Tool.lookup(withClient.registry(), "own/broken_schema");
      assertThatThrownBy(
              () ->
                  broken.runJson(
                      withClient.context(),
                      Json.toTree(Map.of("x", 1)),
                      null,
                      StreamCallback.discard()))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
          .hasMessageContaining("not valid JSON Schema")
          .hasMessageContaining("$.properties.x.type");
    }
    assertThat(outputText(call("echo", Map.of("text", "still fine"))))
        .isEqualTo("echo: still fine");
  }

  @Test
  void textBecomesATextPartAndTheOutputIsTheTextJoined() {
    ToolResponse response = call("echo", Map.of("text", "hi"));
    assertThat(outputText(response)).isEqualTo("echo: hi");
    assertThat(response.content()).containsExactly(Part.text("echo: hi"));
  }

  @Test
  void imagesAndAudioBecomeMediaPartsWithDataUrls() {
    ToolResponse response = call("image", Map.of());
    assertThat(response.content()).hasSize(3);
    assertThat(response.content().get(0)).isEqualTo(Part.text("a picture"));
    MediaPart image = (MediaPart) response.content().get(1);
    assertThat(image.media().contentType()).isEqualTo("image/png");
    assertThat(image.media().url()).startsWith("data:image/png;base64,iVBORw0KGgo");
    MediaPart audio = (MediaPart) response.content().get(2);
    assertThat(audio.media().url()).isEqualTo("data:audio/wav;base64,UklGRg==");
    assertThat(outputText(response)).isEqualTo("a picture");
  }

  @Test
  void embeddedResourcesBecomeTextOrMediaAndALinkKeepsItsUri() {
    List<Part> content = call("resources", Map.of()).content();
    assertThat(content).hasSize(3);
    TextPart text = (TextPart) content.get(0);
    assertThat(text.text()).isEqualTo("the notes");
    assertThat(text.metadata().path("resource").path("uri").asString())
        .isEqualTo("file:///notes.txt");
    MediaPart blob = (MediaPart) content.get(1);
    assertThat(blob.media().url()).startsWith("data:image/png;base64,");
    assertThat(blob.metadata().path("resource").path("uri").asString())
        .isEqualTo("file:///logo.png");
    TextPart link = (TextPart) content.get(2);
    assertThat(link.text()).contains("file:///big.csv");
    assertThat(link.metadata().path("resourceLink").path("uri").asString())
        .isEqualTo("file:///big.csv");
    assertThat(link.metadata().path("resourceLink").path("mimeType").asString())
        .isEqualTo("text/csv");
  }

  @Test
  void structuredContentIsTheOutput() {
    ToolResponse response = call("add", Map.of("a", 2, "b", 3));
    assertThat(response.output()).isEqualTo(Json.parse("{\"sum\":5}"));
    assertThat(response.content()).containsExactly(Part.text("{\"sum\":5}"));
  }

  @Test
  void anErrorResultIsAnAnswerToTheModelNotAnException() {
    ToolResponse response = call("fail", Map.of());
    assertThat(response.output())
        .isEqualTo(Json.parse("{\"isError\":true,\"error\":\"the disk is full\"}"));
    assertThat(response.content()).containsExactly(Part.text("the disk is full"));
  }

  @Test
  void theEnvironmentReachesTheServer() {
    assertThat(outputText(call("env", Map.of("name", "BATON_TEST_VALUE")))).isEqualTo("from Java");
  }

  @Test
  void parallelCallsShareOneServer() throws Exception {
    try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Callable<String>> calls =
          java.util.stream.IntStream.range(0, 20)
              .<Callable<String>>mapToObj(
                  i -> () -> runDirectly("echo", Map.of("text", "n" + i)).path("output").asString())
              .toList();
      List<Future<String>> results = pool.invokeAll(calls);
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get()).isEqualTo("echo: n" + i);
      }
    }
  }
}
