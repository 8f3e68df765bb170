package dev.baton.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class HttpErrorsTest {
  private static HttpHeaders headers(Map<String, String> values) {
    return HttpHeaders.of(
        values.entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue()))),
        (name, value) -> true);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsARetryAfterHttpDate() {
    String inAMinute =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(
            ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(61));

    BatonException e =
        HttpErrors.fromResponse(
            "X",
            429,
            headers(Map.of("Retry-After", inAMinute)),
            bytes("{\"error\":\"slow down\"}"));

    assertThat(e.getMessage()).isEqualTo("X returned HTTP 429: slow down");
    assertThat(e.details().path("retryAfterSeconds").asInt()).isBetween(55, 61);
  }

  @Test
  void ignoresAnUnreadableRetryAfter() {
    BatonException e =
        HttpErrors.fromResponse("X", 429, headers(Map.of("Retry-After", "soon")), bytes(""));

    assertThat(e.getMessage()).isEqualTo("X returned HTTP 429: (no message)");
    assertThat(e.details()).isEqualTo(Json.parse("{\"httpStatus\": 429}"));
  }

  @Test
  void aBodyWithoutTheProvidersMessageStaysOutOfThePublicMessage() {
    String page = "<h1>502 Bad Gateway</h1> upstream 10.0.0.7:8080";

    BatonException e = HttpErrors.fromResponse("X", 502, headers(Map.of()), bytes(page));

    assertThat(e.getMessage()).isEqualTo("X returned HTTP 502: (no message)");
    assertThat(e.isPublic()).isTrue();
    assertThat(e.getCause())
        .isInstanceOfSatisfying(
            BatonException.class,
            body -> {
              assertThat(body.isPublic()).isFalse();
              assertThat(body.getMessage()).contains(page);
            });
  }

  @Test
  void aSuccessfulAnswerThatIsNotJsonKeepsItsTextOutOfThePublicMessage() {
    String page = "<html>Sign in to proxy.corp.internal</html>";

    BatonException e = HttpErrors.notJson("X", page, null);

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo("X answered with something that is not JSON");
    assertThat(e.toPublicErrorInfo().message()).doesNotContain("proxy.corp.internal");
    assertThat(e.getCause())
        .isInstanceOfSatisfying(
            BatonException.class,
            body -> {
              assertThat(body.isPublic()).isFalse();
              assertThat(body.getMessage()).contains(page);
            });
  }

  @Test
  void readsTheMessageShapesOfCompatibleServers() {
    assertThat(
            HttpErrors.fromResponse(
                    "X", 422, headers(Map.of()), bytes("{\"detail\": \"field required\"}"))
                .getMessage())
        .isEqualTo("X returned HTTP 422: field required");
    assertThat(
            HttpErrors.fromResponse(
                    "X",
                    400,
                    headers(Map.of()),
                    bytes("{\"object\": \"error\", \"message\": \"bad\"}"))
                .getMessage())
        .isEqualTo("X returned HTTP 400: bad");
  }

  @Test
  void mapsStatusesAsTheIssueAsks() {
    assertThat(HttpErrors.statusOf(400)).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(HttpErrors.statusOf(401)).isEqualTo(Status.UNAUTHENTICATED);
    assertThat(HttpErrors.statusOf(403)).isEqualTo(Status.PERMISSION_DENIED);
    assertThat(HttpErrors.statusOf(404)).isEqualTo(Status.NOT_FOUND);
    assertThat(HttpErrors.statusOf(429)).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(HttpErrors.statusOf(500)).isEqualTo(Status.UNAVAILABLE);
    assertThat(HttpErrors.statusOf(504)).isEqualTo(Status.UNAVAILABLE);
    assertThat(HttpErrors.statusOf(418)).isEqualTo(Status.UNKNOWN);
  }

  @Test
  void aStreamErrorWithoutACodeIsUnavailable() {
    BatonException e =
        HttpErrors.fromStreamError(
            "X", Json.parse("{\"message\": \"boom\", \"type\": \"server\"}"));

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo("X failed while streaming: boom");
  }

  private static Integer retryAfter(int status, Map<String, String> headers) {
    JsonNode seconds =
        HttpErrors.fromResponse("X", status, headers(headers), bytes("{}"))
            .details()
            .get("retryAfterSeconds");
    return seconds == null ? null : seconds.intValue();
  }

  @Test
  void readsOpenAisRetryAfterMsAndTheLaterOfItsRateLimitResets() {
    assertThat(retryAfter(429, Map.of("retry-after-ms", "1500"))).isEqualTo(2);
    assertThat(
            retryAfter(
                429,
                Map.of("x-ratelimit-reset-requests", "6s", "x-ratelimit-reset-tokens", "1m30s")))
        .isEqualTo(90);
    assertThat(
            retryAfter(
                429,
                Map.of("x-ratelimit-reset-requests", "6m0s", "x-ratelimit-reset-tokens", "1.5s")))
        .isEqualTo(360);
    assertThat(retryAfter(429, Map.of("x-ratelimit-reset-tokens", "250ms"))).isEqualTo(1);
    assertThat(
            retryAfter(
                429,
                Map.of("x-ratelimit-reset-requests", "soon", "x-ratelimit-reset-tokens", "2s")))
        .isEqualTo(2);
  }

  @Test
  void retryAfterWinsOverRetryAfterMsWhichWinsOverTheResets() {
    assertThat(
            retryAfter(
                429,
                Map.of(
                    "Retry-After", "3",
                    "retry-after-ms", "9000",
                    "x-ratelimit-reset-tokens", "1m")))
        .isEqualTo(3);
    assertThat(retryAfter(429, Map.of("retry-after-ms", "9000", "x-ratelimit-reset-tokens", "1m")))
        .isEqualTo(9);
  }

  @Test
  void ignoresRateLimitResetsOnAnswersThatAreNotRateLimited() {
    assertThat(
            retryAfter(
                400, Map.of("x-ratelimit-reset-requests", "6s", "x-ratelimit-reset-tokens", "1m")))
        .isNull();
    assertThat(retryAfter(429, Map.of("x-ratelimit-reset-tokens", "6 seconds"))).isNull();
  }

  private static Status statusFor(int httpStatus, String geminiStatus) {
    return HttpErrors.fromResponse(
            "X",
            httpStatus,
            headers(Map.of()),
            bytes(
                "{\"error\": {\"code\": %d, \"message\": \"m\", \"status\": \"%s\"}}"
                    .formatted(httpStatus, geminiStatus)))
        .status();
  }

  @Test
  void anErrorAboutTheServersOwnKeyIsNotShownToRemoteClients() {
    // Gemini's documented answer to a bad key: HTTP 400, INVALID_ARGUMENT, reason API_KEY_INVALID.
    BatonException badKey =
        HttpErrors.fromResponse(
            "googleai",
            400,
            headers(Map.of()),
            bytes(
                """
                {"error": {"code": 400, "message": "API key not valid. Please pass a valid API key.",
                 "status": "INVALID_ARGUMENT",
                 "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo",
                              "reason": "API_KEY_INVALID", "domain": "googleapis.com"}]}}
                """));
    assertThat(badKey.status()).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(badKey.getMessage()).contains("API key not valid");
    assertThat(badKey.isPublic()).isFalse();
    assertThat(badKey.toPublicErrorInfo().message()).doesNotContain("API key");

    // A 403 whose body names another status is still about the server's account.
    BatonException forbidden =
        HttpErrors.fromResponse(
            "x",
            403,
            headers(Map.of()),
            bytes(
                "{\"error\": {\"message\": \"project 123\", \"status\": \"FAILED_PRECONDITION\"}}"));
    assertThat(forbidden.status()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(forbidden.isPublic()).isFalse();
    BatonException streamed =
        HttpErrors.fromStreamError(
            "x", Json.parse("{\"code\": 401, \"message\": \"key\", \"status\": \"ABORTED\"}"));
    assertThat(streamed.isPublic()).isFalse();
    BatonException badRequest =
        HttpErrors.fromResponse(
            "x", 400, headers(Map.of()), bytes("{\"error\": {\"message\": \"bad temperature\"}}"));
    assertThat(badRequest.isPublic()).isTrue();
  }

  @Test
  void prefersTheCanonicalStatusTheErrorNamesOverTheHttpCode() {
    assertThat(statusFor(400, "FAILED_PRECONDITION")).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(statusFor(400, "OUT_OF_RANGE")).isEqualTo(Status.OUT_OF_RANGE);
    assertThat(statusFor(504, "DEADLINE_EXCEEDED")).isEqualTo(Status.DEADLINE_EXCEEDED);
    assertThat(statusFor(400, "NOT_A_STATUS")).isEqualTo(Status.INVALID_ARGUMENT);
    assertThat(statusFor(400, "OK")).isEqualTo(Status.INVALID_ARGUMENT);
  }

  @Test
  void aServerErrorNamedInternalOrUnknownStaysUnavailableSoThatItIsRetried() {
    assertThat(statusFor(500, "INTERNAL")).isEqualTo(Status.UNAVAILABLE);
    assertThat(statusFor(500, "UNKNOWN")).isEqualTo(Status.UNAVAILABLE);
    assertThat(statusFor(400, "INTERNAL")).isEqualTo(Status.INTERNAL);
  }

  @Test
  void aStreamErrorPrefersItsStatusNameToItsCode() {
    assertThat(
            HttpErrors.fromStreamError(
                    "X",
                    Json.parse(
                        "{\"code\": 400, \"message\": \"m\","
                            + " \"status\": \"FAILED_PRECONDITION\"}"))
                .status())
        .isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(
            HttpErrors.fromStreamError("X", Json.parse("{\"code\": 429, \"message\": \"m\"}"))
                .status())
        .isEqualTo(Status.RESOURCE_EXHAUSTED);
  }
}
