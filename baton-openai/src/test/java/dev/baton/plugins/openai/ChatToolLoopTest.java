package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.MODEL;
import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.completion;
import static org.assertj.core.api.Assertions.assertThat;

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
class ChatToolLoopTest {
  private static final String TOOLS =
      """
      [{"type": "function",
        "function": {"name": "getWeather", "description": "Current weather for a city",
                     "parameters": {"type": "object",
                                    "properties": {"city": {"type": "string"}},
                                    "required": ["city"]}}}]
      """;

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final WeatherTool weather = new WeatherTool();

  @Test
  void runsAToolRoundAndAnswersTheCallByItsId() {
    server.reply(
        Reply.json(
            completion(
                """
                {"role": "assistant", "content": null, "tool_calls": [
                   {"id": "call_abc", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Paris\\"}"}}]}""",
                "tool_calls",
                "{\"prompt_tokens\": 50, \"completion_tokens\": 15, \"total_tokens\": 65}")),
        Reply.json(
            completion(
                "{\"role\": \"assistant\", \"content\": \"It is 21.5 °C and sunny in Paris.\"}",
                "stop",
                "{\"prompt_tokens\": 80, \"completion_tokens\": 12, \"total_tokens\": 92}")));

    GenerateResponse response =
        baton(server)
            .generate(
                GenerateOptions.builder()
                    .model(MODEL)
                    .prompt("What is the weather in Paris?")
                    .tools(weather.tool())
                    .build());

    assertThat(response.text()).isEqualTo("It is 21.5 °C and sunny in Paris.");
    assertThat(weather.cities()).containsExactly("Paris");
    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"model": "gpt-4o-mini",
                 "messages": [{"role": "user", "content": "What is the weather in Paris?"}],
                 "tools": %s}
                """
                    .formatted(TOOLS)));
    assertThat(Json.parse(server.request(1).body()))
        .isEqualTo(
            Json.parse(
                """
                {"model": "gpt-4o-mini",
                 "messages": [
                   {"role": "user", "content": "What is the weather in Paris?"},
                   {"role": "assistant", "content": null, "tool_calls": [
                     {"id": "call_abc", "type": "function",
                      "function": {"name": "getWeather",
                                   "arguments": "{\\"city\\":\\"Paris\\"}"}}]},
                   {"role": "tool", "tool_call_id": "call_abc",
                    "content": "{\\"tempC\\":21.5,\\"sky\\":\\"sunny\\"}"}],
                 "tools": %s}
                """
                    .formatted(TOOLS)));
    assertThat(Json.toTree(response.totalUsage()))
        .isEqualTo(
            Json.parse("{\"inputTokens\": 130, \"outputTokens\": 27, \"totalTokens\": 157}"));
  }

  @Test
  void runsStreamedParallelCallsAndStreamsEveryMessageWithItsIndex() {
    server.reply(
        Reply.sse(
            """
            {"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [
               {"index": 0, "id": "call_1", "type": "function",
                "function": {"name": "getWeather", "arguments": "{\\"city\\": \\"Paris\\"}"}},
               {"index": 1, "id": "call_2", "type": "function",
                "function": {"name": "getWeather", "arguments": "{\\"city\\": \\"Rome\\"}"}}]},
               "finish_reason": null}]}""",
            "{\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"tool_calls\"}]}",
            "[DONE]"),
        Reply.sse(
            "{\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Paris 21.5 °C, \"}}]}",
            """
            {"choices": [{"index": 0, "delta": {"content": "Rome 25 °C."},
                          "finish_reason": "stop"}]}""",
            "[DONE]"));
    List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

    GenerateResponse response =
        baton(server)
            .generate(
                GenerateOptions.builder()
                    .model(MODEL)
                    .prompt("Paris or Rome?")
                    .tools(weather.tool())
                    .onChunk(chunks::add)
                    .build());

    assertThat(response.text()).isEqualTo("Paris 21.5 °C, Rome 25 °C.");
    assertThat(weather.cities()).containsExactlyInAnyOrder("Paris", "Rome");
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0, "content": [
                   {"toolRequest": {"name": "getWeather", "ref": "call_1",
                                    "input": {"city": "Paris"}}},
                   {"toolRequest": {"name": "getWeather", "ref": "call_2",
                                    "input": {"city": "Rome"}}}]},
                 {"role": "tool", "index": 1, "content": [
                   {"toolResponse": {"name": "getWeather", "ref": "call_1",
                                     "output": {"tempC": 21.5, "sky": "sunny"}}},
                   {"toolResponse": {"name": "getWeather", "ref": "call_2",
                                     "output": {"tempC": 25, "sky": "sunny"}}}]},
                 {"role": "model", "index": 2, "content": [{"text": "Paris 21.5 °C, "}]},
                 {"role": "model", "index": 2, "content": [{"text": "Rome 25 °C."}]}]
                """));
    assertThat(Json.parse(server.request(1).body()).path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": "Paris or Rome?"},
                 {"role": "assistant", "content": null, "tool_calls": [
                   {"id": "call_1", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                   {"id": "call_2", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Rome\\"}"}}]},
                 {"role": "tool", "tool_call_id": "call_1",
                  "content": "{\\"tempC\\":21.5,\\"sky\\":\\"sunny\\"}"},
                 {"role": "tool", "tool_call_id": "call_2",
                  "content": "{\\"tempC\\":25,\\"sky\\":\\"sunny\\"}"}]
                """));
  }
}
