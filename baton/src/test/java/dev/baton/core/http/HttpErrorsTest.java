package dev.baton.core.http;

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
}
