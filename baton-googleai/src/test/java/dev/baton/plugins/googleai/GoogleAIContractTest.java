package dev.baton.plugins.googleai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.ModelPluginContract;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cancellation, timeouts and error mapping as every model plugin must do them, and Gemini's own
 * errors: the status its error names, Google's retry delay, a missing key and the builder's checks.
 */
class GoogleAIContractTest extends ModelPluginContract {
  @Override
  protected String model() {
    return GeminiFixtures.MODEL;
  }

  @Override
  protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
    return Baton.builder()
        .plugin(GeminiFixtures.plugin(serverUrl).timeout(timeout).idleTimeout(idleTimeout).build())
        .build();
  }

  @Override
  protected String providerLabel() {
    return "Gemini API";
  }

  @Override
  protected String textEvent(String text) {
    return "{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"" + text + "\"}]}}]}";
  }

  /** A Google error, with the canonical status name Google pairs with the HTTP code. */
  @Override
  protected String errorBody(int httpStatus, String message) {
    String status =
        switch (httpStatus) {
          case 400 -> "INVALID_ARGUMENT";
          case 401 -> "UNAUTHENTICATED";
          case 403 -> "PERMISSION_DENIED";
          case 404 -> "NOT_FOUND";
          case 429 -> "RESOURCE_EXHAUSTED";
          case 500 -> "INTERNAL";
          case 503 -> "UNAVAILABLE";
          default -> "UNKNOWN";
        };
    return errorBody(httpStatus, status, message);
  }

  private static String errorBody(int httpStatus, String geminiStatus, String message) {
    return """
        {"error": {"code": %d, "message": "%s", "status": "%s"}}"""
        .formatted(httpStatus, message, geminiStatus);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "400 | FAILED_PRECONDITION | FAILED_PRECONDITION | User location is not supported for the API use.",
        "504 | DEADLINE_EXCEEDED   | DEADLINE_EXCEEDED   | Deadline expired before operation could complete."
      })
  void mapsTheStatusGeminiNamesOverTheHttpCode(
      int code, String geminiStatus, Status expected, String message) {
    assertMapsHttpError(code, errorBody(code, geminiStatus, message), expected, message);
  }

  @Test
  void rateLimitingKeepsTheRetryDelayFromGoogleRetryInfo() {
    server()
        .reply(
            Reply.json(
                429,
                """
                {"error": {"code": 429, "message": "You exceeded your current quota.",
                           "status": "RESOURCE_EXHAUSTED",
                           "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                        "retryDelay": "21.4s"}]}}
                """));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.getMessage())
        .isEqualTo("Gemini API returned HTTP 429: You exceeded your current quota.");
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(22);
  }

  @Test
  void rateLimitingPrefersTheRetryAfterHeaderToGoogleRetryInfo() {
    server()
        .reply(
            Reply.json(
                    429,
                    """
                    {"error": {"code": 429, "message": "Resource has been exhausted.",
                               "status": "RESOURCE_EXHAUSTED",
                               "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                            "retryDelay": "21.4s"}]}}
                    """)
                .withHeader("Retry-After", "7"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(7);
  }

  @Test
  void aMissingKeyFailsTheCallNotThePluginAndNamesTheVariables() {
    Baton baton =
        Baton.builder()
            .plugin(
                GoogleAI.builder().baseUrl(server().baseUrl()).environment(name -> null).build())
            .build();

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("GEMINI_API_KEY").contains("GOOGLE_API_KEY");
    assertThat(server().requests()).isEmpty();
  }

  @Test
  void readsTheKeyFromGeminiApiKeyThenGoogleApiKey() {
    server().reply(Reply.json("{}"), Reply.json("{}"));
    call(
        Baton.builder()
            .plugin(
                GoogleAI.builder()
                    .baseUrl(server().baseUrl())
                    .environment(
                        name ->
                            switch (name) {
                              case "GEMINI_API_KEY" -> "gemini-key";
                              case "GOOGLE_API_KEY" -> "google-key";
                              default -> null;
                            })
                    .build())
            .build(),
        HELLO);
    call(
        Baton.builder()
            .plugin(
                GoogleAI.builder()
                    .baseUrl(server().baseUrl())
                    .environment(name -> name.equals("GOOGLE_API_KEY") ? "google-key" : null)
                    .build())
            .build(),
        HELLO);

    assertThat(server().requests())
        .extracting(r -> r.header("x-goog-api-key"))
        .containsExactly("gemini-key", "google-key");
  }

  @Test
  void theBuilderRejectsNonsense() {
    assertThatThrownBy(() -> GoogleAI.builder().apiVersion(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().baseUrl(URI.create("ftp://example.com")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().timeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().idleTimeout(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
