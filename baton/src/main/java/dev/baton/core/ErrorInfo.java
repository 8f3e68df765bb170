package dev.baton.core;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The wire shape of an error: {@code {"status": "NOT_FOUND", "message": "...", "details": {...}}}.
 *
 * <p>It appears in failed agent outputs, failed snapshots and SSE error frames. A {@code
 * details.stack} entry is never serialised, so stack traces do not cross the wire.
 */
public record ErrorInfo(String status, String message, @Nullable JsonNode details) {

  public ErrorInfo {
    details = details == null ? null : Json.withoutField(details, "stack");
  }

  /** An error with a status and a message, and no details. */
  public static ErrorInfo of(Status status, String message) {
    return new ErrorInfo(status.name(), message, null);
  }

  /** This error with its details replaced ({@code details.stack} is dropped as ever). */
  public ErrorInfo withDetails(@Nullable JsonNode details) {
    return new ErrorInfo(status, message, details);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode details() {
    return details == null ? null : Json.copy(details);
  }

  /** The status this error names, or {@link Status#UNKNOWN} for a name Baton does not know. */
  public Status statusCode() {
    return Status.fromName(status).orElse(Status.UNKNOWN);
  }

  /** This error as an exception that keeps its status, message and details. */
  public BatonException toException() {
    return new BatonException(statusCode(), message, details, true, null);
  }
}
