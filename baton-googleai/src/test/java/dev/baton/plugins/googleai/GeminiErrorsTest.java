package dev.baton.plugins.googleai;

import static dev.baton.plugins.googleai.GeminiFixtures.baton;
import static dev.baton.plugins.googleai.GeminiFixtures.call;
import static dev.baton.plugins.googleai.GeminiFixtures.plugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.ServerSocket;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Provider errors, rate limiting, a missing key and network failures. */
class GeminiErrorsTest {
  private static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));

  private FakeHttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = new FakeHttpServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private BatonException failure(Baton baton) {
    try {
      call(baton, HELLO);
    } catch (BatonException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "400 | INVALID_ARGUMENT   | INVALID_ARGUMENT   | API key not valid. Please pass a valid API key.",
        "401 | UNAUTHENTICATED    | UNAUTHENTICATED    | Request had invalid authentication credentials.",
        "403 | PERMISSION_DENIED  | PERMISSION_DENIED  | Method doesn't allow unregistered callers.",
        "400 | FAILED_PRECONDITION | FAILED_PRECONDITION | User location is not supported for the API use.",
        "404 | NOT_FOUND          | NOT_FOUND          | models/gemini-9 is not found for API version v1beta.",
        "500 | INTERNAL           | UNAVAILABLE        | An internal error has occurred.",
        "503 | UNAVAILABLE        | UNAVAILABLE        | The model is overloaded. Please try again later.",
        "504 | DEADLINE_EXCEEDED  | DEADLINE_EXCEEDED  | Deadline expired before operation could complete."
      })
  void mapsHttpErrorsToStatusesAndKeepsTheMessage(
      int code, String geminiStatus, Status expected, String message) {
    String error =
        """
        {"error": {"code": %d, "message": "%s", "status": "%s"}}"""
            .formatted(code, message, geminiStatus);
    server.reply(Reply.json(code, error));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(expected);
    assertThat(e.isPublic()).isTrue();
    assertThat(e.getMessage()).isEqualTo("Gemini API returned HTTP " + code + ": " + message);
    assertThat(e.details())
        .isEqualTo(
            Json.parse(
                "{\"httpStatus\": %d, \"providerError\": %s}"
                    .formatted(code, Json.parse(error).path("error"))));
  }

  @Test
  void rateLimitingKeepsTheRetryDelayFromGoogleRetryInfo() {
    server.reply(
        Reply.json(
            429,
            """
            {"error": {"code": 429, "message": "You exceeded your current quota.",
                       "status": "RESOURCE_EXHAUSTED",
                       "details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo",
                                    "retryDelay": "21.4s"}]}}
            """));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.getMessage())
        .isEqualTo("Gemini API returned HTTP 429: You exceeded your current quota.");
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(22);
  }

  @Test
  void rateLimitingPrefersTheRetryAfterHeader() {
    server.reply(
        Reply.json(
                429,
                """
                {"error": {"code": 429, "message": "Resource has been exhausted.",
                           "status": "RESOURCE_EXHAUSTED"}}
                """)
            .withHeader("Retry-After", "7"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.details())
        .isEqualTo(
            Json.parse(
                """
                {"httpStatus": 429, "retryAfterSeconds": 7,
                 "providerError": {"code": 429, "message": "Resource has been exhausted.",
                                   "status": "RESOURCE_EXHAUSTED"}}
                """));
  }

  @Test
  void anErrorBodyThatIsNotJsonIsQuoted() {
    server.reply(Reply.raw(502, "text/html", "<html>Bad Gateway</html>"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo("Gemini API returned HTTP 502: <html>Bad Gateway</html>");
  }

  @Test
  void aMissingKeyFailsTheCallNotThePluginAndNamesTheVariables() {
    Baton baton =
        Baton.builder()
            .plugin(GoogleAI.builder().baseUrl(server.baseUrl()).environment(name -> null).build())
            .build();

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("GEMINI_API_KEY").contains("GOOGLE_API_KEY");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void readsTheKeyFromGeminiApiKeyThenGoogleApiKey() {
    server.reply(Reply.json("{}"), Reply.json("{}"));
    call(
        Baton.builder()
            .plugin(
                GoogleAI.builder()
                    .baseUrl(server.baseUrl())
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
                    .baseUrl(server.baseUrl())
                    .environment(name -> name.equals("GOOGLE_API_KEY") ? "google-key" : null)
                    .build())
            .build(),
        HELLO);

    assertThat(server.requests())
        .extracting(r -> r.header("x-goog-api-key"))
        .containsExactly("gemini-key", "google-key");
  }

  @Test
  void aSuccessfulAnswerThatIsNotJsonIsUnavailableAndNamesTheProvider() {
    server.reply(Reply.raw(200, "text/html", "<html><body>Sign in to the proxy</body></html>"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage())
        .isEqualTo(
            "Gemini API answered with something that is not JSON:"
                + " <html><body>Sign in to the proxy</body></html>");
  }

  @Test
  void aStreamedEventCutShortIsUnavailableAndQuotesTheStartOfIt() {
    server.reply(Reply.sse("{\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hel"));
    Baton baton = baton(server);

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Gemini API answered with something that is not JSON: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Hel");
            });
  }

  @Test
  void aLongBodyThatIsNotJsonIsAbbreviated() {
    server.reply(Reply.raw(200, "text/plain", "x".repeat(2000)));

    BatonException e = failure(baton(server));

    assertThat(e.getMessage()).endsWith(" not JSON: " + "x".repeat(500) + "…");
  }

  @Test
  void anUnreachableServerIsUnavailable() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Baton baton =
        Baton.builder()
            .plugin(plugin(server).baseUrl(URI.create("http://127.0.0.1:" + closedPort)).build())
            .build();

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).startsWith("could not reach Gemini API");
  }

  @Test
  void theBuilderRejectsNonsense() {
    assertThatThrownBy(() -> GoogleAI.builder().apiVersion(" "))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().baseUrl(URI.create("ftp://example.com")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().timeout(java.time.Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GoogleAI.builder().idleTimeout(java.time.Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
