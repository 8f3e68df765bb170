package dev.baton.plugins.googleai;

import static dev.baton.plugins.googleai.GeminiFixtures.baton;
import static dev.baton.plugins.googleai.GeminiFixtures.call;
import static dev.baton.plugins.googleai.GeminiFixtures.withoutLatency;
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

/** {@code streamGenerateContent?alt=sse}: chunks in order, and one assembled response. */
class GeminiStreamingTest {
  private static final ModelRequest WHY =
      ModelRequest.of(List.of(Message.user("Why is the sky blue?")));

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final List<ModelResponseChunk> chunks = new CopyOnWriteArrayList<>();

  private ModelResponse stream(Baton baton) {
    return call(baton, baton.context(), WHY, chunks::add);
  }

  @Test
  void streamsEachEventAsAChunkAndAssemblesTheMessage() {
    server.reply(
        Reply.sse(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
               {"text": "**Thinking about light**", "thought": true}]}, "index": 0}],
             "usageMetadata": {"promptTokenCount": 8, "totalTokenCount": 8}}""",
            """
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunlight "}]},
                             "index": 0}]}""",
            """
            {"candidates": [{"content": {"role": "model",
                                         "parts": [{"text": "scatters off air."}]},
                             "index": 0}]}""",
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                               {"text": "", "thoughtSignature": "c2lnLXN0cmVhbQ=="}]},
                             "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": 8, "candidatesTokenCount": 6,
                               "thoughtsTokenCount": 30, "totalTokenCount": 44}}"""));

    ModelResponse response = stream(baton(server));

    assertThat(server.request(0).pathAndQuery())
        .isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    assertThat(server.request(0).header("Accept")).isEqualTo("text/event-stream");
    assertThat(Json.parse(server.request(0).body()))
        .isEqualTo(
            Json.parse(
                """
                {"contents": [{"role": "user", "parts": [{"text": "Why is the sky blue?"}]}]}
                """));
    assertThat(Json.toTree(chunks))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "model", "index": 0,
                  "content": [{"reasoning": "**Thinking about light**"}]},
                 {"role": "model", "index": 0, "content": [{"text": "Sunlight "}]},
                 {"role": "model", "index": 0, "content": [{"text": "scatters off air."}]},
                 {"role": "model", "index": 0,
                  "content": [{"text": "", "metadata": {"thoughtSignature": "c2lnLXN0cmVhbQ=="}}]}]
                """));
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [
                   {"reasoning": "**Thinking about light**"},
                   {"text": "Sunlight scatters off air.",
                    "metadata": {"thoughtSignature": "c2lnLXN0cmVhbQ=="}}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 8, "outputTokens": 6, "totalTokens": 44,
                           "thoughtsTokens": 30}}
                """));
  }

  @Test
  void joinsDeltasAcrossEventsButNotThePartsOfOneEventNorIntoASignedPart() {
    server.reply(
        Reply.sse(
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"A\"}, {\"text\": \"B\"}]}}]}",
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"C\", \"thoughtSignature\": \"c2ln\"}]}}]}",
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"D\"}]}}]}",
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"E\"}]}}]}"));

    ModelResponse response = stream(baton(server));

    assertThat(Json.toTree(response.message().content()))
        .isEqualTo(
            Json.parse(
                """
                [{"text": "A"}, {"text": "BC", "metadata": {"thoughtSignature": "c2ln"}},
                 {"text": "DE"}]
                """));
  }

  @Test
  void aPromptBlockedAtTheStartOfAStreamGivesAnEmptyBlockedMessage() {
    server.reply(
        Reply.sse(
            """
            {"promptFeedback": {"blockReason": "SAFETY",
                                "blockReasonMessage": "The prompt was flagged.",
                                "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                                                   "probability": "HIGH"}]},
             "usageMetadata": {"promptTokenCount": 9, "totalTokenCount": 9},
             "modelVersion": "gemini-2.5-flash"}"""));

    ModelResponse response = stream(baton(server));

    assertThat(chunks).isEmpty();
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": []},
                 "finishReason": "blocked",
                 "finishMessage": "the prompt was blocked (SAFETY): The prompt was flagged.",
                 "usage": {"inputTokens": 9, "totalTokens": 9}}
                """));
  }

  @Test
  void skipsCommentsAndReadsFramesSplitAcrossWrites() {
    server.reply(
        Reply.raw(
            200,
            "text/event-stream",
            ": keep-alive\n\n",
            "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hel",
            "lo\"}]}}]}\n\n",
            "data: {\"candidates\": [{\"finishReason\": \"STOP\"}]}\n"));

    ModelResponse response = stream(baton(server));

    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Hello");
    assertThat(response.text()).isEqualTo("Hello");
    assertThat(response.finishReason()).hasToString("STOP");
  }

  @Test
  void anErrorEventInsideTheStreamFailsTheCallWithItsStatus() {
    server.reply(
        Reply.sse(
            "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Sunlight\"}]}}]}",
            """
            {"error": {"code": 503, "message": "The model is overloaded. Please try again later.",
                       "status": "UNAVAILABLE"}}"""));

    assertThatThrownBy(() -> stream(baton(server)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Gemini API failed while streaming: The model is overloaded. Please try"
                          + " again later.");
            });
    assertThat(chunks).extracting(ModelResponseChunk::text).containsExactly("Sunlight");
  }

  @Test
  void usesTheNonStreamingEndpointWhenTheCallerDiscardsChunks() {
    server.reply(
        Reply.json("{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"ok\"}]}}]}"));

    call(baton(server), WHY);

    assertThat(server.request(0).pathAndQuery())
        .isEqualTo("/v1beta/models/gemini-2.5-flash:generateContent");
  }
}
