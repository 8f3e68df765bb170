package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.call;
import static dev.baton.plugins.openai.OpenAIFixtures.withoutLatency;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Streamed chat completions: deltas become chunks, fragments become parts. */
class ChatStreamingTest {
  private static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

  private ModelResponse stream(Baton baton) {
    return call(baton, baton.context(), HELLO, chunks::add);
  }

  private static String chunk(String delta, String finishReason) {
    return """
        {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1741569952,
         "model": "gpt-4o-mini", "choices": [{"index": 0, "delta": %s, "logprobs": null,
                                              "finish_reason": %s}]}"""
        .formatted(delta, finishReason);
  }

  @Test
  void streamsTextDeltasAndReadsUsageFromTheLastEvent() {
    server.reply(
        Reply.sse(
            chunk("{\"role\": \"assistant\", \"content\": \"\", \"refusal\": null}", "null"),
            chunk("{\"content\": \"Hel\"}", "null"),
            chunk("{\"content\": \"lo!\"}", "null"),
            chunk("{}", "\"stop\""),
            """
            {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
             "usage": {"prompt_tokens": 8, "completion_tokens": 2, "total_tokens": 10}}""",
            "[DONE]"));

    ModelResponse response = stream(baton(server));

    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello"}],
                 "stream": true, "stream_options": {"include_usage": true}}
                """));
    assertThat(server.request(0).header("Accept")).isEqualTo("text/event-stream");
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0, "content": [{"text": "Hel"}]},
                 {"role": "model", "index": 0, "content": [{"text": "lo!"}]}]
                """));
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [{"text": "Hello!"}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 8, "outputTokens": 2, "totalTokens": 10}}
                """));
  }

  @Test
  void assemblesInterleavedToolCallFragmentsByIndex() {
    server.reply(
        Reply.sse(
            chunk(
                """
                {"role": "assistant", "content": null, "tool_calls": [
                   {"index": 0, "id": "call_1", "type": "function",
                    "function": {"name": "getWeather", "arguments": ""}}]}""",
                "null"),
            chunk(
                "{\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\": \"{\\\"ci\"}}]}",
                "null"),
            chunk(
                """
                {"tool_calls": [{"index": 1, "id": "call_2", "type": "function",
                                 "function": {"name": "getWeather",
                                              "arguments": "{\\"city\\": \\"Rome\\"}"}}]}""",
                "null"),
            chunk(
                "{\"tool_calls\": [{\"index\": 0, \"function\": {\"arguments\":"
                    + " \"ty\\\": \\\"Paris\\\"}\"}}]}",
                "null"),
            chunk("{}", "\"tool_calls\""),
            "[DONE]"));

    ModelResponse response = stream(baton(server));

    String requests =
        """
        [{"toolRequest": {"name": "getWeather", "ref": "call_1", "input": {"city": "Paris"}}},
         {"toolRequest": {"name": "getWeather", "ref": "call_2", "input": {"city": "Rome"}}}]
        """;
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                "[{\"role\": \"model\", \"index\": 0, \"content\": %s}]".formatted(requests)));
    assertThat(Json.toTree(response.message()).path("content")).isEqualTo(Json.parse(requests));
    assertThat(response.finishReason()).hasToString("STOP");
  }

  @Test
  void assemblesUnindexedToolCallsByTheirIds() {
    // Gemini's OpenAI-compatible endpoint sends each call in a chunk of its own, without an index;
    // a fragment with neither id nor name continues the call before it.
    server.reply(
        Reply.sse(
            chunk(
                """
                {"role": "assistant", "tool_calls": [
                   {"id": "function-call-1", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\": \\"Paris\\"}"}}]}""",
                "null"),
            chunk(
                """
                {"role": "assistant", "tool_calls": [
                   {"id": "function-call-2", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\": "}}]}""",
                "null"),
            chunk(
                """
                {"tool_calls": [{"id": "", "function": {"arguments": "\\"Rome\\"}"}}]}""",
                "null"),
            chunk(
                """
                {"tool_calls": [{"type": "function",
                                 "function": {"name": "now", "arguments": ""}}]}""",
                "\"stop\""),
            "[DONE]"));

    ModelResponse response = stream(baton(server));

    assertThat(Json.toTree(response.message()).path("content"))
        .isEqualTo(
            Json.parse(
                """
                [{"toolRequest": {"name": "getWeather", "ref": "function-call-1",
                                  "input": {"city": "Paris"}}},
                 {"toolRequest": {"name": "getWeather", "ref": "function-call-2",
                                  "input": {"city": "Rome"}}},
                 {"toolRequest": {"name": "now", "input": {}}}]
                """));
  }

  @Test
  void readsReasoningAndCachedTokensFromTheStreamedUsage() {
    server.reply(
        Reply.sse(
            chunk("{\"content\": \"Hi!\"}", "\"stop\""),
            """
            {"id": "chatcmpl-1", "object": "chat.completion.chunk", "choices": [],
             "usage": {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500,
                       "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
                       "completion_tokens_details": {"reasoning_tokens": 256,
                                                     "audio_tokens": 0,
                                                     "accepted_prediction_tokens": 0,
                                                     "rejected_prediction_tokens": 0}}}""",
            "[DONE]"));

    ModelResponse response = stream(baton(server));

    assertThat(Json.toTree(response.usage()))
        .isEqualTo(
            Json.parse(
                """
                {"inputTokens": 1200, "outputTokens": 44, "thoughtsTokens": 256,
                 "cachedContentTokens": 1024, "totalTokens": 1500}
                """));
  }

  @Test
  void streamsReasoningDeltasFromCompatibleServers() {
    server.reply(
        Reply.sse(
            chunk("{\"reasoning\": \"Greeting.\"}", "null"),
            chunk("{\"content\": \"Hi!\"}", "\"stop\"")));

    ModelResponse response = stream(baton(server));

    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0, "content": [{"reasoning": "Greeting."}]},
                 {"role": "model", "index": 0, "content": [{"text": "Hi!"}]}]
                """));
    assertThat(response.text()).isEqualTo("Hi!");
  }

  @Test
  void anErrorEventFailsTheCall() {
    server.reply(
        Reply.sse(
            chunk("{\"content\": \"Hel\"}", "null"),
            """
            {"error": {"message": "The server had an error while processing your request.",
                       "type": "server_error", "param": null, "code": null}}"""));

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .endsWith("The server had an error while processing your request.");
            });
    assertThat(chunks).hasSize(1);
  }

  /**
   * A server that streams a chunk and an error event and closes the connection at once, as
   * OpenAI-compatible servers do when a generation fails. Losing the end of the body is a race, so
   * the call is repeated.
   */
  @Test
  void aServerThatClosesRightAfterAnErrorEventStillDeliversTheChunkAndItsError() {
    Baton baton = baton(server);
    for (int attempt = 0; attempt < 50; attempt++) {
      server.reply(
          Reply.sse(
                  chunk("{\"content\": \"Hel\"}", "null"),
                  "{\"error\": {\"message\": \"The model crashed.\", \"type\": \"server_error\"}}")
              .thenCut());
      chunks.clear();

      assertThatThrownBy(() -> stream(baton))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                assertThat(e.getMessage()).endsWith("failed while streaming: The model crashed.");
              });
      assertThat(Json.toTree(chunks))
          .as("attempt %d", attempt)
          .isEqualTo(
              Json.parse(
                  "[{\"role\": \"model\", \"index\": 0, \"content\": [{\"text\": \"Hel\"}]}]"));
    }
  }
}
