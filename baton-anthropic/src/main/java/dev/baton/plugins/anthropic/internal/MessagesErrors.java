package dev.baton.plugins.anthropic.internal;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.http.HttpErrors;
import tools.jackson.databind.JsonNode;

/**
 * The status of an {@code error} event that arrives in a stream begun with HTTP 200. Such an event
 * has no HTTP code, only the error's {@code type}, which maps as its documented HTTP code would:
 * {@code invalid_request_error} and {@code request_too_large} to {@code INVALID_ARGUMENT}, {@code
 * authentication_error} to {@code UNAUTHENTICATED}, {@code permission_error} to {@code
 * PERMISSION_DENIED}, {@code not_found_error} to {@code NOT_FOUND}, {@code rate_limit_error} to
 * {@code RESOURCE_EXHAUSTED}, and {@code overloaded_error}, {@code api_error} and any other type to
 * {@code UNAVAILABLE}. Errors answered with an HTTP status are {@link HttpErrors}' to map.
 *
 * <p>Stateless and thread-safe.
 */
public final class MessagesErrors {
  private MessagesErrors() {}

  /** The error an {@code error} event's {@code error} object stands for. */
  public static BatonException fromStreamError(String provider, JsonNode error) {
    BatonException read = HttpErrors.fromStreamError(provider, error);
    Status status =
        switch (error.path("type").asString("")) {
          case "invalid_request_error", "request_too_large" -> Status.INVALID_ARGUMENT;
          case "authentication_error" -> Status.UNAUTHENTICATED;
          case "permission_error" -> Status.PERMISSION_DENIED;
          case "not_found_error" -> Status.NOT_FOUND;
          case "rate_limit_error" -> Status.RESOURCE_EXHAUSTED;
          default -> Status.UNAVAILABLE;
        };
    // A refused credential concerns this process's own account, not the caller's request.
    boolean isPublic = status != Status.UNAUTHENTICATED && status != Status.PERMISSION_DENIED;
    return new BatonException(
        status, String.valueOf(read.getMessage()), read.details(), isPublic, null);
  }
}
