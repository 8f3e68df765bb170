package dev.baton.plugins.googleai;

import static dev.baton.plugins.googleai.GeminiFixtures.baton;
import static dev.baton.plugins.googleai.GeminiFixtures.call;
import static dev.baton.plugins.googleai.GeminiFixtures.plugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.Role;
import dev.baton.ai.ToolChoice;
import dev.baton.ai.ToolDefinition;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.Metadata;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.WeatherTool;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The exact JSON the plugin sends to {@code generateContent}. */
class GeminiRequestTest {
  private static final String ANSWER =
      """
      {"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]},
                       "finishReason": "STOP", "index": 0}],
       "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4},
       "modelVersion": "gemini-2.5-flash"}
      """;

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  @Test
  void sendsSystemInstructionTurnsConfigAndConstrainedOutput() {
    server.reply(Reply.json(ANSWER));
    ObjectNode schema =
        (ObjectNode)
            Json.parse(
                """
                {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                 "properties": {"colours": {"type": "array", "items": {"type": "string"}}},
                 "required": ["colours"]}
                """);
    ModelRequest request =
        new ModelRequest(
            List.of(
                Message.system("Be brief."),
                Message.user("Hi"),
                Message.model("Hello!"),
                Message.user("Name two colours.")),
            Json.parse(
                """
                {"temperature": 0.2, "maxOutputTokens": 256, "topP": 0.9, "topK": 40,
                 "stopSequences": ["END"],
                 "thinkingConfig": {"thinkingBudget": 0, "includeThoughts": false},
                 "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT",
                                     "threshold": "BLOCK_ONLY_HIGH"}]}
                """),
            List.of(),
            null,
            new OutputConfig("json", schema, true, null));

    call(baton(server), request);

    FakeHttpServer.Recorded sent = server.request(0);
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.pathAndQuery()).isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
    assertThat(sent.header("x-goog-api-key")).isEqualTo("test-key");
    assertThat(sent.header("Content-Type")).isEqualTo("application/json");
    assertThat(Json.parse(sent.body()))
        .isEqualTo(
            Json.parse(
                """
                {"contents": [
                   {"role": "user", "parts": [{"text": "Hi"}]},
                   {"role": "model", "parts": [{"text": "Hello!"}]},
                   {"role": "user", "parts": [{"text": "Name two colours."}]}],
                 "systemInstruction": {"parts": [{"text": "Be brief."}]},
                 "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT",
                                     "threshold": "BLOCK_ONLY_HIGH"}],
                 "generationConfig": {
                   "temperature": 0.2, "maxOutputTokens": 256, "topP": 0.9, "topK": 40,
                   "stopSequences": ["END"],
                   "thinkingConfig": {"thinkingBudget": 0, "includeThoughts": false},
                   "responseMimeType": "application/json",
                   "responseJsonSchema": {
                     "type": "object",
                     "properties": {"colours": {"type": "array", "items": {"type": "string"}}},
                     "required": ["colours"]}}}
                """));
  }

  @Test
  void sendsToolsToolChoiceMediaAndAToolHistoryWithGeminisIdsAndThoughtSignatures() {
    server.reply(Reply.json(ANSWER));
    ToolDefinition weather = WeatherTool.definition();
    ToolDefinition clock = ToolDefinition.of("now");
    // As the plugin maps a call Gemini gave the id fc-1; fc-2 is a ref of Baton's own.
    ObjectNode signed =
        Metadata.with(
            Metadata.with(null, "thoughtSignature", Json.nodes().stringNode("c2ln")),
            "functionCallId",
            Json.nodes().stringNode("fc-1"));
    List<Message> messages =
        List.of(
            Message.of(
                Role.USER,
                Part.text("What is in this picture, and what is the weather in Paris?"),
                Part.media("data:image/png;base64,iVBORw0KGgo=", null),
                Part.media("gs://bucket/report.pdf", "application/pdf"),
                Part.data(Json.parse("{\"units\":\"metric\"}")),
                new CustomPart(Json.parse("{\"executableCode\":{\"code\":\"1+1\"}}"), null)),
            Message.of(
                Role.MODEL,
                new ReasoningPart("The user wants the weather.", null),
                new ToolRequestPart(
                    new ToolRequest("getWeather", "fc-1", Json.parse("{\"city\":\"Paris\"}")),
                    signed),
                Part.toolRequest("now", "fc-2", null)),
            Message.of(
                Role.TOOL,
                new ToolResponsePart(
                    ToolResponse.of("getWeather", Json.parse("{\"tempC\":21}")).withRef("fc-1"),
                    null),
                Part.toolResponse("now", "fc-2", Json.nodes().stringNode("12:00"))));

    call(
        baton(server),
        new ModelRequest(
            messages, null, List.of(weather, clock), ToolChoice.REQUIRED, OutputConfig.NONE));

    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"contents": [
                   {"role": "user", "parts": [
                     {"text": "What is in this picture, and what is the weather in Paris?"},
                     {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                     {"fileData": {"mimeType": "application/pdf",
                                   "fileUri": "gs://bucket/report.pdf"}},
                     {"text": "{\\"units\\":\\"metric\\"}"},
                     {"executableCode": {"code": "1+1"}}]},
                   {"role": "model", "parts": [
                     {"text": "The user wants the weather.", "thought": true},
                     {"functionCall": {"name": "getWeather", "args": {"city": "Paris"},
                                       "id": "fc-1"},
                      "thoughtSignature": "c2ln"},
                     {"functionCall": {"name": "now"}}]},
                   {"role": "user", "parts": [
                     {"functionResponse": {"name": "getWeather", "id": "fc-1",
                                           "response": {"output": {"tempC": 21}}}},
                     {"functionResponse": {"name": "now",
                                           "response": {"output": "12:00"}}}]}],
                 "tools": [{"functionDeclarations": [
                   {"name": "getWeather", "description": "Current weather for a city",
                    "parametersJsonSchema": {"type": "object",
                                             "properties": {"city": {"type": "string"}},
                                             "required": ["city"]}},
                   {"name": "now"}]}],
                 "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}
                """));
  }

  @Test
  void usesTheConfiguredApiVersionAndBaseUrlPath() {
    server.reply(Reply.json(ANSWER));
    Baton baton =
        Baton.builder()
            .plugin(
                plugin(server)
                    .baseUrl(server.baseUrl().resolve("/proxy/"))
                    .apiVersion("v1")
                    .build())
            .build();

    call(baton, ModelRequest.of(List.of(Message.user("Hi"))));

    assertThat(server.request(0).pathAndQuery())
        .isEqualTo("/proxy/v1/models/gemini-2.5-flash:generateContent");
  }

  @Test
  void resolvesAnyModelNameInItsNamespaceAndPublishesWhatGeminiSupports() {
    Baton baton = baton(server);

    Model model = Model.lookup(baton.registry(), "googleai/gemini-3-pro-preview");

    assertThat(model.name()).isEqualTo("googleai/gemini-3-pro-preview");
    assertThat(model.descriptor().metadata().path("model"))
        .isEqualTo(
            Json.parse(
                """
                {"label": "Google AI - gemini-3-pro-preview",
                 "supports": {"multiturn": true, "tools": true, "systemRole": true,
                              "media": true, "output": ["text", "json"],
                              "constrained": "no-tools", "toolChoice": true}}
                """));
    assertThatThrownBy(() -> Model.lookup(baton.registry(), "openai/gpt-4o"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    assertThatThrownBy(() -> Model.lookup(baton.registry(), "googleai/"))
        .isInstanceOf(BatonException.class);
  }

  @Test
  void aModelNameThatWouldChangeTheEndpointIsRejectedBeforeAnyRequest() {
    Baton baton = baton(server);

    for (String name :
        List.of("../tunedModels/x", "gemini:countTokens", "gemini?alt=x", "gemini#x", "a/b")) {
      assertThatThrownBy(() -> Model.lookup(baton.registry(), "googleai/" + name))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
          .hasMessageContaining("invalid Gemini model name");
    }
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void rejectsRequestsGeminiCannotExpressBeforeSendingThem() {
    Baton baton = baton(server);

    assertThatThrownBy(
            () ->
                call(
                    baton,
                    ModelRequest.of(List.of(Message.user("Hi")))
                        .withConfig(Json.parse("[\"not an object\"]"))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThatThrownBy(
            () ->
                call(
                    baton,
                    ModelRequest.of(
                        List.of(
                            Message.of(
                                Role.SYSTEM, Part.media("https://example.com/a.png", null))))))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.getMessage()).contains("only text in system instructions"));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void sendsPlainTextDataUrlsAsBase64() {
    server.reply(Reply.json(ANSWER));

    call(
        baton(server),
        ModelRequest.of(
            List.of(Message.of(Role.USER, Part.media("data:text/plain,hello%20world", null)))));

    assertThat(Json.parse(server.request(0).body()).path("contents").path(0).path("parts").path(0))
        .isEqualTo(
            Json.parse(
                "{\"inlineData\": {\"mimeType\": \"text/plain\", \"data\": \"aGVsbG8gd29ybGQ=\"}}"));
  }

  @Test
  void decodesOnlyPercentEscapesInPlainDataUrls() {
    server.reply(Reply.json(ANSWER));

    call(
        baton(server),
        ModelRequest.of(
            List.of(Message.of(Role.USER, Part.media("data:text/plain,1+1=2%21%E2%82%AC", null)))));

    String data =
        Json.parse(server.request(0).body())
            .path("contents")
            .path(0)
            .path("parts")
            .path(0)
            .path("inlineData")
            .path("data")
            .asString();
    assertThat(new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8))
        .isEqualTo("1+1=2!€");
  }

  private JsonNode sentToolConfig(List<ToolDefinition> tools, ToolChoice choice) {
    server.reply(Reply.json(ANSWER));
    call(
        baton(server),
        new ModelRequest(List.of(Message.user("Hi")), null, tools, choice, OutputConfig.NONE));
    return Json.parse(server.requests().getLast().body()).path("toolConfig");
  }

  @Test
  void mapsEachToolChoiceAndSendsNoneWithoutTools() {
    List<ToolDefinition> clock = List.of(ToolDefinition.of("now"));

    assertThat(sentToolConfig(clock, ToolChoice.AUTO))
        .isEqualTo(Json.parse("{\"functionCallingConfig\": {\"mode\": \"AUTO\"}}"));
    assertThat(sentToolConfig(clock, ToolChoice.NONE))
        .isEqualTo(Json.parse("{\"functionCallingConfig\": {\"mode\": \"NONE\"}}"));
    assertThat(sentToolConfig(clock, ToolChoice.REQUIRED))
        .isEqualTo(Json.parse("{\"functionCallingConfig\": {\"mode\": \"ANY\"}}"));
    assertThat(sentToolConfig(List.of(), ToolChoice.NONE).isMissingNode()).isTrue();
  }

  @Test
  void sendsDataPartsAsJsonText() {
    server.reply(Reply.json(ANSWER));

    call(
        baton(server),
        ModelRequest.of(List.of(Message.of(Role.USER, new DataPart(Json.parse("[1,2]"), null)))));

    assertThat(Json.parse(server.request(0).body()).path("contents").path(0).path("parts"))
        .isEqualTo(Json.parse("[{\"text\": \"[1,2]\"}]"));
  }
}
