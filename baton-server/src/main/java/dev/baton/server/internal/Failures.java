package dev.baton.server.internal;

import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
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
  private static final Logger log = LoggerFactory.getLogger(Failures.class);

  private final boolean exposeMessages;

  public Failures(boolean exposeMessages) {
    this.exposeMessages = exposeMessages;
  }

  /** The error as a client may see it; an internal one is logged with its stack here. */
  public BatonException classify(Throwable failure) {
    BatonException error = BatonException.from(failure);
    if (!error.isPublic()) {
      log.warn("request failed: {}", error.getMessage(), failure);
    }
    return error;
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
