package dev.baton.plugins.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.FakeHttpServer.Reply;
import dev.baton.testing.ModelPluginContract;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cancellation, timeouts and error mapping as every model plugin must do them, and the Messages
 * API's own errors: 413 and 529, and a key that no error ever shows.
 */
class AnthropicContractTest extends ModelPluginContract {
  @Override
  protected String model() {
    return AnthropicFixtures.MODEL;
  }

  @Override
  protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
    return Baton.builder()
        .plugin(
            AnthropicFixtures.plugin(serverUrl).timeout(timeout).idleTimeout(idleTimeout).build())
        .build();
  }

  @Override
  protected String providerLabel() {
    return "Anthropic API";
  }

  @Override
  protected String textEvent(String text) {
    return """
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "%s"}}"""
        .formatted(text);
  }

  /** The API's error shape, with the type its documentation gives each status. */
  @Override
  protected String errorBody(int httpStatus, String message) {
    String type =
        switch (httpStatus) {
          case 401 -> "authentication_error";
          case 403 -> "permission_error";
          case 404 -> "not_found_error";
          case 413 -> "request_too_large";
          case 429 -> "rate_limit_error";
          case 500 -> "api_error";
          case 529 -> "overloaded_error";
          default -> httpStatus >= 500 ? "api_error" : "invalid_request_error";
        };
    return """
        {"type": "error", "error": {"type": "%s", "message": "%s"},
         "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy"}"""
        .formatted(type, message);
  }

  /**
   * The API's own statuses: a request over 32 MB is refused before it reaches the API, and 529 is
   * the API's overload. 500 ({@code api_error}) is {@code UNAVAILABLE} as the contract's shared
   * table has it, not {@code INTERNAL}: Anthropic's SDKs retry it, and so does the {@code Retry}
   * middleware only for {@code UNAVAILABLE}.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "413 | INVALID_ARGUMENT   | Request exceeds the maximum allowed number of bytes.",
        "429 | RESOURCE_EXHAUSTED | Number of request tokens has exceeded your rate limit.",
        "529 | UNAVAILABLE        | Overloaded"
      })
  void mapsTheMessagesApisOwnStatuses(int httpStatus, Status expected, String message) {
    assertMapsHttpError(httpStatus, errorBody(httpStatus, message), expected, message);
  }

  @Test
  void sendsTheKeyAndVersionHeadersAndNothingElseCarriesTheKey() throws Exception {
    server()
        .reply(
            Reply.json(401, errorBody(401, "invalid x-api-key")),
            Reply.json(400, errorBody(400, "messages: field required")),
            Reply.json(529, errorBody(529, "Overloaded")),
            Reply.raw(502, "text/html", "<html>bad gateway</html>"),
            Reply.raw(200, "text/html", "<html>proxy login</html>"));
    Baton baton = baton();
    List<BatonException> failures = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      failures.add(failure(baton));
    }
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    failures.add(
        failure(
            newBaton(
                URI.create("http://127.0.0.1:" + closedPort),
                Duration.ofMinutes(1),
                Duration.ofMinutes(1))));

    assertThat(server().request(0).header("x-api-key")).isEqualTo(AnthropicFixtures.KEY);
    assertThat(server().request(0).header("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(server().request(0).header("Authorization")).isNull();
    assertThat(failures.get(0).status()).isEqualTo(Status.UNAUTHENTICATED);
    assertThat(failures.get(0).isPublic()).isFalse();
    for (BatonException failure : failures) {
      for (Throwable t = failure; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).doesNotContain(AnthropicFixtures.KEY);
        assertThat(t.toString()).doesNotContain(AnthropicFixtures.KEY);
      }
      assertThat(Json.write(failure.details())).doesNotContain(AnthropicFixtures.KEY);
      assertThat(Json.write(failure.toPublicErrorInfo())).doesNotContain(AnthropicFixtures.KEY);
    }
  }

  @Test
  void withoutAKeyEachCallFailsWithFailedPreconditionAndSendsNothing() {
    Baton baton =
        Baton.builder()
            .plugin(
                Anthropic.builder()
                    .environment(name -> null)
                    .baseUrl(server().baseUrl())
                    .httpClient(dev.baton.testing.FakeHttpServer.sharedClient())
                    .build())
            .build();

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("ANTHROPIC_API_KEY");
    assertThat(e.isPublic()).isFalse();
    assertThat(server().requests()).isEmpty();
  }

  @Test
  void readsTheKeyFromTheEnvironment() throws Exception {
    server().reply(AnthropicFixtures.text("Hi"));
    Baton baton =
        Baton.builder()
            .plugin(
                Anthropic.builder()
                    .environment(name -> name.equals("ANTHROPIC_API_KEY") ? " sk-env " : null)
                    .baseUrl(server().baseUrl())
                    .httpClient(dev.baton.testing.FakeHttpServer.sharedClient())
                    .build())
            .build();

    assertThat(call(baton, HELLO).text()).isEqualTo("Hi");
    assertThat(server().request(0).header("x-api-key")).isEqualTo("sk-env");
    assertThat(server().request(0).pathAndQuery()).isEqualTo("/v1/messages");
  }
}
