package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.call;
import static dev.baton.plugins.openai.OpenAIFixtures.plugin;
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
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Provider errors, rate limiting and network failures. */
class ChatErrorsTest {
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
        "400 | invalid_request_error | INVALID_ARGUMENT  | Invalid value for 'temperature'.",
        "401 | invalid_request_error | UNAUTHENTICATED   | Incorrect API key provided: sk-test.",
        "403 | invalid_request_error | PERMISSION_DENIED | Country, region, or territory not supported.",
        "404 | invalid_request_error | NOT_FOUND         | The model 'gpt-9' does not exist.",
        "500 | server_error          | UNAVAILABLE       | The server had an error processing your request.",
        "503 | server_error          | UNAVAILABLE       | The engine is currently overloaded."
      })
  void mapsHttpErrorsToStatusesAndKeepsTheMessage(
      int code, String type, Status expected, String message) {
    String error =
        """
        {"error": {"message": "%s", "type": "%s", "param": null, "code": null}}"""
            .formatted(message, type);
    server.reply(Reply.json(code, error));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(expected);
    assertThat(e.isPublic()).isTrue();
    assertThat(e.getMessage())
        .isEqualTo("openai (127.0.0.1) returned HTTP " + code + ": " + message);
    assertThat(e.details())
        .isEqualTo(
            Json.parse(
                "{\"httpStatus\": %d, \"providerError\": %s}"
                    .formatted(code, Json.parse(error).path("error"))));
  }

  @Test
  void rateLimitingKeepsRetryAfter() {
    server.reply(
        Reply.json(
                429,
                """
                {"error": {"message": "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1.",
                           "type": "requests", "param": null, "code": "rate_limit_exceeded"}}
                """)
            .withHeader("Retry-After", "20"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.getMessage())
        .startsWith("openai (127.0.0.1) returned HTTP 429: Rate limit reached");
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(20);
    assertThat(e.details().path("providerError").path("code").asString())
        .isEqualTo("rate_limit_exceeded");
  }

  @Test
  void rateLimitingWithoutRetryAfterWaitsForTheLaterOfOpenAIsResets() {
    server.reply(
        Reply.json(
                429,
                """
                {"error": {"message": "Rate limit reached for gpt-4o-mini on tokens per min (TPM).",
                           "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}
                """)
            .withHeader("x-ratelimit-reset-requests", "6s")
            .withHeader("x-ratelimit-reset-tokens", "1m30s"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(90);
  }

  @Test
  void rateLimitingReadsARetryAfterHttpDate() {
    String inTwoMinutes =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
    server.reply(
        Reply.json(429, "{\"error\": {\"message\": \"Slow down.\"}}")
            .withHeader("Retry-After", inTwoMinutes));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    // An HTTP date has whole seconds, and a little time passes before the header is read.
    assertThat(e.details().path("retryAfterSeconds").asInt()).isBetween(110, 120);
  }

  @Test
  void readsOllamaStyleStringErrors() {
    server.reply(
        Reply.json(404, "{\"error\": \"model \\\"llama9\\\" not found, try pulling it first\"}"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
    assertThat(e.getMessage()).endsWith("model \"llama9\" not found, try pulling it first");
  }

  @Test
  void aSuccessfulAnswerThatIsNotJsonIsUnavailableAndNamesTheProvider() {
    server.reply(Reply.raw(200, "text/html", "<html><body>Sign in to the proxy</body></html>"));

    BatonException e = failure(baton(server));

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage())
        .isEqualTo(
            "openai (127.0.0.1) answered with something that is not JSON:"
                + " <html><body>Sign in to the proxy</body></html>");
  }

  @Test
  void aStreamedEventCutShortIsUnavailableAndQuotesTheStartOfIt() {
    server.reply(Reply.sse("{\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hel"));
    Baton baton = baton(server);

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "openai (127.0.0.1) answered with something that is not JSON: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hel");
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
            .plugin(
                plugin(server)
                    .baseUrl(URI.create("http://127.0.0.1:" + closedPort + "/v1"))
                    .build())
            .build();

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).startsWith("could not reach openai (127.0.0.1)");
  }
}
