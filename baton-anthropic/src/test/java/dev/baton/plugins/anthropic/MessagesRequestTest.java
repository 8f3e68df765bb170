package dev.baton.plugins.anthropic;

import static dev.baton.plugins.anthropic.AnthropicFixtures.baton;
import static dev.baton.plugins.anthropic.AnthropicFixtures.body;
import static dev.baton.plugins.anthropic.AnthropicFixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.OutputOptions;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolChoice;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.WeatherTool;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** What a {@link ModelRequest} becomes on the wire: the body the fake server received. */
class MessagesRequestTest {
  private static final String WEATHER_TOOL =
      """
      {"name": "getWeather", "description": "Current weather for a city",
       "input_schema": {"type": "object", "properties": {"city": {"type": "string"}},
                        "required": ["city"]}}""";

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  private JsonNode sent(ModelRequest request) {
    server.reply(AnthropicFixtures.text("ok"));
    call(baton(server), request);
    return body(server, 0);
  }

  private JsonNode sent(Baton baton, String model, ModelRequest request) {
    server.reply(AnthropicFixtures.text("ok"));
    dev.baton.ai.Model.lookup(baton.registry(), model)
        .run(baton.context(), request, dev.baton.core.StreamCallback.discard());
    return body(server, server.requests().size() - 1);
  }

  @Test
  void mapsTheSystemPromptAndTheTurnsAndPostsToV1Messages() {
    JsonNode body =
        sent(
            ModelRequest.of(
                List.of(
                    Message.system("You are terse."),
                    Message.user("Hi"),
                    Message.model("Hello."),
                    new Message(
                        Role.USER, List.of(Part.text("Tell me"), Part.data(Json.parse("[1]")))))));

    assertThat(server.request(0).pathAndQuery()).isEqualTo("/v1/messages");
    assertThat(server.request(0).header("Content-Type")).isEqualTo("application/json");
    assertThat(body)
        .isEqualTo(
            Json.parse(
                """
                {"model": "claude-sonnet-4-5", "max_tokens": 16384,
                 "system": [{"type": "text", "text": "You are terse."}],
                 "messages": [
                   {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                   {"role": "assistant", "content": [{"type": "text", "text": "Hello."}]},
                   {"role": "user", "content": [{"type": "text", "text": "Tell me"},
                                                {"type": "text", "text": "[1]"}]}]}
                """));
  }

  @Test
  void sendsImagesAndPdfsAsImageAndDocumentBlocks() {
    JsonNode body =
        sent(
            ModelRequest.of(
                List.of(
                    new Message(
                        Role.USER,
                        List.of(
                            Part.text("Compare"),
                            Part.media("data:image/png;base64,iVBORw0KGgo=", null),
                            Part.media("https://example.com/cat.jpg", "image/jpeg"),
                            Part.media("data:application/pdf;base64,JVBERi0xLjQ=", null),
                            Part.media("https://example.com/report.pdf", "application/pdf"))))));

    assertThat(body.path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": [
                   {"type": "text", "text": "Compare"},
                   {"type": "image", "source": {"type": "base64", "media_type": "image/png",
                                                "data": "iVBORw0KGgo="}},
                   {"type": "image", "source": {"type": "url",
                                                "url": "https://example.com/cat.jpg"}},
                   {"type": "document", "source": {"type": "base64",
                                                   "media_type": "application/pdf",
                                                   "data": "JVBERi0xLjQ="}},
                   {"type": "document", "source": {"type": "url",
                                                   "url": "https://example.com/report.pdf"}}]}]
                """));
  }

  @Test
  void refusesMediaTheApiCannotTake() {
    ModelRequest audio =
        ModelRequest.of(
            List.of(
                new Message(Role.USER, List.of(Part.media("data:audio/wav;base64,UklG", null)))));

    assertThatThrownBy(() -> call(baton(server), audio))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThat(server.requests()).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({
    "AUTO,     {\"type\": \"auto\"}",
    "REQUIRED, {\"type\": \"any\"}",
    "NONE,     {\"type\": \"none\"}"
  })
  void sendsToolsWithTheirSchemasAndTheToolChoice(ToolChoice choice, String wire) {
    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Weather?")))
                .withTools(List.of(WeatherTool.definition(), ToolDefinition.of("anything")))
                .withToolChoice(choice));

    assertThat(body.path("tools"))
        .isEqualTo(
            Json.parse(
                "[%s, {\"name\": \"anything\", \"input_schema\": {\"type\": \"object\"}}]"
                    .formatted(WEATHER_TOOL)));
    assertThat(body.path("tool_choice")).isEqualTo(Json.parse(wire));
  }

  @Test
  void forcesANamedToolAndTurnsParallelCallsOffFromTheConfig() {
    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Weather?")))
                .withTools(List.of(WeatherTool.definition()))
                .withToolChoice(ToolChoice.AUTO)
                .withConfig(
                    Json.parse("{\"toolChoice\": \"getWeather\", \"parallelToolCalls\": false}")));

    assertThat(body.path("tool_choice"))
        .isEqualTo(
            Json.parse(
                "{\"type\": \"tool\", \"name\": \"getWeather\", \"disable_parallel_tool_use\": true}"));
    assertThat(body.has("toolChoice")).isFalse();
    assertThat(body.has("parallelToolCalls")).isFalse();
  }

  @Test
  void sendsNoToolChoiceWithoutTools() {
    JsonNode body =
        sent(ModelRequest.of(List.of(Message.user("Hi"))).withToolChoice(ToolChoice.REQUIRED));

    assertThat(body.has("tool_choice")).isFalse();
    assertThat(body.has("tools")).isFalse();
  }

  @Test
  void sendsParallelToolCallsBackAndAnswersThemInOneUserTurnBeforeTheNextText() {
    JsonNode body =
        sent(
            ModelRequest.of(
                    List.of(
                        Message.user("Paris or Rome?"),
                        Message.of(
                            Role.MODEL,
                            Part.toolRequest(
                                "getWeather", "toolu_1", Json.parse("{\"city\": \"Paris\"}")),
                            Part.toolRequest(
                                "getWeather", "toolu_2", Json.parse("{\"city\": \"Rome\"}"))),
                        Message.of(
                            Role.TOOL,
                            Part.toolResponse(
                                "getWeather", "toolu_1", Json.parse("{\"tempC\": 21}")),
                            Part.toolResponse(
                                "getWeather", "toolu_2", Json.nodes().stringNode("25 °C"))),
                        Message.user("Which is warmer?")))
                .withTools(List.of(WeatherTool.definition())));

    assertThat(body.path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": [{"type": "text", "text": "Paris or Rome?"}]},
                 {"role": "assistant", "content": [
                   {"type": "tool_use", "id": "toolu_1", "name": "getWeather",
                    "input": {"city": "Paris"}},
                   {"type": "tool_use", "id": "toolu_2", "name": "getWeather",
                    "input": {"city": "Rome"}}]},
                 {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "toolu_1", "content": "{\\"tempC\\":21}"},
                   {"type": "tool_result", "tool_use_id": "toolu_2", "content": "25 °C"},
                   {"type": "text", "text": "Which is warmer?"}]}]
                """));
  }

  @Test
  void givesReflessToolCallsIdsOfTheirOwnThatTheirResponsesShare() {
    JsonNode body =
        sent(
            ModelRequest.of(
                    List.of(
                        Message.user("Paris or Rome?"),
                        Message.of(
                            Role.MODEL,
                            Part.toolRequest(
                                "getWeather", null, Json.parse("{\"city\": \"Paris\"}")),
                            Part.toolRequest(
                                "getWeather", null, Json.parse("{\"city\": \"Rome\"}"))),
                        Message.of(
                            Role.TOOL,
                            Part.toolResponse("getWeather", null, Json.parse("21")),
                            Part.toolResponse("getWeather", null, Json.parse("25"))),
                        Message.of(
                            Role.MODEL,
                            Part.toolRequest(
                                "getWeather", null, Json.parse("{\"city\": \"Oslo\"}"))),
                        Message.of(
                            Role.TOOL, Part.toolResponse("getWeather", null, Json.parse("3")))))
                .withTools(List.of(WeatherTool.definition())));

    JsonNode messages = body.path("messages");
    List<String> uses = new java.util.ArrayList<>();
    List<String> results = new java.util.ArrayList<>();
    messages.forEach(
        message ->
            message
                .path("content")
                .forEach(
                    block -> {
                      if (block.has("id")) {
                        uses.add(block.path("id").asString());
                      }
                      if (block.has("tool_use_id")) {
                        results.add(block.path("tool_use_id").asString());
                      }
                    }));
    assertThat(uses)
        .doesNotHaveDuplicates()
        .hasSize(3)
        .allMatch(id -> id.matches("[a-zA-Z0-9_-]+"));
    assertThat(results).isEqualTo(uses);
  }

  @Test
  void mapsSamplingConfigAndPassesTheApisOwnFieldsThrough() {
    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Hi")))
                .withConfig(
                    Json.parse(
                        """
                        {"maxOutputTokens": 300, "temperature": 0.2, "topP": 0.9, "topK": 40,
                         "stopSequences": ["END"], "metadata": {"user_id": "u-1"}}
                        """)));

    assertThat(Json.withoutField(body, "messages"))
        .isEqualTo(
            Json.parse(
                """
                {"model": "claude-sonnet-4-5", "max_tokens": 300, "temperature": 0.2,
                 "top_p": 0.9, "top_k": 40, "stop_sequences": ["END"],
                 "metadata": {"user_id": "u-1"}}
                """));
  }

  @Test
  void defaultsMaxTokensPerModelUnlessThePluginOrTheConfigSaysOtherwise() {
    Baton baton = baton(server);
    ModelRequest hi = ModelRequest.of(List.of(Message.user("Hi")));

    assertThat(sent(baton, "anthropic/claude-3-haiku-20240307", hi).path("max_tokens").asInt())
        .isEqualTo(4096);
    assertThat(sent(baton, "anthropic/claude-3-5-haiku-latest", hi).path("max_tokens").asInt())
        .isEqualTo(8192);
    assertThat(sent(baton, "anthropic/claude-opus-4-1", hi).path("max_tokens").asInt())
        .isEqualTo(16384);
    Baton capped =
        Baton.builder()
            .plugin(AnthropicFixtures.plugin(server.baseUrl()).maxTokens(1024).build())
            .build();
    assertThat(sent(capped, "anthropic/claude-opus-4-1", hi).path("max_tokens").asInt())
        .isEqualTo(1024);
    ModelRequest configured = hi.withConfig(Json.parse("{\"maxOutputTokens\": 77}"));
    assertThat(sent(capped, "anthropic/claude-opus-4-1", configured).path("max_tokens").asInt())
        .isEqualTo(77);
  }

  @Test
  void turnsThinkingOnWithItsBudgetAndKeepsMaxTokensAboveIt() {
    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Think")))
                .withConfig(Json.parse("{\"thinking\": {\"budgetTokens\": 20000}}")));

    assertThat(body.path("thinking"))
        .isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 20000}"));
    assertThat(body.path("max_tokens").asInt()).isEqualTo(20000 + 16384);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"thinking\": {\"budgetTokens\": 1023}}                            | at least 1024",
        "{\"thinking\": {\"budgetTokens\": 2048}, \"toolChoice\": \"any\"}        | auto and none",
        "{\"thinking\": {\"budgetTokens\": 2048}, \"toolChoice\": \"getWeather\"} | auto and none"
      })
  void refusesThinkingTheApiWouldRefuse(String config, String message) {
    ModelRequest request =
        ModelRequest.of(List.of(Message.user("Think")))
            .withTools(List.of(WeatherTool.definition()))
            .withConfig(Json.parse(config));

    assertThatThrownBy(() -> call(baton(server), request))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains(message);
            });
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void refusesARequiredToolChoiceWithThinking() {
    ModelRequest request =
        ModelRequest.of(List.of(Message.user("Think")))
            .withTools(List.of(WeatherTool.definition()))
            .withToolChoice(ToolChoice.REQUIRED)
            .withConfig(Json.parse("{\"thinking\": {\"budgetTokens\": 2048}}"));

    assertThatThrownBy(() -> call(baton(server), request))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void asksForStructuredOutputWithEveryObjectClosed() {
    JsonNode schema =
        Json.parse(
            """
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
             "properties": {"city": {"type": "string"},
                            "days": {"type": "array",
                                     "items": {"type": "object",
                                               "properties": {"tempC": {"type": "number"}}}}},
             "required": ["city"]}
            """);
    JsonNode body =
        sent(
            ModelRequest.of(List.of(Message.user("Forecast")))
                .withOutput(OutputConfig.of("json", schema).withConstrained(true)));

    assertThat(body.path("output_config"))
        .isEqualTo(
            Json.parse(
                """
                {"format": {"type": "json_schema", "schema": {
                   "type": "object", "additionalProperties": false,
                   "properties": {"city": {"type": "string"},
                                  "days": {"type": "array",
                                           "items": {"type": "object",
                                                     "additionalProperties": false,
                                                     "properties": {"tempC": {"type": "number"}}}}},
                   "required": ["city"]}}}
                """));
  }

  @ParameterizedTest
  @CsvSource({
    "claude-sonnet-4-5, true",
    "claude-opus-4-1-20250805, true",
    "claude-some-future-model, true",
    "claude-3-5-haiku-latest, false",
    "claude-3-7-sonnet-20250219, false",
    "claude-sonnet-4-20250514, false",
    "claude-opus-4-0, false"
  })
  void asksForStructuredOutputOnlyFromModelsThatServeIt(String model, boolean structured) {
    server.reply(AnthropicFixtures.text("{\\\"city\\\": \\\"Paris\\\"}"));
    baton(server)
        .generate(
            GenerateOptions.builder()
                .model("anthropic/" + model)
                .prompt("Where?")
                .output(
                    OutputOptions.schema(
                        Json.parse(
                            "{\"type\": \"object\", \"properties\": {\"city\": {\"type\":"
                                + " \"string\"}}}")))
                .build());

    JsonNode body = body(server, 0);
    assertThat(body.has("output_config")).isEqualTo(structured);
    // Without it, the schema goes into the prompt instead.
    assertThat(body.path("messages").toString().contains("city")).isNotEqualTo(structured);
  }

  @Test
  void sendsThePluginsExtraHeaders() {
    Baton baton =
        Baton.builder()
            .plugin(
                AnthropicFixtures.plugin(server.baseUrl())
                    .header("anthropic-beta", "context-1m-2025-08-07")
                    .build())
            .build();

    sent(baton, AnthropicFixtures.MODEL, ModelRequest.of(List.of(Message.user("Hi"))));

    assertThat(server.request(0).header("anthropic-beta")).isEqualTo("context-1m-2025-08-07");
    assertThatThrownBy(() -> Anthropic.builder().header("x-api-key", "other"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
