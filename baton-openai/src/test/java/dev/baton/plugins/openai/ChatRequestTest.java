package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.call;
import static dev.baton.plugins.openai.OpenAIFixtures.completion;
import static dev.baton.plugins.openai.OpenAIFixtures.plugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.OutputConfig;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.Role;
import dev.baton.ai.ToolChoice;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.WeatherTool;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The exact JSON the plugin posts to {@code /chat/completions}. */
class ChatRequestTest {
  private static final String OK =
      completion(
          "{\"role\": \"assistant\", \"content\": \"ok\", \"refusal\": null}",
          "stop",
          "{\"prompt_tokens\": 3, \"completion_tokens\": 1, \"total_tokens\": 4}");
  private static final String SCHEMA =
      """
      {"type": "object",
       "properties": {"colours": {"type": "array", "items": {"type": "string"}}},
       "required": ["colours"]}
      """;

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  @Test
  void sendsMessagesMappedConfigAndAJsonSchemaResponseFormat() {
    server.reply(Reply.json(OK));
    ModelRequest request =
        new ModelRequest(
            List.of(
                Message.system("You are terse."),
                Message.user("Hi"),
                Message.model("Hello!"),
                Message.user("Name two colours.")),
            Json.parse(
                """
                {"temperature": 0.3, "maxOutputTokens": 100, "topP": 0.8, "topK": 20,
                 "stopSequences": ["END"], "seed": 7, "parallelToolCalls": false}
                """),
            List.of(),
            null,
            new OutputConfig(
                "json",
                Json.parse(
                    "{\"$schema\": \"http://json-schema.org/draft-07/schema#\", "
                        + SCHEMA.substring(SCHEMA.indexOf('{') + 1)),
                true,
                null));

    call(baton(server), request);

    FakeHttpServer.Recorded sent = server.request(0);
    assertThat(sent.method()).isEqualTo("POST");
    assertThat(sent.pathAndQuery()).isEqualTo("/v1/chat/completions");
    assertThat(sent.header("Authorization")).isEqualTo("Bearer sk-test");
    assertThat(sent.header("Content-Type")).isEqualTo("application/json");
    assertThat(Json.parse(sent.body()))
        .isEqualTo(
            Json.parse(
                """
                {"model": "gpt-4o-mini",
                 "messages": [
                   {"role": "system", "content": "You are terse."},
                   {"role": "user", "content": "Hi"},
                   {"role": "assistant", "content": "Hello!"},
                   {"role": "user", "content": "Name two colours."}],
                 "temperature": 0.3, "max_tokens": 100, "top_p": 0.8, "top_k": 20,
                 "stop": ["END"], "seed": 7,
                 "response_format": {"type": "json_schema",
                                     "json_schema": {"name": "output", "strict": false,
                                                     "schema": %s}}}
                """
                    .formatted(SCHEMA)));
  }

  @Test
  void sendsToolsMultimodalContentAndAToolHistory() {
    server.reply(Reply.json(OK));
    ToolDefinition weather = WeatherTool.definition();
    ToolDefinition clock = ToolDefinition.of("now");
    List<Message> messages =
        List.of(
            Message.of(
                Role.USER,
                Part.text("Describe these, then check the weather."),
                Part.media("data:image/png;base64,iVBORw0KGgo=", null),
                Part.media("https://example.com/cat.jpg", null),
                Part.media("data:application/pdf;base64,JVBERi0=", null),
                Part.media("data:audio/wav;base64,UklGRg==", "audio/wav"),
                Part.data(Json.parse("{\"units\": \"metric\"}"))),
            Message.of(
                Role.MODEL,
                new ReasoningPart("I should call the tools.", null),
                Part.text("Let me check."),
                Part.toolRequest("getWeather", "call_1", Json.parse("{\"city\": \"Paris\"}")),
                Part.toolRequest("now", "call_2", null)),
            Message.of(
                Role.TOOL,
                Part.toolResponse("getWeather", "call_1", Json.parse("{\"tempC\": 21}")),
                Part.toolResponse("now", "call_2", Json.nodes().stringNode("12:00"))));

    call(
        baton(server),
        new ModelRequest(
            messages,
            Json.parse("{\"parallelToolCalls\": true}"),
            List.of(weather, clock),
            ToolChoice.AUTO,
            OutputConfig.NONE));

    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"model": "gpt-4o-mini",
                 "messages": [
                   {"role": "user", "content": [
                     {"type": "text", "text": "Describe these, then check the weather."},
                     {"type": "image_url",
                      "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                     {"type": "image_url", "image_url": {"url": "https://example.com/cat.jpg"}},
                     {"type": "file", "file": {"filename": "file.pdf",
                                               "file_data": "data:application/pdf;base64,JVBERi0="}},
                     {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                     {"type": "text", "text": "{\\"units\\":\\"metric\\"}"}]},
                   {"role": "assistant", "content": "Let me check.",
                    "tool_calls": [
                      {"id": "call_1", "type": "function",
                       "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                      {"id": "call_2", "type": "function",
                       "function": {"name": "now", "arguments": "{}"}}]},
                   {"role": "tool", "tool_call_id": "call_1", "content": "{\\"tempC\\":21}"},
                   {"role": "tool", "tool_call_id": "call_2", "content": "12:00"}],
                 "tools": [
                   {"type": "function",
                    "function": {"name": "getWeather", "description": "Current weather for a city",
                                 "parameters": {"type": "object",
                                                "properties": {"city": {"type": "string"}},
                                                "required": ["city"]}}},
                   {"type": "function", "function": {"name": "now"}}],
                 "tool_choice": "auto",
                 "parallel_tool_calls": true}
                """));
  }

  @Test
  void asksForAJsonObjectWithoutASchemaAndForStrictSchemasWhenConfigured() {
    server.reply(Reply.json(OK), Reply.json(OK));
    Baton strict = Baton.builder().plugin(plugin(server).strictJsonSchema(true).build()).build();
    List<Message> hi = List.of(Message.user("Reply in JSON"));

    call(strict, ModelRequest.of(hi).withOutput(new OutputConfig("json", null, null, null)));
    call(
        strict,
        ModelRequest.of(hi).withOutput(new OutputConfig("json", Json.parse(SCHEMA), true, null)));

    assertThat(Json.parse(server.request(0).body()).path("response_format"))
        .isEqualTo(Json.parse("{\"type\": \"json_object\"}"));
    assertThat(Json.parse(server.request(1).body()).path("response_format"))
        .isEqualTo(
            Json.parse(
                """
                {"type": "json_schema",
                 "json_schema": {"name": "output", "strict": true, "schema": %s}}
                """
                    .formatted(SCHEMA)));
  }

  @Test
  void aNamedLocalServerNeedsNoKeyAndGetsExtraHeaders() {
    server.reply(Reply.json(OK), Reply.json(OK));
    Baton baton =
        Baton.builder()
            .plugin(
                OpenAICompatible.builder()
                    .name("ollama")
                    .baseUrl(server.baseUrl().resolve("/v1/"))
                    .header("X-Title", "Baton tests")
                    .environment(name -> name.equals("OPENAI_API_KEY") ? "sk-not-for-ollama" : null)
                    .build())
            .plugin(plugin(server).name("openrouter").build())
            .build();

    Model.lookup(baton.registry(), "ollama/llama3.2:3b")
        .run(baton.context(), ModelRequest.of(List.of(Message.user("Hi"))), (c) -> {});
    Model.lookup(baton.registry(), "openrouter/meta-llama/llama-3.3-70b-instruct")
        .run(
            baton.context(),
            ModelRequest.of(List.of(Message.user("Hi"))),
            dev.baton.core.StreamCallback.discard());

    FakeHttpServer.Recorded ollama = server.request(0);
    assertThat(ollama.pathAndQuery()).isEqualTo("/v1/chat/completions");
    assertThat(ollama.header("Authorization")).isNull();
    assertThat(ollama.header("X-Title")).isEqualTo("Baton tests");
    assertThat(Json.parse(ollama.body()).path("model").asString()).isEqualTo("llama3.2:3b");
    assertThat(Json.parse(ollama.body()).path("stream").asBoolean()).isTrue();
    assertThat(Json.parse(server.request(1).body()).path("model").asString())
        .isEqualTo("meta-llama/llama-3.3-70b-instruct");
    assertThat(Model.lookup(baton.registry(), "ollama/qwen3").descriptor().metadata().path("model"))
        .isEqualTo(
            Json.parse(
                """
                {"label": "ollama - qwen3",
                 "supports": {"multiturn": true, "tools": true, "systemRole": true,
                              "media": true, "output": ["text", "json"],
                              "constrained": "all", "toolChoice": true}}
                """));
  }

  private static final ModelRequest CAPPED =
      ModelRequest.of(List.of(Message.user("Hi")))
          .withConfig(Json.parse("{\"maxOutputTokens\": 64}"));

  @Test
  void sendsMaxOutputTokensAsMaxCompletionTokensOnlyToOpenAIItself() {
    server.reply(Reply.json(OK), Reply.json(OK), Reply.json(OK));
    // The proxy lets a request for OpenAI's host reach the local server instead; plain http keeps
    // it a forwarded request rather than a tunnel.
    HttpClient viaLocalServer =
        HttpClient.newBuilder()
            .proxy(
                ProxySelector.of(
                    new InetSocketAddress(server.baseUrl().getHost(), server.baseUrl().getPort())))
            .build();
    OpenAICompatible openAi =
        OpenAICompatible.builder()
            .baseUrl(URI.create("http://api.openai.com/v1"))
            .apiKey(OpenAIFixtures.KEY)
            .httpClient(viaLocalServer)
            .build();

    call(Baton.builder().plugin(openAi).build(), CAPPED);
    call(baton(server), CAPPED);
    call(
        Baton.builder()
            .plugin(plugin(server).maxTokensField("max_completion_tokens").build())
            .build(),
        CAPPED);

    assertThat(server.request(0).pathAndQuery())
        .isEqualTo("http://api.openai.com/v1/chat/completions");
    assertThat(server.requests())
        .extracting(r -> Json.parse(r.body()).path("max_completion_tokens").asInt(0))
        .containsExactly(64, 0, 64);
    assertThat(server.requests())
        .extracting(r -> Json.parse(r.body()).path("max_tokens").asInt(0))
        .containsExactly(0, 64, 0);
    assertThatThrownBy(() -> OpenAICompatible.builder().maxTokensField(" "))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void readsTheBaseUrlAndKeyFromTheEnvironmentAsAPair() {
    server.reply(Reply.json(OK));
    String base = server.baseUrl().resolve("/compat/v1").toString();
    Baton baton =
        Baton.builder()
            .plugin(
                OpenAICompatible.builder()
                    .environment(
                        name ->
                            switch (name) {
                              case "OPENAI_BASE_URL" -> base;
                              case "OPENAI_API_KEY" -> "sk-from-env";
                              default -> null;
                            })
                    .build())
            .build();

    call(baton, ModelRequest.of(List.of(Message.user("Hi"))));

    assertThat(server.request(0).pathAndQuery()).isEqualTo("/compat/v1/chat/completions");
    assertThat(server.request(0).header("Authorization")).isEqualTo("Bearer sk-from-env");
  }

  @Test
  void withoutAKeyOpenAIsOwnAddressFailsAtCallTimeNamingTheVariable() {
    OpenAICompatible plugin = OpenAICompatible.builder().environment(name -> null).build();
    Baton baton = Baton.builder().plugin(plugin).build();

    assertThat(plugin.baseUrl()).isEqualTo(OpenAICompatible.DEFAULT_BASE_URL);
    assertThatThrownBy(() -> call(baton, ModelRequest.of(List.of(Message.user("Hi")))))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
              assertThat(e.getMessage()).contains("OPENAI_API_KEY");
            });
  }

  @Test
  void rejectsWhatChatCompletionsCannotExpress() {
    Baton baton = baton(server);

    assertThatThrownBy(
            () ->
                call(
                    baton,
                    ModelRequest.of(
                        List.of(
                            Message.of(
                                Role.USER, Part.media("https://example.com/a.mp4", "video/mp4"))))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThatThrownBy(() -> OpenAICompatible.builder().name("a/b"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(server.requests()).isEmpty();
  }
}
