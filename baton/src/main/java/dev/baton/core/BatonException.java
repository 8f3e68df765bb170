package dev.baton.core;

import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An error with a Genkit status.
 *
 * <p>Every failure Baton reports carries a {@link Status}, a message and optionally JSON details.
 * {@link #isPublic()} says whether the message may reach a remote client: a server sends the
 * message of a public error as it is and replaces any other message with a generic text derived
 * from the status, so internal details (a SQL error, a file path) never leave the process. Errors
 * raised by Baton for bad caller input are public; anything unexpected is not.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public class BatonException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Status status;
  private final transient @Nullable JsonNode details;
  private final boolean isPublic;

  /**
   * A public error: its message may reach remote clients, so it must say nothing internal. For a
   * message meant only for logs use {@link #internal} or the five-argument constructor.
   */
  public BatonException(Status status, String message) {
    this(status, message, null, true, null);
  }

  /** A public error with a cause; the cause itself never reaches a remote client. */
  public BatonException(Status status, String message, @Nullable Throwable cause) {
    this(status, message, null, true, cause);
  }

  public BatonException(
      Status status,
      String message,
      @Nullable JsonNode details,
      boolean isPublic,
      @Nullable Throwable cause) {
    super(message, cause);
    this.status = status;
    this.details = details == null ? null : details.deepCopy();
    this.isPublic = isPublic;
  }

  /** A public error with a formatted message ({@link String#format} rules). */
  // Error Prone's @FormatMethod would add a dependency to Baton's API for a compile-time check.
  @SuppressWarnings("AnnotateFormatMethod")
  public static BatonException of(Status status, String format, @Nullable Object... args) {
    return new BatonException(status, args.length == 0 ? format : String.format(format, args));
  }

  /** A public {@link Status#INVALID_ARGUMENT} error. */
  public static BatonException invalidArgument(String format, @Nullable Object... args) {
    return of(Status.INVALID_ARGUMENT, format, args);
  }

  /** A public {@link Status#NOT_FOUND} error. */
  public static BatonException notFound(String format, @Nullable Object... args) {
    return of(Status.NOT_FOUND, format, args);
  }

  /** A public {@link Status#FAILED_PRECONDITION} error. */
  public static BatonException failedPrecondition(String format, @Nullable Object... args) {
    return of(Status.FAILED_PRECONDITION, format, args);
  }

  /**
   * A non-public {@link Status#INTERNAL} error: the message is for logs, and a remote client sees
   * only the status.
   */
  public static BatonException internal(String message, @Nullable Throwable cause) {
    return new BatonException(Status.INTERNAL, message, null, false, cause);
  }

  /**
   * The error as a {@code BatonException}: itself when it already is one, otherwise a non-public
   * {@link Status#INTERNAL} error wrapping it. Interrupted and cancelled work becomes {@link
   * Status#CANCELLED}.
   */
  public static BatonException from(Throwable error) {
    if (error instanceof BatonException batonException) {
      return batonException;
    }
    if (error instanceof InterruptedException
        || error instanceof java.util.concurrent.CancellationException) {
      return new BatonException(Status.CANCELLED, "the operation was cancelled", null, true, error);
    }
    String message = error.getMessage() == null ? error.getClass().getName() : error.getMessage();
    return internal(message, error);
  }

  public Status status() {
    return status;
  }

  /** Details sent with the error, or null; a copy. */
  public @Nullable JsonNode details() {
    return details == null ? null : details.deepCopy();
  }

  /** Whether {@link #getMessage()} may be shown to a remote client. */
  public boolean isPublic() {
    return isPublic;
  }

  /** The wire form of this error, keeping the full message (for in-process and trusted callers). */
  public ErrorInfo toErrorInfo() {
    return ErrorInfo.of(status, String.valueOf(getMessage())).withDetails(details);
  }

  /**
   * The wire form a remote client may see: the message only when the error is public, otherwise a
   * generic text for the status. Details are never included for a non-public error.
   */
  public ErrorInfo toPublicErrorInfo() {
    return isPublic ? toErrorInfo() : ErrorInfo.of(status, genericMessage(status));
  }

  /** The text a remote client sees in place of a non-public message. */
  public static String genericMessage(Status status) {
    return GENERIC_MESSAGES.getOrDefault(status, "An error occurred.");
  }

  private static final Map<Status, String> GENERIC_MESSAGES =
      Map.ofEntries(
          Map.entry(Status.CANCELLED, "The request was cancelled."),
          Map.entry(Status.INVALID_ARGUMENT, "The request was invalid."),
          Map.entry(Status.DEADLINE_EXCEEDED, "The request took too long."),
          Map.entry(Status.NOT_FOUND, "The requested resource was not found."),
          Map.entry(Status.ALREADY_EXISTS, "The resource already exists."),
          Map.entry(Status.PERMISSION_DENIED, "Permission denied."),
          Map.entry(Status.RESOURCE_EXHAUSTED, "Too many requests; try again later."),
          Map.entry(Status.FAILED_PRECONDITION, "The request cannot be served in this state."),
          Map.entry(Status.ABORTED, "The request was aborted."),
          Map.entry(Status.UNIMPLEMENTED, "Not implemented."),
          Map.entry(Status.UNAVAILABLE, "The service is unavailable; try again later."),
          Map.entry(Status.UNAUTHENTICATED, "Authentication required."));
}
