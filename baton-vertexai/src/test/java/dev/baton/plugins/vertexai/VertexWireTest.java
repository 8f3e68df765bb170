package dev.baton.plugins.vertexai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.OutputOptions;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Vertex AI's documented wire for both publishers: Gemini's {@code generateContent} and {@code
 * streamGenerateContent?alt=sse}, and Claude's {@code rawPredict} and {@code streamRawPredict} with
 * the Messages API body, {@code anthropic_version: vertex-2023-10-16} and no {@code model}.
 */
class VertexWireTest {
  private FakeHttpServer server;
  private Baton baton;

  @BeforeEach
  void start() throws Exception {
    server = new FakeHttpServer();
    baton = VertexFixtures.baton(VertexFixtures.plugin(server.baseUrl()).build());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static ModelRequest ask(String text) {
    return ModelRequest.of(List.of(Message.system("Be brief."), Message.user(text)))
        .withConfig(Json.toTree(Map.of("temperature", 0.5)));
  }

  @Test
  void geminiIsCalledThroughGenerateContentWithGeminisBody() {
    server.reply(Reply.json(VertexFixtures.geminiText("Blue light scatters.")));

    ModelResponse response = VertexFixtures.call(baton, VertexFixtures.GEMINI, ask("Why blue?"));

    assertThat(response.text()).isEqualTo("Blue light scatters.");
    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(response.usage().inputTokens()).isEqualTo(4);
    assertThat(server.request(0).pathAndQuery())
        .isEqualTo(VertexFixtures.MODELS + "google/models/gemini-2.5-flash:generateContent");
    assertThat(server.request(0).header("Authorization"))
        .isEqualTo("Bearer " + VertexFixtures.TOKEN);
    assertThat(server.request(0).header("x-goog-api-key")).isNull();
    JsonNode body = VertexFixtures.body(server, 0);
    assertThat(body.at("/systemInstruction/parts/0/text").asString()).isEqualTo("Be brief.");
    assertThat(body.at("/contents/0/role").asString()).isEqualTo("user");
    assertThat(body.at("/contents/0/parts/0/text").asString()).isEqualTo("Why blue?");
    assertThat(body.at("/generationConfig/temperature").asDouble()).isEqualTo(0.5);
  }

  @Test
  void geminiStreamsThroughStreamGenerateContentOverSse() {
    server.reply(
        Reply.sse(
            "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\":"
                + " \"Blue \"}]}}]}",
            "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\":"
                + " \"light.\"}]}, \"finishReason\": \"STOP\"}]}"));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    ModelResponse response =
        VertexFixtures.call(baton, VertexFixtures.GEMINI, ask("Why blue?"), chunks::add);

    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Blue ", "light.");
    assertThat(response.text()).isEqualTo("Blue light.");
    assertThat(server.request(0).pathAndQuery())
        .isEqualTo(
            VertexFixtures.MODELS + "google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assertThat(server.request(0).header("Accept")).isEqualTo("text/event-stream");
  }

  @Test
  void claudeIsCalledThroughRawPredictWithTheMessagesBodyAndVertexsVersion() {
    server.reply(Reply.json(VertexFixtures.claudeText("Rayleigh scattering.")));

    ModelResponse response = VertexFixtures.call(baton, VertexFixtures.CLAUDE, ask("Why blue?"));

    assertThat(response.text()).isEqualTo("Rayleigh scattering.");
    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(response.usage().outputTokens()).isEqualTo(5);
    assertThat(server.request(0).pathAndQuery())
        .isEqualTo(
            VertexFixtures.MODELS + "anthropic/models/claude-sonnet-4-5@20250929:rawPredict");
    assertThat(server.request(0).header("Authorization"))
        .isEqualTo("Bearer " + VertexFixtures.TOKEN);
    assertThat(server.request(0).header("x-api-key")).isNull();
    assertThat(server.request(0).header("anthropic-version")).isNull();
    JsonNode body = VertexFixtures.body(server, 0);
    assertThat(body.path("anthropic_version").asString()).isEqualTo("vertex-2023-10-16");
    assertThat(body.has("model")).isFalse();
    assertThat(body.has("stream")).isFalse();
    assertThat(body.path("max_tokens").asInt()).isPositive();
    assertThat(body.at("/system/0/text").asString()).isEqualTo("Be brief.");
    assertThat(body.at("/messages/0/role").asString()).isEqualTo("user");
    assertThat(body.at("/messages/0/content/0/text").asString()).isEqualTo("Why blue?");
    assertThat(body.path("temperature").asDouble()).isEqualTo(0.5);
  }

  @Test
  void claudeStreamsThroughStreamRawPredictAndAssemblesToolInput() {
    server.reply(
        Reply.sse(
            """
            {"type": "message_start", "message": {"id": "msg_vrtx_01", "type": "message",
             "role": "assistant", "content": [], "model": "claude-sonnet-4-5-20250929",
             "stop_reason": null, "usage": {"input_tokens": 20, "output_tokens": 1}}}""",
            """
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}""",
            """
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Checking."}}""",
            """
            {"type": "content_block_stop", "index": 0}""",
            """
            {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use",
             "id": "toolu_01", "name": "weather", "input": {}}}""",
            """
            {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\\"city\\": "}}""",
            """
            {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "\\"Paris\\"}"}}""",
            """
            {"type": "content_block_stop", "index": 1}""",
            """
            {"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null},
             "usage": {"output_tokens": 15}}""",
            """
            {"type": "message_stop"}"""));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    ModelResponse response =
        VertexFixtures.call(baton, VertexFixtures.CLAUDE, ask("Weather?"), chunks::add);

    assertThat(server.request(0).pathAndQuery())
        .isEqualTo(
            VertexFixtures.MODELS + "anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
    JsonNode body = VertexFixtures.body(server, 0);
    assertThat(body.path("stream").asBoolean()).isTrue();
    assertThat(body.path("anthropic_version").asString()).isEqualTo("vertex-2023-10-16");
    assertThat(body.has("model")).isFalse();
    assertThat(chunks.get(0).text()).isEqualTo("Checking.");
    ToolRequestPart call = (ToolRequestPart) response.message().content().get(1);
    assertThat(call.toolRequest().name()).isEqualTo("weather");
    assertThat(call.toolRequest().ref()).isEqualTo("toolu_01");
    assertThat(Json.write(call.toolRequest().input())).isEqualTo("{\"city\":\"Paris\"}");
    assertThat(response.usage().outputTokens()).isEqualTo(15);
  }

  @Test
  void claudesErrorEventMidStreamEndsTheCallWithItsStatusAfterWhatWasStreamed() {
    server.reply(
        Reply.sse(
            """
            {"type": "message_start", "message": {"id": "msg_vrtx_02", "type": "message",
             "role": "assistant", "content": [], "model": "claude-sonnet-4-5-20250929",
             "stop_reason": null, "usage": {"input_tokens": 20, "output_tokens": 1}}}""",
            """
            {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}""",
            """
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Partly"}}""",
            """
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"""));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    assertThatThrownBy(
            () -> VertexFixtures.call(baton, VertexFixtures.CLAUDE, ask("Hi"), chunks::add))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage()).contains("Overloaded");
            });
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Partly");
  }

  @Test
  void claudesStreamClosedMidMessageIsUnavailableAfterWhatWasStreamed() {
    server.reply(
        Reply.sse(
                """
                {"type": "message_start", "message": {"id": "msg_vrtx_03", "type": "message",
                 "role": "assistant", "content": [], "model": "claude-sonnet-4-5-20250929",
                 "stop_reason": null, "usage": {"input_tokens": 20, "output_tokens": 1}}}""",
                """
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}""",
                """
                {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Half"}}""")
            .thenCut());
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    assertThatThrownBy(
            () -> VertexFixtures.call(baton, VertexFixtures.CLAUDE, ask("Hi"), chunks::add))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE));
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Half");
  }

  @Test
  void claudesHttpErrorsMapAsGooglesErrors() {
    server.reply(
        Reply.json(
            429,
            """
            {"error": {"code": 429, "message": "Quota exceeded for aiplatform.googleapis.com",
             "status": "RESOURCE_EXHAUSTED"}}"""));

    assertThatThrownBy(() -> VertexFixtures.call(baton, VertexFixtures.CLAUDE, ask("Hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
              assertThat(e.getMessage()).contains("Quota exceeded");
            });
  }

  @Test
  void claudeIsNeverAskedForStructuredOutputButTheConfigMayAskForIt() {
    server.reply(
        Reply.json(VertexFixtures.claudeText("{}")), Reply.json(VertexFixtures.claudeText("{}")));
    JsonNode schema =
        Json.parse("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}");
    JsonNode optIn =
        Json.parse(
            "{\"output_config\": {\"format\": {\"type\": \"json_schema\", \"schema\": {}}}}");

    for (JsonNode config : List.of(Json.object(), optIn)) {
      baton.generate(
          GenerateOptions.builder()
              .model(VertexFixtures.CLAUDE)
              .prompt("Where?")
              .output(OutputOptions.schema(schema))
              .config(config)
              .build());
    }

    JsonNode plain = VertexFixtures.body(server, 0);
    assertThat(plain.has("output_config")).isFalse();
    assertThat(plain.path("messages").toString()).contains("city");
    assertThat(VertexFixtures.body(server, 1).path("output_config"))
        .isEqualTo(optIn.path("output_config"));
  }

  @Test
  void theMaxTokensOfTheBuilderGoToClaude() throws Exception {
    server.reply(Reply.json(VertexFixtures.claudeText("ok")));
    Baton withMax =
        VertexFixtures.baton(VertexFixtures.plugin(server.baseUrl()).maxTokens(321).build());

    VertexFixtures.call(withMax, VertexFixtures.CLAUDE, ask("Hi"));

    assertThat(VertexFixtures.body(server, 0).path("max_tokens").asInt()).isEqualTo(321);
  }

  @Test
  void regionalAndGlobalLocationsHaveTheirOwnHosts() {
    VertexModel.Settings regional = new VertexModel.Settings(null, "p", "europe-west4", null);
    VertexModel.Settings global = new VertexModel.Settings(null, "p", "global", null);
    VertexModel.Settings proxied =
        new VertexModel.Settings(URI.create("http://proxy:8080/vertex/"), "p", "global", null);

    assertThat(regional.modelUrl("p", "google", "gemini-2.5-pro"))
        .isEqualTo(
            "https://europe-west4-aiplatform.googleapis.com/v1/projects/p/locations/europe-west4"
                + "/publishers/google/models/gemini-2.5-pro");
    assertThat(global.modelUrl("p", "anthropic", "claude-opus-4-1"))
        .isEqualTo(
            "https://aiplatform.googleapis.com/v1/projects/p/locations/global"
                + "/publishers/anthropic/models/claude-opus-4-1");
    assertThat(proxied.modelUrl("p", "google", "g"))
        .isEqualTo(
            "http://proxy:8080/vertex/v1/projects/p/locations/global/publishers/google/models/g");
  }

  @Test
  void projectAndLocationComeFromTheEnvironmentAndTheLocationDefaultsToGlobal() {
    server.reply(
        Reply.json(VertexFixtures.geminiText("a")), Reply.json(VertexFixtures.geminiText("b")));
    Map<String, String> env =
        Map.of("GOOGLE_CLOUD_PROJECT", " env-project ", "GOOGLE_CLOUD_LOCATION", "asia-east1");
    Baton fromEnv =
        VertexFixtures.baton(
            VertexAI.builder()
                .environment(env::get)
                .credentials(VertexFixtures.fixedToken())
                .baseUrl(server.baseUrl())
                .httpClient(FakeHttpServer.sharedClient())
                .build());
    Baton byDefault =
        VertexFixtures.baton(
            VertexAI.builder()
                .environment(name -> name.equals("GOOGLE_CLOUD_PROJECT") ? "second-project" : null)
                .credentials(VertexFixtures.fixedToken())
                .baseUrl(server.baseUrl())
                .httpClient(FakeHttpServer.sharedClient())
                .build());

    VertexFixtures.call(fromEnv, VertexFixtures.GEMINI, ask("Hi"));
    VertexFixtures.call(byDefault, VertexFixtures.GEMINI, ask("Hi"));

    assertThat(server.request(0).pathAndQuery())
        .startsWith("/v1/projects/env-project/locations/asia-east1/publishers/google/");
    assertThat(server.request(1).pathAndQuery())
        .startsWith("/v1/projects/second-project/locations/global/publishers/google/");
  }
}
