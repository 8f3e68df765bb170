package dev.baton.devtools;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Reading requests and writing whole responses on the JDK's HTTP server. Stateless. */
final class Http {
  /** Request bodies larger than this are refused (Genkit JS's limit is 30 MB too). */
  static final int MAX_BODY = 30 * 1024 * 1024;

  private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");

  private Http() {}

  /**
   * Whether the request carries one {@code Host} header naming the loopback interface ({@code
   * localhost}, {@code 127.0.0.1} or {@code [::1]}), with any port or none.
   */
  static boolean addressedToLoopback(HttpExchange exchange) {
    List<String> hosts = exchange.getRequestHeaders().get("Host");
    if (hosts == null || hosts.size() != 1) {
      return false;
    }
    String host = hosts.get(0).strip();
    int colon = host.lastIndexOf(':');
    if (colon > host.lastIndexOf(']')) {
      if (!host.substring(colon + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
        return false;
      }
      host = host.substring(0, colon);
    }
    return LOOPBACK_NAMES.contains(host.toLowerCase(Locale.ROOT));
  }

  /** Whether the request's {@code Content-Type} is {@code application/json}, parameters aside. */
  static boolean sendsJson(HttpExchange exchange) {
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type == null) {
      return false;
    }
    int parameters = type.indexOf(';');
    String mediaType = parameters < 0 ? type : type.substring(0, parameters);
    return mediaType.strip().equalsIgnoreCase("application/json");
  }

  /** The query parameters, decoded; a parameter given twice keeps its first value. */
  static Map<String, String> query(HttpExchange exchange) {
    Map<String, String> params = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&", -1)) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      params.putIfAbsent(name, value);
    }
    return params;
  }

  private static String decode(String text) {
    return URLDecoder.decode(text, StandardCharsets.UTF_8);
  }

  /**
   * The request body as a JSON object.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a body that is too large or not an object
   */
  static ObjectNode jsonBody(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY + 1);
    }
    if (bytes.length > MAX_BODY) {
      throw BatonException.invalidArgument("the request body is larger than %d bytes", MAX_BODY);
    }
    JsonNode body;
    try {
      body = bytes.length == 0 ? Json.object() : Json.parse(bytes);
    } catch (RuntimeException e) {
      throw BatonException.invalidArgument("the request body is not JSON");
    }
    if (!(body instanceof ObjectNode object)) {
      throw BatonException.invalidArgument("the request body must be a JSON object");
    }
    return object;
  }

  static void text(HttpExchange exchange, int status, String text) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  static void json(HttpExchange exchange, int status, JsonNode body) throws IOException {
    send(exchange, status, "application/json", Json.writeBytes(body));
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      exchange.getResponseBody().write(body);
    }
    exchange.close();
  }

  /**
   * Genkit's reflection error: {@code {code, message, details}} with the numeric canonical code.
   * The message is the error's public text, prefixed with its status as Genkit's errors are; a
   * non-public error's own message stays in the runtime's log. {@code details} is always an object,
   * since the CLI reads {@code details.stack} from it.
   */
  static ObjectNode status(BatonException error, @Nullable String traceId) {
    ObjectNode status = Json.object();
    status.put("code", error.status().code());
    String message =
        error.status() == Status.CANCELLED
            ? "Action was cancelled"
            : error.status().name() + ": " + error.toPublicErrorInfo().message();
    status.put("message", message);
    ObjectNode details = status.putObject("details");
    if (traceId != null) {
      details.put("traceId", traceId);
    }
    return status;
  }
}
