package dev.baton.internal.http;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What Baton's HTTP client and server agree on beyond Genkit's wire format, and how a Genkit
 * server's error answers read back as statuses.
 *
 * <p>Stateless and thread-safe.
 */
public final class GenkitHttp {
  /**
   * The request header a client sends to ask for SSE keep-alive comments. Genkit JS 1.42's client
   * parses every blank-line-separated block of a stream as a frame and fails on a comment, so a
   * Baton server sends keep-alives only to clients that ask, as Baton's own does.
   */
  public static final String KEEP_ALIVE_HEADER = "X-Baton-Keep-Alive";

  private GenkitHttp() {}

  /**
   * The error an answer of 300 or more from a Genkit server stands for. The body is read as JSON
   * {@code {"status": "NOT_FOUND", "message": ...}} (Genkit JS and Baton), or with the same fields
   * under {@code error}; a status name with spaces ({@code "INVALID ARGUMENT"}, as JS writes one)
   * is read with underscores. Without a readable status the HTTP code decides, as {@link
   * Status#fromHttpStatus} maps it (Go answers with plain text). The message is the body's, which
   * the server made public, or {@code "<who> answered HTTP <code>"}: any other body (a proxy's
   * error page, a stack trace) is not for this process's clients, so its start goes in a non-public
   * cause, for logs.
   *
   * <p>The error is public, except for HTTP 401 and 403 and the statuses {@code UNAUTHENTICATED}
   * and {@code PERMISSION_DENIED}: those concern this process's own credentials, not its caller's
   * request.
   */
  public static BatonException errorOf(String who, int httpStatus, byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    JsonNode json = parseOrNull(text);
    Status status = null;
    String message = null;
    if (json != null && json.isObject()) {
      JsonNode error = json.path("error").isObject() ? json.path("error") : json;
      status = statusNamed(error.path("status")).orElse(null);
      message = error.path("message").isString() ? error.path("message").stringValue() : null;
    }
    if (status == null) {
      status = Status.fromHttpStatus(httpStatus);
    }
    BatonException quoted = null;
    if (message == null) {
      message = who + " answered HTTP " + httpStatus;
      quoted = HttpErrors.forLogs(text, null);
    }
    boolean aboutOurCredentials =
        httpStatus == 401
            || httpStatus == 403
            || status == Status.UNAUTHENTICATED
            || status == Status.PERMISSION_DENIED;
    return new BatonException(status, message, null, !aboutOurCredentials, quoted);
  }

  /**
   * The error an {@code error} frame or field of a Genkit answer carries: its status by name (or by
   * its numeric canonical {@code code}), {@code UNKNOWN} when it has neither; its message and
   * details as sent, public, since the server sent them to a client.
   */
  public static BatonException errorOf(JsonNode error) {
    Status status =
        statusNamed(error.path("status"))
            .or(
                () ->
                    error.path("code").isIntegralNumber()
                        ? Status.fromCode(error.path("code").intValue())
                        : Optional.empty())
            .orElse(Status.UNKNOWN);
    String message =
        error.path("message").isString()
            ? error.path("message").stringValue()
            : error.isString() ? error.stringValue() : "(no message)";
    JsonNode details = error.get("details");
    return new BatonException(
        status, message, details != null && details.isObject() ? details : null, true, null);
  }

  private static Optional<Status> statusNamed(JsonNode name) {
    if (!name.isString()) {
      return Optional.empty();
    }
    return Status.fromName(name.stringValue().strip().replace(' ', '_').toUpperCase(Locale.ROOT));
  }

  private static @Nullable JsonNode parseOrNull(String text) {
    try {
      return Json.parse(text);
    } catch (BatonException notJson) {
      return null;
    }
  }
}
