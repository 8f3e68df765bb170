package dev.baton.plugins.anthropic;

import static dev.baton.plugins.anthropic.AnthropicFixtures.baton;
import static dev.baton.plugins.anthropic.AnthropicFixtures.body;
import static dev.baton.plugins.anthropic.AnthropicFixtures.call;
import static dev.baton.plugins.anthropic.AnthropicFixtures.message;
import static dev.baton.plugins.anthropic.AnthropicFixtures.withoutLatency;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Json;
import dev.baton.testing.FakeHttpServer;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a whole Messages API answer becomes: parts, finish reason and usage. */
class MessagesResponseTest {
  private static final ModelRequest WEATHER =
      ModelRequest.of(List.of(Message.user("What is the weather in Paris?")));

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  @Test
  void mapsThinkingRedactedThinkingTextAndToolUseBlocks() {
    server.reply(
        message(
            """
            [{"type": "thinking", "thinking": "The user wants the weather.",
              "signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"},
             {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT"},
             {"type": "text", "text": "Let me check."},
             {"type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9",
              "name": "getWeather", "input": {"city": "Paris"}}]""",
            "tool_use",
            "{\"input_tokens\": 472, \"output_tokens\": 89}"));

    ModelResponse response = call(baton(server), WEATHER);

    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [
                   {"reasoning": "The user wants the weather.",
                    "metadata": {"signature": "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds"}},
                   {"reasoning": "",
                    "metadata": {"redactedThinking": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT"}},
                   {"text": "Let me check."},
                   {"toolRequest": {"name": "getWeather", "ref": "toolu_01A09q90qw90lq917835lq9",
                                    "input": {"city": "Paris"}}}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 472, "outputTokens": 89, "totalTokens": 561}}
                """));
  }

  @Test
  void countsCacheWritesAndReadsAsInputAndReadsAsCachedInput() {
    server.reply(
        message(
            "[{\"type\": \"text\", \"text\": \"ok\"}]",
            "end_turn",
            """
            {"input_tokens": 21, "cache_creation_input_tokens": 188086,
             "cache_read_input_tokens": 1000, "output_tokens": 393,
             "service_tier": "standard"}"""));

    ModelResponse response = call(baton(server), WEATHER);

    assertThat(Json.toTree(response.usage()))
        .isEqualTo(
            Json.parse(
                """
                {"inputTokens": 189107, "outputTokens": 393, "totalTokens": 189500,
                 "cachedContentTokens": 1000,
                 "custom": {"cacheCreationInputTokens": 188086.0}}
                """));
  }

  @ParameterizedTest
  @CsvSource({
    "end_turn, STOP",
    "stop_sequence, STOP",
    "tool_use, STOP",
    "max_tokens, LENGTH",
    "model_context_window_exceeded, LENGTH",
    "refusal, BLOCKED",
    "something_new, UNKNOWN"
  })
  void mapsStopReasons(String stopReason, FinishReason expected) {
    server.reply(
        message(
            "[{\"type\": \"text\", \"text\": \"ok\"}]",
            stopReason,
            "{\"input_tokens\": 1, \"output_tokens\": 1}"));

    assertThat(call(baton(server), WEATHER).finishReason()).isEqualTo(expected);
  }

  @Test
  void continuesAPausedTurnWithItsContentAndReturnsEveryRound() {
    String search =
        """
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
         "input": {"query": "Paris weather"}}""";
    String results =
        """
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01",
         "content": [{"type": "web_search_result", "url": "https://example.com/paris",
                      "title": "Paris", "encrypted_content": "Eo8BCioIAhgB"}]}""";
    server.reply(
        message(
            "[" + search + ", " + results + "]",
            "pause_turn",
            "{\"input_tokens\": 100, \"output_tokens\": 20}"),
        message(
            "[{\"type\": \"text\", \"text\": \"It is sunny in Paris.\"}]",
            "end_turn",
            "{\"input_tokens\": 300, \"output_tokens\": 10}"));

    ModelResponse response = call(baton(server), WEATHER);

    assertThat(server.requests()).hasSize(2);
    assertThat(body(server, 1).path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": [{"type": "text",
                                               "text": "What is the weather in Paris?"}]},
                 {"role": "assistant", "content": [%s, %s]}]
                """
                    .formatted(search, results)));
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [
                   {"custom": {"anthropic": %s}},
                   {"custom": {"anthropic": %s}},
                   {"text": "It is sunny in Paris."}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 400, "outputTokens": 30, "totalTokens": 430}}
                """
                    .formatted(search, results)));
  }

  @Test
  void aTurnStillPausedAfterEveryContinuationFinishesAsOther() {
    for (int i = 0; i <= 8; i++) {
      server.reply(
          message(
              "[{\"type\": \"text\", \"text\": \"" + i + "\"}]",
              "pause_turn",
              "{\"input_tokens\": 1, \"output_tokens\": 1}"));
    }

    ModelResponse response = call(baton(server), WEATHER);

    assertThat(server.requests()).hasSize(9);
    assertThat(response.finishReason()).isEqualTo(FinishReason.OTHER);
    assertThat(response.finishMessage())
        .isEqualTo("the turn was still paused after 8 continuations");
    assertThat(response.text()).isEqualTo("012345678");
    // Each continuation sends the content so far as one assistant turn, not one turn per round.
    assertThat(body(server, 8).path("messages")).hasSize(2);
  }
}
