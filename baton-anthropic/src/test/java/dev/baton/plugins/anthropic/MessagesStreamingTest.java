package dev.baton.plugins.anthropic;

import static dev.baton.plugins.anthropic.AnthropicFixtures.baton;
import static dev.baton.plugins.anthropic.AnthropicFixtures.body;
import static dev.baton.plugins.anthropic.AnthropicFixtures.call;
import static dev.baton.plugins.anthropic.AnthropicFixtures.events;
import static dev.baton.plugins.anthropic.AnthropicFixtures.withoutLatency;
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

/** A streamed answer: chunks in order as events arrive, and one assembled response. */
class MessagesStreamingTest {
  private static final ModelRequest WEATHER =
      ModelRequest.of(List.of(Message.user("What is the weather in Paris?")));
  private static final String START =
      """
      {"type": "message_start", "message": {"id": "msg_014p7gG3wDgGV9EUtLvnow3U",
       "type": "message", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
       "content": [], "stop_reason": null, "stop_sequence": null,
       "usage": {"input_tokens": 472, "cache_read_input_tokens": 100, "output_tokens": 2}}}""";
  private static final String TEXT_START =
      """
      {"type": "content_block_start", "index": 0,
       "content_block": {"type": "text", "text": ""}}""";

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

  private ModelResponse stream(Baton baton) {
    return call(baton, baton.context(), WEATHER, chunks::add);
  }

  private static String textDelta(int index, String text) {
    return """
        {"type": "content_block_delta", "index": %d,
         "delta": {"type": "text_delta", "text": "%s"}}"""
        .formatted(index, text);
  }

  private static String stop(int index) {
    return "{\"type\": \"content_block_stop\", \"index\": " + index + "}";
  }

  private static String messageDelta(String stopReason, int outputTokens) {
    return """
        {"type": "message_delta", "delta": {"stop_reason": "%s", "stop_sequence": null},
         "usage": {"output_tokens": %d}}"""
        .formatted(stopReason, outputTokens);
  }

  @Test
  void streamsThinkingTextAndToolInputAndAssemblesTheMessage() {
    server.reply(
        events(
            START,
            """
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "thinking", "thinking": "", "signature": ""}}""",
            """
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "thinking_delta", "thinking": "The user wants "}}""",
            "{\"type\": \"ping\"}",
            """
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "thinking_delta", "thinking": "the weather."}}""",
            """
            {"type": "content_block_delta", "index": 0,
             "delta": {"type": "signature_delta", "signature": "EqQBCgIYAhIM1gbcDa9G"}}""",
            stop(0),
            """
            {"type": "content_block_start", "index": 1,
             "content_block": {"type": "text", "text": ""}}""",
            textDelta(1, "Let me "),
            textDelta(1, "check."),
            stop(1),
            """
            {"type": "content_block_start", "index": 2,
             "content_block": {"type": "tool_use", "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                               "name": "getWeather", "input": {}}}""",
            """
            {"type": "content_block_delta", "index": 2,
             "delta": {"type": "input_json_delta", "partial_json": ""}}""",
            """
            {"type": "content_block_delta", "index": 2,
             "delta": {"type": "input_json_delta", "partial_json": "{\\"city\\": \\"Pa"}}""",
            """
            {"type": "content_block_delta", "index": 2,
             "delta": {"type": "input_json_delta", "partial_json": "ris\\"}"}}""",
            stop(2),
            messageDelta("tool_use", 89),
            "{\"type\": \"message_stop\"}"));

    ModelResponse response = stream(baton(server));

    assertThat(body(server, 0).path("stream").asBoolean()).isTrue();
    assertThat(server.request(0).header("Accept")).isEqualTo("text/event-stream");
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0, "content": [{"reasoning": "The user wants "}]},
                 {"role": "model", "index": 0, "content": [{"reasoning": "the weather."}]},
                 {"role": "model", "index": 0, "content": [{"text": "Let me "}]},
                 {"role": "model", "index": 0, "content": [{"text": "check."}]},
                 {"role": "model", "index": 0, "content": [
                   {"toolRequest": {"name": "getWeather", "ref": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                                    "input": {"city": "Paris"}}}]}]
                """));
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [
                   {"reasoning": "The user wants the weather.",
                    "metadata": {"signature": "EqQBCgIYAhIM1gbcDa9G"}},
                   {"text": "Let me check."},
                   {"toolRequest": {"name": "getWeather", "ref": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
                                    "input": {"city": "Paris"}}}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 572, "outputTokens": 89, "totalTokens": 661,
                           "cachedContentTokens": 100}}
                """));
  }

  @Test
  void keepsARedactedThinkingBlockThatArrivesWholeAtItsStart() {
    server.reply(
        events(
            START,
            """
            {"type": "content_block_start", "index": 0,
             "content_block": {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3p"}}""",
            stop(0),
            """
            {"type": "content_block_start", "index": 1,
             "content_block": {"type": "text", "text": ""}}""",
            textDelta(1, "Done."),
            stop(1),
            messageDelta("end_turn", 30),
            "{\"type\": \"message_stop\"}"));

    ModelResponse response = stream(baton(server));

    assertThat(Json.toTree(response.message().content()))
        .isEqualTo(
            Json.parse(
                """
                [{"reasoning": "", "metadata": {"redactedThinking": "EmwKAhgBEgy3va3p"}},
                 {"text": "Done."}]
                """));
  }

  @Test
  void anErrorEventMidStreamFailsTheCallWithItsStatusAfterWhatWasStreamed() {
    server.reply(
        events(
            START,
            TEXT_START,
            textDelta(0, "Sunny"),
            """
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"""));

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo("Anthropic API failed while streaming: Overloaded");
              assertThat(e.details().path("providerError").path("type").stringValue())
                  .isEqualTo("overloaded_error");
              assertThat(e.isPublic()).isTrue();
            });
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Sunny");
  }

  @Test
  void anErrorEventKeepsTheStatusItsTypeStandsFor() {
    server.reply(
        events(
            START,
            """
            {"type": "error", "error": {"type": "rate_limit_error",
                                        "message": "Output rate limit exceeded"}}"""));

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED));
  }

  @Test
  void aConnectionClosedMidStreamFailsTheCallAfterWhatWasStreamed() {
    server.reply(Reply.sse(START, TEXT_START, textDelta(0, "Sun"), textDelta(0, "ny")).thenCut());

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage()).startsWith("could not reach Anthropic API");
            });
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Sun", "ny");
  }

  @Test
  void aStreamThatEndsBeforeMessageStopIsUnavailable() {
    server.reply(events(START, TEXT_START, textDelta(0, "Sunny"), stop(0)));

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo("Anthropic API ended the stream before the message was complete");
            });
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Sunny");
  }

  @Test
  void continuesAPausedTurnByStreamingAgain() {
    server.reply(
        events(
            START,
            TEXT_START,
            textDelta(0, "Searching. "),
            stop(0),
            messageDelta("pause_turn", 5),
            "{\"type\": \"message_stop\"}"),
        events(
            START,
            TEXT_START,
            textDelta(0, "Sunny."),
            stop(0),
            messageDelta("end_turn", 7),
            "{\"type\": \"message_stop\"}"));

    ModelResponse response = stream(baton(server));

    assertThat(chunks)
        .extracting(ModelResponseChunk::text)
        .containsExactly("Searching. ", "Sunny.");
    assertThat(response.text()).isEqualTo("Searching. Sunny.");
    assertThat(body(server, 1).path("messages").path(1))
        .isEqualTo(
            Json.parse(
                """
                {"role": "assistant", "content": [{"type": "text", "text": "Searching. "}]}
                """));
    assertThat(response.usage().outputTokens()).isEqualTo(12);
  }
}
