package dev.baton.plugins.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.ModelPluginContract;
import java.net.URI;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

/**
 * Cancellation, timeouts and error mapping as every model plugin must do them, and the errors of
 * OpenAI-compatible servers: OpenAI's rate-limit headers, a Retry-After date and Ollama's errors.
 */
class OpenAICompatibleContractTest extends ModelPluginContract {
  @Override
  protected String model() {
    return OpenAIFixtures.MODEL;
  }

  @Override
  protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
    return Baton.builder()
        .plugin(OpenAIFixtures.plugin(serverUrl).timeout(timeout).idleTimeout(idleTimeout).build())
        .build();
  }

  /** The plugin's name: errors never name the server's host. */
  @Override
  protected String providerLabel() {
    return "openai";
  }

  @Override
  protected String textEvent(String text) {
    return "{\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"" + text + "\"}}]}";
  }

  /** An OpenAI error, with the type (and, for a rate limit, the code) OpenAI sends with it. */
  @Override
  protected String errorBody(int httpStatus, String message) {
    String type =
        httpStatus == 429
            ? "requests"
            : httpStatus >= 500 ? "server_error" : "invalid_request_error";
    String code = httpStatus == 429 ? "\"rate_limit_exceeded\"" : "null";
    return """
        {"error": {"message": "%s", "type": "%s", "param": null, "code": %s}}"""
        .formatted(message, type, code);
  }

  @Test
  void rateLimitingWithoutRetryAfterWaitsForTheLaterOfOpenAIsResets() {
    server()
        .reply(
            Reply.json(
                    429,
                    """
                    {"error": {"message": "Rate limit reached for gpt-4o-mini on tokens per min (TPM).",
                               "type": "tokens", "param": null, "code": "rate_limit_exceeded"}}
                    """)
                .withHeader("x-ratelimit-reset-requests", "6s")
                .withHeader("x-ratelimit-reset-tokens", "1m30s"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.details().path("retryAfterSeconds").asInt()).isEqualTo(90);
  }

  @Test
  void rateLimitingReadsARetryAfterHttpDate() {
    String inTwoMinutes =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120));
    server()
        .reply(
            Reply.json(429, "{\"error\": {\"message\": \"Slow down.\"}}")
                .withHeader("Retry-After", inTwoMinutes));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    // An HTTP date has whole seconds, and a little time passes before the header is read.
    assertThat(e.details().path("retryAfterSeconds").asInt()).isBetween(110, 120);
  }

  @Test
  void readsOllamaStyleStringErrors() {
    server()
        .reply(
            Reply.json(
                404, "{\"error\": \"model \\\"llama9\\\" not found, try pulling it first\"}"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.NOT_FOUND);
    assertThat(e.getMessage()).endsWith("model \"llama9\" not found, try pulling it first");
  }
}
