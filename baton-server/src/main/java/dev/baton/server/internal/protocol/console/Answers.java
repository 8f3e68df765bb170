package dev.baton.server.internal.protocol.console;

import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.server.internal.protocol.Failures;
import dev.baton.server.internal.protocol.Transport;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * How the console answers: JSON, static files and errors, each with the headers that keep a browser
 * from reading an answer as something else ({@code nosniff}), from framing the page, and from
 * caching what a principal read. Errors are Genkit's {@code {"error": {"status", "message"}}} with
 * the wire protocol's HTTP status, and say only what the protocol's {@link Failures} let clients
 * see. Stateless and thread-safe.
 */
final class Answers {
  /** Scripts, styles and everything else from the console's own origin only; no inline script. */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

  private final Failures failures;

  Answers(Failures failures) {
    this.failures = failures;
  }

  void json(Transport transport, int status, JsonNode body) {
    byte[] bytes = Json.writeBytes(body);
    transport.setStatus(status);
    transport.setHeader("Content-Type", "application/json");
    transport.setHeader("Cache-Control", "no-store");
    secure(transport);
    transport.finish(bytes);
  }

  void file(Transport transport, String contentType, byte[] bytes) {
    transport.setStatus(200);
    transport.setHeader("Content-Type", contentType);
    // The files are the jar's: a new version of the server may change them under the same names.
    transport.setHeader("Cache-Control", "no-cache");
    secure(transport);
    transport.finish(bytes);
  }

  /** Answers a failure; what is not public becomes its status's generic text (and is logged). */
  void error(Transport transport, Throwable failure) {
    BatonException error = failures.classify(failure);
    error(transport, error.status().httpStatus(), error);
  }

  /** Answers an error with an HTTP status other than its own ({@code 405}, say). */
  void error(Transport transport, int httpStatus, BatonException error) {
    ErrorInfo wire = failures.wire(error);
    ObjectNode info = Json.object();
    info.put("status", wire.status());
    info.put("message", wire.message());
    ObjectNode body = Json.object();
    body.set("error", info);
    json(transport, httpStatus, body);
  }

  /** Sends the security headers every answer of the console carries. */
  static void secure(Transport transport) {
    transport.setHeader("X-Content-Type-Options", "nosniff");
    transport.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    transport.setHeader("X-Frame-Options", "DENY");
    transport.setHeader("Referrer-Policy", "no-referrer");
  }
}
