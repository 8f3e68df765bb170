package dev.baton.core;

import java.util.Locale;
import java.util.Optional;

/**
 * The gRPC canonical status codes that Genkit uses for every error, with their HTTP mapping.
 *
 * <p>The wire form is the upper-case name ({@code "INVALID_ARGUMENT"}); {@link #code()} is the
 * numeric canonical code that the reflection API sends. The HTTP mapping follows Genkit's servers:
 * {@link #httpStatus()} gives the code a server answers with, and {@link #fromHttpStatus(int)} is
 * what a client reads back from a response it did not expect.
 */
public enum Status {
  OK(0, 200),
  CANCELLED(1, 499),
  UNKNOWN(2, 500),
  INVALID_ARGUMENT(3, 400),
  DEADLINE_EXCEEDED(4, 504),
  NOT_FOUND(5, 404),
  ALREADY_EXISTS(6, 409),
  PERMISSION_DENIED(7, 403),
  RESOURCE_EXHAUSTED(8, 429),
  FAILED_PRECONDITION(9, 400),
  ABORTED(10, 409),
  OUT_OF_RANGE(11, 400),
  UNIMPLEMENTED(12, 501),
  INTERNAL(13, 500),
  UNAVAILABLE(14, 503),
  DATA_LOSS(15, 500),
  UNAUTHENTICATED(16, 401);

  private final int code;
  private final int httpStatus;

  Status(int code, int httpStatus) {
    this.code = code;
    this.httpStatus = httpStatus;
  }

  /**
   * The numeric gRPC canonical code, as the reflection API sends it ({@code 3} for {@link
   * #INVALID_ARGUMENT}).
   */
  public int code() {
    return code;
  }

  /** The HTTP status a server answers with for this status. */
  public int httpStatus() {
    return httpStatus;
  }

  /**
   * The status a client assumes for an HTTP response code. Several statuses share a code (400 is
   * {@link #INVALID_ARGUMENT}, {@link #FAILED_PRECONDITION} and {@link #OUT_OF_RANGE}), so the
   * reverse picks the most general one; a 5xx with no entry of its own is {@link #INTERNAL} and any
   * other unmapped code is {@link #UNKNOWN}.
   */
  public static Status fromHttpStatus(int httpStatus) {
    return switch (httpStatus) {
      case 200 -> OK;
      case 400 -> INVALID_ARGUMENT;
      case 401 -> UNAUTHENTICATED;
      case 403 -> PERMISSION_DENIED;
      case 404 -> NOT_FOUND;
      case 409 -> ABORTED;
      case 429 -> RESOURCE_EXHAUSTED;
      case 499 -> CANCELLED;
      case 501 -> UNIMPLEMENTED;
      case 503 -> UNAVAILABLE;
      case 504 -> DEADLINE_EXCEEDED;
      default -> httpStatus >= 500 && httpStatus <= 599 ? INTERNAL : UNKNOWN;
    };
  }

  /** The status with this wire name, ignoring case; empty for a name that is not a status. */
  public static Optional<Status> fromName(String name) {
    try {
      return Optional.of(valueOf(name.trim().toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The status with this numeric canonical code; empty when the code is out of range. */
  public static Optional<Status> fromCode(int code) {
    Status[] all = values();
    return code >= 0 && code < all.length ? Optional.of(all[code]) : Optional.empty();
  }
}
