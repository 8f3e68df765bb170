package dev.baton.plugins.googleai;

import static dev.baton.plugins.googleai.GeminiFixtures.baton;
import static dev.baton.plugins.googleai.GeminiFixtures.call;
import static dev.baton.plugins.googleai.GeminiFixtures.withoutLatency;
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

/** The {@code ModelResponse} built from {@code generateContent} answers. */
class GeminiResponseTest {
  private static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();

  private ModelResponse answer(String json) {
    server.reply(Reply.json(json));
    return call(baton(server), HELLO);
  }

  @Test
  void mapsTextFinishReasonAndUsageWithThoughtAndCachedTokens() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi there!"}]},
                             "finishReason": "STOP", "index": 0}],
             "usageMetadata": {"promptTokenCount": 1200, "candidatesTokenCount": 5,
                               "thoughtsTokenCount": 40, "cachedContentTokenCount": 1024,
                               "totalTokenCount": 1245},
             "modelVersion": "gemini-2.5-flash", "responseId": "abc"}
            """);

    assertThat(response.latencyMs()).isNotNull().isGreaterThanOrEqualTo(0.0);
    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": [{"text": "Hi there!"}]},
                 "finishReason": "stop",
                 "usage": {"inputTokens": 1200, "outputTokens": 5, "totalTokens": 1245,
                           "thoughtsTokens": 40, "cachedContentTokens": 1024}}
                """));
  }

  @Test
  void turnsThoughtSummariesIntoReasoningAndKeepsThoughtSignatures() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"text": "**Weighing the options**\\nThe user greets me.", "thought": true},
                {"text": "Hello! How can I help?", "thoughtSignature": "Q2lZQkJH"}]},
              "finishReason": "STOP"}]}
            """);

    assertThat(Json.toTree(response.message()))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "content": [
                   {"reasoning": "**Weighing the options**\\nThe user greets me."},
                   {"text": "Hello! How can I help?",
                    "metadata": {"thoughtSignature": "Q2lZQkJH"}}]}
                """));
  }

  @Test
  void keepsTheTextPartsOfOneAnswerApartSoThatTheHistoryGoesBackAsReceived() {
    String parts =
        """
        [{"text": "Thinking about it.", "thought": true},
         {"text": "More thinking.", "thought": true},
         {"text": "Here is "},
         {"text": "the answer.", "thoughtSignature": "c2lnLTE="},
         {"text": "A postscript."}]
        """;
    ModelResponse response =
        answer(
            "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": %s},".formatted(parts)
                + " \"finishReason\": \"STOP\"}]}");
    server.reply(Reply.json("{}"));

    call(baton(server), ModelRequest.of(List.of(Message.user("Hello"), response.message())));

    assertThat(response.message().content()).hasSize(5);
    assertThat(Json.parse(server.request(1).body()).path("contents").path(1).path("parts"))
        .isEqualTo(Json.parse(parts));
  }

  @Test
  void countsToolUsePromptTokensAsInput() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "Found it."}]},
                             "finishReason": "STOP"}],
             "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 4,
                               "toolUsePromptTokenCount": 300, "totalTokenCount": 314}}
            """);

    assertThat(response.usage().inputTokens()).isEqualTo(310);
    assertThat(response.usage().totalTokens()).isEqualTo(314);
  }

  @Test
  void mapsParallelFunctionCallsWithIdsAndTheSignatureOnTheFirst() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"functionCall": {"id": "fc-1", "name": "getWeather", "args": {"city": "Paris"}},
                 "thoughtSignature": "c2lnLTE="},
                {"functionCall": {"id": "fc-2", "name": "getWeather", "args": {"city": "Rome"}}},
                {"functionCall": {"name": "now"}}]},
              "finishReason": "STOP"}]}
            """);

    assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
    assertThat(Json.toTree(response.message()))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "content": [
                   {"toolRequest": {"name": "getWeather", "ref": "fc-1",
                                    "input": {"city": "Paris"}},
                    "metadata": {"thoughtSignature": "c2lnLTE=", "functionCallId": "fc-1"}},
                   {"toolRequest": {"name": "getWeather", "ref": "fc-2",
                                    "input": {"city": "Rome"}},
                    "metadata": {"functionCallId": "fc-2"}},
                   {"toolRequest": {"name": "now", "input": {}}}]}
                """));
  }

  @Test
  void aBlockedPromptGivesAnEmptyBlockedMessage() {
    ModelResponse response =
        answer(
            """
            {"promptFeedback": {"blockReason": "PROHIBITED_CONTENT",
                                "safetyRatings": [{"category": "HARM_CATEGORY_DANGEROUS_CONTENT",
                                                   "probability": "HIGH"}]},
             "usageMetadata": {"promptTokenCount": 7, "totalTokenCount": 7}}
            """);

    assertThat(withoutLatency(response))
        .isEqualTo(
            Json.parse(
                """
                {"message": {"role": "model", "content": []},
                 "finishReason": "blocked",
                 "finishMessage": "the prompt was blocked (PROHIBITED_CONTENT)",
                 "usage": {"inputTokens": 7, "totalTokens": 7}}
                """));
  }

  @Test
  void aSafetyStopIsBlockedAndNamesGeminisReason() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"finishReason": "SAFETY", "index": 0,
                             "safetyRatings": [{"category": "HARM_CATEGORY_HARASSMENT",
                                                "probability": "HIGH", "blocked": true}]}]}
            """);

    assertThat(response.finishReason()).isEqualTo(FinishReason.BLOCKED);
    assertThat(response.finishMessage()).isEqualTo("Gemini finish reason SAFETY");
    assertThat(response.message().content()).isEmpty();
  }

  @Test
  void mapsTheOtherFinishReasons() {
    assertThat(finishOf("MAX_TOKENS")).isEqualTo(FinishReason.LENGTH);
    assertThat(finishOf("RECITATION")).isEqualTo(FinishReason.BLOCKED);
    assertThat(finishOf("BLOCKLIST")).isEqualTo(FinishReason.BLOCKED);
    assertThat(finishOf("SPII")).isEqualTo(FinishReason.BLOCKED);
    assertThat(finishOf("OTHER")).isEqualTo(FinishReason.OTHER);
    assertThat(finishOf("SOMETHING_NEW")).isEqualTo(FinishReason.UNKNOWN);

    ModelResponse malformed =
        answer(
            """
            {"candidates": [{"finishReason": "MALFORMED_FUNCTION_CALL",
                             "finishMessage": "Malformed function call: print(x"}]}
            """);
    assertThat(malformed.finishReason()).isEqualTo(FinishReason.OTHER);
    assertThat(malformed.finishMessage()).isEqualTo("Malformed function call: print(x");
  }

  private FinishReason finishOf(String geminiReason) {
    return answer(
            "{\"candidates\": [{\"content\": {\"role\": \"model\", \"parts\": [{\"text\": \"x\"}]},"
                + " \"finishReason\": \""
                + geminiReason
                + "\"}]}")
        .finishReason();
  }

  @Test
  void mapsInlineMediaFilesAndCodeExecutionParts() {
    ModelResponse response =
        answer(
            """
            {"candidates": [{"content": {"role": "model", "parts": [
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
                {"fileData": {"mimeType": "video/mp4", "fileUri": "https://example.com/v.mp4"}},
                {"executableCode": {"language": "PYTHON", "code": "print(1 + 1)"}},
                {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "2\\n"}},
                {}]},
              "finishReason": "STOP"}]}
            """);

    assertThat(Json.toTree(response.message()))
        .isEqualTo(
            Json.parse(
                """
                {"role": "model", "content": [
                   {"media": {"url": "data:image/png;base64,iVBORw0KGgo=",
                              "contentType": "image/png"}},
                   {"media": {"url": "https://example.com/v.mp4", "contentType": "video/mp4"}},
                   {"custom": {"executableCode": {"language": "PYTHON",
                                                  "code": "print(1 + 1)"}}},
                   {"custom": {"codeExecutionResult": {"outcome": "OUTCOME_OK",
                                                       "output": "2\\n"}}}]}
                """));
  }
}
