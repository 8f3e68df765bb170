package dev.baton.internal.http;

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
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns a provider's error answer into a {@link BatonException} that keeps the provider's own
 * message. The error is public (its message may reach remote clients) unless it concerns the
 * server's own account: HTTP 401 or 403, {@link Status#UNAUTHENTICATED}, {@link
 * Status#PERMISSION_DENIED}, or a detail whose {@code reason} starts with {@code API_KEY}.
 *
 * <p>The status is the one the error object names in {@code error.status} when that is a canonical
 * status name other than {@code OK} (Gemini sends {@code FAILED_PRECONDITION}, {@code
 * DEADLINE_EXCEEDED} and so on, which say more than the HTTP code), except that an error whose HTTP
 * code maps to {@link Status#UNAVAILABLE} stays so when it names {@code INTERNAL} or {@code
 * UNKNOWN}: Google documents those as transient and to be retried, and Baton's retry and fallback
 * middleware act on {@code UNAVAILABLE}. Otherwise HTTP statuses map as: 400, 413 and 422 to {@link
 * Status#INVALID_ARGUMENT}; 401 to {@link Status#UNAUTHENTICATED}; 403 to {@link
 * Status#PERMISSION_DENIED}; 404 to {@link Status#NOT_FOUND}; 408 to {@link
 * Status#DEADLINE_EXCEEDED}; 409 to {@link Status#ABORTED}; 429 to {@link
 * Status#RESOURCE_EXHAUSTED}; every 5xx to {@link Status#UNAVAILABLE}; anything else to {@link
 * Status#UNKNOWN}.
 *
 * <p>The message is {@code "<provider> returned HTTP <code>: <provider message>"}, where the
 * provider message is read from {@code error.message}, a string {@code error}, a top-level {@code
 * message} or {@code detail} (the shapes Gemini, OpenAI and the OpenAI-compatible servers use), or
 * else {@code (no message)}: any other body (a proxy's error page) is not for remote clients, so
 * its start goes in a non-public cause, which callers in this process can read and a server logs
 * with the failed request. The details are {@code {"httpStatus": <code>, "retryAfterSeconds": <n>,
 * "providerError": {...}}}; {@code providerError} is the provider's {@code error} object when it
 * sent one. {@code retryAfterSeconds} is rounded up and comes from the first of these that is
 * present and readable: a {@code Retry-After} header (seconds or an HTTP date); OpenAI's {@code
 * retry-after-ms} header (milliseconds); on a 429 only, the larger of OpenAI's {@code
 * x-ratelimit-reset-requests} and {@code x-ratelimit-reset-tokens} headers (durations such as
 * {@code 6s}, {@code 1m30s} or {@code 250ms}), which they send on every answer but which say when
 * to come back only once a limit is hit; a Google {@code RetryInfo.retryDelay}. It is left out when
 * none is.
 *
 * <p>Stateless and thread-safe.
 */
public final class HttpErrors {
  private static final int MAX_BODY_TEXT = 500;
  // "ms" must come before "m": alternatives are tried in order, and "250m" would leave "s" unread.
  private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

  private HttpErrors() {}

  /** The error for an HTTP response with a status of 300 or more. */
  public static BatonException fromResponse(
      String provider, int httpStatus, HttpHeaders headers, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    JsonNode json = parseOrNull(text);
    JsonNode error = json == null ? null : json.get("error");
    String message = json == null ? null : messageOf(json);
    // A body without the provider's message (a proxy's error page, say) is not for the clients of
    // this process: its start goes in a non-public cause.
    BatonException unread = message == null ? forLogs(text, null) : null;
    if (message == null) {
      message = "(no message)";
    }
    ObjectNode details = Json.object();
    details.put("httpStatus", httpStatus);
    Long retryAfter = retryAfterHeader(headers);
    if (retryAfter == null) {
      retryAfter = retryAfterMillisHeader(headers);
    }
    if (retryAfter == null && httpStatus == 429) {
      retryAfter = rateLimitReset(headers);
    }
    if (retryAfter == null && error != null) {
      retryAfter = retryDelay(error);
    }
    if (retryAfter != null) {
      details.put("retryAfterSeconds", (int) Math.min(Integer.MAX_VALUE, retryAfter));
    }
    if (error != null && error.isObject()) {
      details.set("providerError", error);
    }
    Status status = statusOf(statusOf(httpStatus), error);
    return new BatonException(
        status,
        provider + " returned HTTP " + httpStatus + ": " + message,
        details,
        isAboutTheRequest(httpStatus, status, error),
        unread);
  }

  /**
   * The error for an {@code error} object that arrives inside a stream that began with HTTP 200.
   * Its status is chosen as the class comment says, with a numeric {@code code} read as the HTTP
   * status, and is {@link Status#UNAVAILABLE} when it has neither a usable name nor a code.
   */
  public static BatonException fromStreamError(String provider, JsonNode error) {
    JsonNode code = error.path("code");
    Status status =
        statusOf(code.isIntegralNumber() ? statusOf(code.intValue()) : Status.UNAVAILABLE, error);
    String message = messageOf(Json.object().set("error", error));
    ObjectNode details = Json.object();
    if (error.isObject()) {
      details.set("providerError", error);
    }
    return new BatonException(
        status,
        provider + " failed while streaming: " + (message == null ? "(no message)" : message),
        details,
        isAboutTheRequest(code.isIntegralNumber() ? code.intValue() : 0, status, error),
        null);
  }

  /**
   * Whether a remote client may read the provider's message. A refused credential or permission is
   * about the server's own account (its key, its project), not the client's request, whatever
   * status it comes with (Gemini answers a bad key with 400 and reason {@code API_KEY_INVALID}):
   * the client then sees only the status's generic text, while in-process callers keep the message.
   */
  private static boolean isAboutTheRequest(
      int httpStatus, Status status, @Nullable JsonNode error) {
    if (httpStatus == 401
        || httpStatus == 403
        || status == Status.UNAUTHENTICATED
        || status == Status.PERMISSION_DENIED) {
      return false;
    }
    if (error != null) {
      for (JsonNode detail : error.path("details")) {
        if (detail.path("reason").asString("").startsWith("API_KEY")) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * The error for a successful response whose body, or one of whose SSE events, is not JSON: {@link
   * Status#UNAVAILABLE} with {@code "<provider> answered with something that is not JSON"}. The
   * error is public, but what the server sent is not (a proxy's login page, an internal address):
   * its start is the message of a non-public cause, which callers in this process can read and a
   * server logs with the failed request, and remote clients never see.
   */
  static BatonException notJson(String provider, String text, @Nullable Throwable cause) {
    BatonException body = forLogs(text, cause);
    return new BatonException(
        Status.UNAVAILABLE,
        provider + " answered with something that is not JSON",
        null,
        true,
        body != null ? body : cause);
  }

  /**
   * A non-public error whose message is the start of a body a server sent where its API promised
   * something else, or null when the body is blank: the cause of a public error, kept from remote
   * clients. Nothing logs it here; whoever reports the error does (a server logs a failed request's
   * non-public causes).
   */
  static @Nullable BatonException forLogs(String text, @Nullable Throwable cause) {
    String start = text.strip();
    if (start.isEmpty()) {
      return null;
    }
    return new BatonException(
        Status.UNKNOWN, "the body began: " + abbreviate(start), null, false, cause);
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

  /** The status {@code error.status} names, as the class comment says, else {@code fromCode}. */
  private static Status statusOf(Status fromCode, @Nullable JsonNode error) {
    JsonNode name = error == null ? Json.nodes().missingNode() : error.path("status");
    Status named = name.isString() ? Status.fromName(name.stringValue()).orElse(null) : null;
    if (named == null || named == Status.OK) {
      return fromCode;
    }
    boolean transientFailure =
        fromCode == Status.UNAVAILABLE && (named == Status.INTERNAL || named == Status.UNKNOWN);
    return transientFailure ? Status.UNAVAILABLE : named;
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

  /** OpenAI's {@code retry-after-ms}: a number of milliseconds, possibly with a fraction. */
  private static @Nullable Long retryAfterMillisHeader(HttpHeaders headers) {
    String value = headers.firstValue("retry-after-ms").map(String::strip).orElse("");
    try {
      return Math.max(0, (long) Math.ceil(Double.parseDouble(value) / 1000));
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }

  /** The later of OpenAI's two rate-limit resets, when at least one is readable. */
  private static @Nullable Long rateLimitReset(HttpHeaders headers) {
    Long later = null;
    for (String name : List.of("x-ratelimit-reset-requests", "x-ratelimit-reset-tokens")) {
      Double millis = headers.firstValue(name).map(v -> durationMillis(v.strip())).orElse(null);
      if (millis != null) {
        long seconds = (long) Math.ceil(millis / 1000);
        later = later == null ? seconds : Math.max(later, seconds);
      }
    }
    return later;
  }

  /**
   * A duration in Go's notation, the one OpenAI uses, such as {@code 6m0s}, {@code 1m30s}, {@code
   * 250ms} or {@code 1.5s}, in milliseconds; null when the text is not one.
   */
  private static @Nullable Double durationMillis(String text) {
    Matcher part = DURATION_PART.matcher(text);
    double millis = 0;
    int end = 0;
    while (part.find() && part.start() == end) {
      double amount = Double.parseDouble(part.group(1));
      millis +=
          switch (part.group(2)) {
            case "h" -> amount * 3_600_000;
            case "m" -> amount * 60_000;
            case "s" -> amount * 1000;
            default -> amount; // ms
          };
      end = part.end();
    }
    return end > 0 && end == text.length() ? millis : null;
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
