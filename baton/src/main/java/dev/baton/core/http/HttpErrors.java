package dev.baton.core.http;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a provider's error answer into a public {@link BatonException} that keeps the provider's
 * own message.
 *
 * <p>HTTP statuses map as: 400, 413 and 422 to {@link Status#INVALID_ARGUMENT}; 401 to {@link
 * Status#UNAUTHENTICATED}; 403 to {@link Status#PERMISSION_DENIED}; 404 to {@link
 * Status#NOT_FOUND}; 408 to {@link Status#DEADLINE_EXCEEDED}; 409 to {@link Status#ABORTED}; 429 to
 * {@link Status#RESOURCE_EXHAUSTED}; every 5xx to {@link Status#UNAVAILABLE}; anything else to
 * {@link Status#UNKNOWN}.
 *
 * <p>The message is {@code "<provider> returned HTTP <code>: <provider message>"}, where the
 * provider message is read from {@code error.message}, a string {@code error}, a top-level {@code
 * message} or {@code detail} (the shapes Gemini, OpenAI and the OpenAI-compatible servers use), or
 * else the start of the body. The details are {@code {"httpStatus": <code>, "retryAfterSeconds":
 * <n>, "providerError": {...}}}: {@code retryAfterSeconds} comes from a {@code Retry-After} header
 * (seconds or an HTTP date) or from a Google {@code RetryInfo.retryDelay}, rounded up, and is left
 * out when neither is present; {@code providerError} is the provider's {@code error} object when it
 * sent one.
 */
public final class HttpErrors {
  private static final int MAX_BODY_TEXT = 500;

  private HttpErrors() {}

  /** The error for an HTTP response with a status of 300 or more. */
  public static BatonException fromResponse(
      String provider, int httpStatus, HttpHeaders headers, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    JsonNode json = parseOrNull(text);
    JsonNode error = json == null ? null : json.get("error");
    String message = json == null ? null : messageOf(json);
    if (message == null) {
      message = text.isBlank() ? "(no message)" : abbreviate(text.strip());
    }
    ObjectNode details = Json.object();
    details.put("httpStatus", httpStatus);
    Long retryAfter = retryAfterHeader(headers);
    if (retryAfter == null && error != null) {
      retryAfter = retryDelay(error);
    }
    if (retryAfter != null) {
      details.put("retryAfterSeconds", (int) Math.min(Integer.MAX_VALUE, retryAfter));
    }
    if (error != null && error.isObject()) {
      details.set("providerError", error);
    }
    return new BatonException(
        statusOf(httpStatus),
        provider + " returned HTTP " + httpStatus + ": " + message,
        details,
        true,
        null);
  }

  /**
   * The error for an {@code error} object that arrives inside a stream that began with HTTP 200.
   * Its status comes from a numeric {@code code} (read as an HTTP status) or a status name in
   * {@code status}, and is {@link Status#UNAVAILABLE} when it has neither.
   */
  public static BatonException fromStreamError(String provider, JsonNode error) {
    Status status = Status.UNAVAILABLE;
    JsonNode code = error.path("code");
    JsonNode statusName = error.path("status");
    if (code.isIntegralNumber()) {
      status = statusOf(code.intValue());
    } else if (statusName.isString()) {
      status = Status.fromName(statusName.stringValue()).orElse(Status.UNAVAILABLE);
    }
    String message = messageOf(Json.object().set("error", error));
    ObjectNode details = Json.object();
    if (error.isObject()) {
      details.set("providerError", error);
    }
    return new BatonException(
        status,
        provider + " failed while streaming: " + (message == null ? "(no message)" : message),
        details,
        true,
        null);
  }

  /**
   * The error for a successful response whose body, or one of whose SSE events, is not JSON: {@link
   * Status#UNAVAILABLE} with {@code "<provider> answered with something that is not JSON: <start of
   * the text>"}.
   */
  static BatonException notJson(String provider, String text, @Nullable Throwable cause) {
    String quoted = text.isBlank() ? "(nothing)" : abbreviate(text.strip());
    return new BatonException(
        Status.UNAVAILABLE,
        provider + " answered with something that is not JSON: " + quoted,
        null,
        true,
        cause);
  }

  /** The status for an HTTP response code, as the class comment lists. */
  public static Status statusOf(int httpStatus) {
    return switch (httpStatus) {
      case 400, 413, 422 -> Status.INVALID_ARGUMENT;
      case 401 -> Status.UNAUTHENTICATED;
      case 403 -> Status.PERMISSION_DENIED;
      case 404 -> Status.NOT_FOUND;
      case 408 -> Status.DEADLINE_EXCEEDED;
      case 409 -> Status.ABORTED;
      case 429 -> Status.RESOURCE_EXHAUSTED;
      default -> httpStatus >= 500 && httpStatus <= 599 ? Status.UNAVAILABLE : Status.UNKNOWN;
    };
  }

  private static @Nullable String messageOf(JsonNode json) {
    JsonNode error = json.path("error");
    if (error.path("message").isString()) {
      return error.path("message").stringValue();
    }
    if (error.isString()) {
      return error.stringValue();
    }
    if (json.path("message").isString()) {
      return json.path("message").stringValue();
    }
    if (json.path("detail").isString()) {
      return json.path("detail").stringValue();
    }
    return null;
  }

  private static @Nullable Long retryAfterHeader(HttpHeaders headers) {
    String value = headers.firstValue("Retry-After").map(String::strip).orElse(null);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Math.max(0, Long.parseLong(value));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        return Math.max(0, ceilSeconds(Duration.between(Instant.now(), at)));
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }

  /** Google's {@code google.rpc.RetryInfo} detail: {@code {"retryDelay": "22s"}}. */
  private static @Nullable Long retryDelay(JsonNode error) {
    for (JsonNode detail : error.path("details")) {
      JsonNode delay = detail.path("retryDelay");
      if (delay.isString() && delay.stringValue().endsWith("s")) {
        String seconds = delay.stringValue();
        try {
          return (long) Math.ceil(Double.parseDouble(seconds.substring(0, seconds.length() - 1)));
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static long ceilSeconds(Duration duration) {
    long seconds = duration.getSeconds();
    return duration.getNano() > 0 ? seconds + 1 : seconds;
  }

  private static @Nullable JsonNode parseOrNull(String text) {
    try {
      return Json.parse(text);
    } catch (BatonException notJson) {
      return null;
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= MAX_BODY_TEXT ? text : text.substring(0, MAX_BODY_TEXT) + "…";
  }
}
