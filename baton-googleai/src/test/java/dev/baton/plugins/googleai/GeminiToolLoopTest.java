package dev.baton.plugins.googleai;

import static dev.baton.plugins.googleai.GeminiFixtures.MODEL;
import static dev.baton.plugins.googleai.GeminiFixtures.baton;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Json;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.WeatherTool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** A generate call with a tool round, end to end through the plugin and a replaying server. */
class GeminiToolLoopTest {
  private static final String DECLARATIONS =
      """
      [{"functionDeclarations": [
         {"name": "getWeather", "description": "Current weather for a city",
          "parametersJsonSchema": {"type": "object",
                                   "properties": {"city": {"type": "string"}},
                                   "required": ["city"]}}]}]
      """;

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final WeatherTool weather = new WeatherTool();

  private GenerateOptions.Builder ask(String prompt) {
    return GenerateOptions.builder().model(MODEL).prompt(prompt).tools(weather.tool());
  }

  @Test
  void runsAToolRoundAndSendsTheCallBackWithItsIdAndThoughtSignature() {
    server.reply(
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-1", "name": "getWeather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnLTE="}]},
              "finishReason": "STOP"}],
             "usageMetadata": {"promptTokenCount": 30, "candidatesTokenCount": 5,
                               "thoughtsTokenCount": 12, "totalTokenCount": 47}}
            """),
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"text": "It is 21.5 °C and sunny in Paris."}]},
              "finishReason": "STOP"}],
             "usageMetadata": {"promptTokenCount": 60, "candidatesTokenCount": 12,
                               "totalTokenCount": 72}}
            """));
    Baton baton = baton(server);

    GenerateResponse response = baton.generate(ask("What is the weather in Paris?").build());

    assertThat(response.text()).isEqualTo("It is 21.5 °C and sunny in Paris.");
    assertThat(weather.cities()).containsExactly("Paris");
    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"contents": [{"role": "user",
                               "parts": [{"text": "What is the weather in Paris?"}]}],
                 "tools": %s}
                """
                    .formatted(DECLARATIONS)));
    assertThat(Json.parse(server.request(1).body()))
        .isEqualTo(
            Json.parse(
                """
                {"contents": [
                   {"role": "user", "parts": [{"text": "What is the weather in Paris?"}]},
                   {"role": "model", "parts": [
                     {"functionCall": {"name": "getWeather", "args": {"city": "Paris"},
                                       "id": "fc-1"},
                      "thoughtSignature": "c2lnLTE="}]},
                   {"role": "user", "parts": [
                     {"functionResponse": {"name": "getWeather", "id": "fc-1",
                                           "response": {"output": {"tempC": 21.5,
                                                                  "sky": "sunny"}}}}]}],
                 "tools": %s}
                """
                    .formatted(DECLARATIONS)));
    assertThat(Json.toTree(response.totalUsage()))
        .isEqualTo(
            Json.parse(
                """
                {"inputTokens": 90, "outputTokens": 17, "totalTokens": 119, "thoughtsTokens": 12}
                """));
  }

  @Test
  void runsParallelCallsAndAnswersEachByItsId() {
    server.reply(
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-1", "name": "getWeather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnLTE="},
                {"functionCall": {"id": "fc-2", "name": "getWeather", "args": {"city": "Rome"}}}]},
              "finishReason": "STOP"}]}
            """),
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"text": "Paris 21.5 °C, Rome 25 °C."}]}, "finishReason": "STOP"}]}
            """));

    GenerateResponse response = baton(server).generate(ask("Paris or Rome?").build());

    assertThat(response.text()).isEqualTo("Paris 21.5 °C, Rome 25 °C.");
    assertThat(weather.cities()).containsExactlyInAnyOrder("Paris", "Rome");
    assertThat(Json.parse(server.request(1).body()).path("contents"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "parts": [{"text": "Paris or Rome?"}]},
                 {"role": "model", "parts": [
                   {"functionCall": {"name": "getWeather", "args": {"city": "Paris"},
                                     "id": "fc-1"},
                    "thoughtSignature": "c2lnLTE="},
                   {"functionCall": {"name": "getWeather", "args": {"city": "Rome"},
                                     "id": "fc-2"}}]},
                 {"role": "user", "parts": [
                   {"functionResponse": {"name": "getWeather", "id": "fc-1",
                                         "response": {"output": {"tempC": 21.5, "sky": "sunny"}}}},
                   {"functionResponse": {"name": "getWeather", "id": "fc-2",
                                         "response": {"output": {"tempC": 25, "sky": "sunny"}}}}]}]
                """));
  }

  @Test
  void callsGeminiSentWithoutAnIdGoBackWithoutOneAndAnswerInOrder() {
    server.reply(
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"name": "getWeather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnLTE="},
                {"functionCall": {"name": "getWeather", "args": {"city": "Rome"}}},
                {"functionCall": {"id": "fc-3", "name": "getWeather", "args": {"city": "Oslo"}}}]},
              "finishReason": "STOP"}]}
            """),
        Reply.json(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"text": "Rome and Oslo are warmest."}]}, "finishReason": "STOP"}]}
            """));

    GenerateResponse response = baton(server).generate(ask("Paris, Rome or Oslo?").build());

    assertThat(response.text()).isEqualTo("Rome and Oslo are warmest.");
    assertThat(Json.parse(server.request(1).body()).path("contents"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "parts": [{"text": "Paris, Rome or Oslo?"}]},
                 {"role": "model", "parts": [
                   {"functionCall": {"name": "getWeather", "args": {"city": "Paris"}},
                    "thoughtSignature": "c2lnLTE="},
                   {"functionCall": {"name": "getWeather", "args": {"city": "Rome"}}},
                   {"functionCall": {"name": "getWeather", "args": {"city": "Oslo"},
                                     "id": "fc-3"}}]},
                 {"role": "user", "parts": [
                   {"functionResponse": {"name": "getWeather",
                                         "response": {"output": {"tempC": 21.5, "sky": "sunny"}}}},
                   {"functionResponse": {"name": "getWeather",
                                         "response": {"output": {"tempC": 25, "sky": "sunny"}}}},
                   {"functionResponse": {"name": "getWeather", "id": "fc-3",
                                         "response": {"output": {"tempC": 25, "sky": "sunny"}}}}]}]
                """));
  }

  @Test
  void streamsEveryMessageOfTheLoopWithItsIndex() {
    server.reply(
        Reply.sse(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-1", "name": "getWeather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnLTE="}]}, "finishReason": "STOP"}]}"""),
        Reply.sse(
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Sunny, \"}]}}]}",
            """
            {"candidates": [{"content": {"parts": [{"text": "21.5 °C."}]},
                             "finishReason": "STOP"}]}"""));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    GenerateResponse response =
        baton(server).generate(ask("Weather in Paris?").onChunk(chunks::add).build());

    assertThat(response.text()).isEqualTo("Sunny, 21.5 °C.");
    assertThat(server.requests())
        .extracting(FakeHttpServer.Recorded::pathAndQuery)
        .containsOnly("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0, "content": [
                   {"toolRequest": {"name": "getWeather", "ref": "fc-1",
                                    "input": {"city": "Paris"}},
                    "metadata": {"thoughtSignature": "c2lnLTE=", "functionCallId": "fc-1"}}]},
                 {"role": "tool", "index": 1, "content": [
                   {"toolResponse": {"name": "getWeather", "ref": "fc-1",
                                     "output": {"tempC": 21.5, "sky": "sunny"}}}]},
                 {"role": "model", "index": 2, "content": [{"text": "Sunny, "}]},
                 {"role": "model", "index": 2, "content": [{"text": "21.5 °C."}]}]
                """));
    assertThat(Json.parse(server.request(1).body()).path("contents").path(1))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "parts": [
                   {"functionCall": {"name": "getWeather", "args": {"city": "Paris"},
                                     "id": "fc-1"},
                    "thoughtSignature": "c2lnLTE="}]}
                """));
  }
}
