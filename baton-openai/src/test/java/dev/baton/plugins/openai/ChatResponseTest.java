package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.call;
import static dev.baton.plugins.openai.OpenAIFixtures.completion;
import static dev.baton.plugins.openai.OpenAIFixtures.withoutLatency;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.core.Json;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The {@code ModelResponse} built from chat completions. */
class ChatResponseTest {
  private static final String SMALL_USAGE =
      "{\"prompt_tokens\": 9, \"completion_tokens\": 3, \"total_tokens\": 12}";

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  private ModelResponse answer(String json) {
    server.reply(Reply.json(json));
    return call(baton(server), ModelRequest.of(List.of(Message.user("Hello"))));
  }

  @Test
  void mapsTextAndUsageKeepingReasoningTokensApartFromOutput() {
    ModelResponse response =
        answer(
            completion(
                """
                {"role": "assistant", "content": "Hello! How can I help?", "refusal": null,
                 "annotations": []}""",
                "stop",
                """
                {"prompt_tokens": 1200, "completion_tokens": 300, "total_tokens": 1500,
                 "prompt_tokens_details": {"cached_tokens": 1024, "audio_tokens": 0},
                 "completion_tokens_details": {"reasoning_tokens": 256, "audio_tokens": 0,
                                               "accepted_prediction_tokens": 0,
                                               "rejected_prediction_tokens": 0}}"""));

    assertThat(response.latencyMs()).isNotNull();
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [{"text": "Hello! How can I help?"}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 1200, "outputTokens": 44, "totalTokens": 1500,
                           "thoughtsTokens": 256, "cachedContentTokens": 1024}}
                """));
  }

  @Test
  void mapsParallelToolCallsInOrder() {
    ModelResponse response =
        answer(
            completion(
                """
                {"role": "assistant", "content": null, "tool_calls": [
                   {"id": "call_1", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Paris\\"}"}},
                   {"id": "call_2", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\":\\"Rome\\"}"}},
                   {"id": "call_3", "type": "function",
                    "function": {"name": "now", "arguments": ""}}]}""",
                "tool_calls",
                SMALL_USAGE));

    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(Json.toTree(response.message()))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "content": [
                   {"toolRequest": {"name": "getWeather", "ref": "call_1",
                                    "input": {"city": "Paris"}}},
                   {"toolRequest": {"name": "getWeather", "ref": "call_2",
                                    "input": {"city": "Rome"}}},
                   {"toolRequest": {"name": "now", "ref": "call_3", "input": {}}}]}
                """));
  }

  @Test
  void keepsArgumentsThatAreNotJsonAsAString() {
    ModelResponse response =
        answer(
            completion(
                """
                {"role": "assistant", "tool_calls": [
                   {"id": "call_1", "type": "function",
                    "function": {"name": "getWeather", "arguments": "{\\"city\\": Par"}}]}""",
                "tool_calls",
                SMALL_USAGE));

    assertThat(response.toolRequests().get(0).toolRequest().input())
        .isEqualTo(Json.nodes().stringNode("{\"city\": Par"));
  }

  @Test
  void mapsReasoningContentFromCompatibleServers() {
    ModelResponse response =
        answer(
            completion(
                """
                {"role": "assistant", "reasoning_content": "The user says hello.",
                 "content": "Hello!"}""",
                "stop",
                SMALL_USAGE));

    assertThat(Json.toTree(response.message()))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "content": [{"reasoning": "The user says hello."},
                                              {"text": "Hello!"}]}
                """));
  }

  @Test
  void mapsFinishReasonsAndRefusals() {
    assertThat(finishOf("length")).isEqualTo(FinishReason.LENGTH);
    assertThat(finishOf("content_filter")).isEqualTo(FinishReason.BLOCKED);
    assertThat(finishOf("something_new")).isEqualTo(FinishReason.UNKNOWN);

    ModelResponse refused =
        answer(
            completion(
                """
                {"role": "assistant", "content": null,
                 "refusal": "I'm sorry, I can't help with that."}""",
                "stop",
                SMALL_USAGE));
    assertThat(refused.finishReason()).isEqualTo(FinishReason.BLOCKED);
    assertThat(refused.finishMessage()).isEqualTo("I'm sorry, I can't help with that.");
    assertThat(refused.message().content()).isEmpty();
  }

  private FinishReason finishOf(String reason) {
    return answer(completion("{\"role\": \"assistant\", \"content\": \"x\"}", reason, SMALL_USAGE))
        .finishReason();
  }
}
