package dev.baton.server.internal.protocol;

import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * How a failure reaches a client: as a status and an {@link ErrorInfo} whose message is the error's
 * own only when the error is public (or the server exposes messages, as in development), and a
 * generic text for its status otherwise. Anything that is not a {@link BatonException} is an {@code
 * INTERNAL} error whose message stays in the log. No stack trace ever leaves.
 *
 * <p>Stateless and thread-safe.
 */
public final class Failures {
  private final boolean exposeMessages;
  private final Logger log;

  /**
   * Whether error answers carry every error's own message unless told otherwise: when {@code
   * GENKIT_ENV=dev}, as Genkit does.
   */
  public static boolean exposeByDefault() {
    return "dev".equals(System.getenv("GENKIT_ENV"));
  }

  public Failures(boolean exposeMessages) {
    this(exposeMessages, LoggerFactory.getLogger(Failures.class));
  }

  Failures(boolean exposeMessages, Logger log) {
    this.exposeMessages = exposeMessages;
    this.log = log;
  }

  /**
   * The error as a client may see it. An internal one is logged with its stack here, and so is a
   * public one that carries a non-public cause: what that cause says (the start of a proxy's error
   * page, say) is kept from clients for the log, and this is the only place that logs it.
   */
  public BatonException classify(Throwable failure) {
    BatonException error = BatonException.from(failure);
    if (!error.isPublic()) {
      log.warn("request failed: {}", error.getMessage(), failure);
    } else {
      BatonException hidden = nonPublicCause(error);
      if (hidden != null) {
        log.warn(
            "request failed: {} (not for clients: {})",
            error.getMessage(),
            hidden.getMessage(),
            failure);
      }
    }
    return error;
  }

  private static @Nullable BatonException nonPublicCause(BatonException error) {
    Throwable cause = error.getCause();
    // Bounded, since a chain may loop back on itself.
    for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
      if (cause instanceof BatonException baton && !baton.isPublic()) {
        return baton;
      }
    }
    return null;
  }

  /** The wire form of an error: public messages, or every message when exposing them. */
  public ErrorInfo wire(BatonException error) {
    return exposeMessages ? error.toErrorInfo() : error.toPublicErrorInfo();
  }

  /** {@code {"status": ..., "message": ..., "details": ...}}: the body of an HTTP error answer. */
  public ObjectNode body(BatonException error) {
    return (ObjectNode) Json.toTree(wire(error));
  }
}
