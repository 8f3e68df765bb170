package dev.baton.devtools;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Genkit's reflection API, version 1, on the JDK's HTTP server: the six endpoints genkit-cli 1.43.0
 * calls ({@code /api/__health}, {@code /api/actions}, {@code /api/values}, {@code /api/runAction},
 * {@code /api/cancelAction}, {@code /api/notify}) and {@code /api/envs}. It listens on loopback
 * only, one virtual thread per request.
 *
 * <p>Listening on loopback does not keep web pages out: the developer's browser runs them on the
 * same machine, and the API runs any action with the application's credentials. So, as {@link
 * #refused} explains, a request must name a loopback host, and a POST must send JSON.
 *
 * <p>Thread-safe.
 */
final class ReflectionServer {
  private static final Logger log = LoggerFactory.getLogger(ReflectionServer.class);

  /** Genkit's runtimes take the first free port from here, up to {@link #LAST_PORT}. */
  static final int FIRST_PORT = 3100;

  static final int LAST_PORT = 3199;

  private final HttpServer server;
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
  private final Baton baton;
  private final String runtimeId;
  private final RunAction runAction;
  private final Consumer<URI> onTelemetryServer;

  /**
   * @param runtimeId the ID written to the runtime file, which the health check compares with
   * @param onTelemetryServer told the telemetry server the CLI announces
   */
  private ReflectionServer(
      HttpServer server,
      Baton baton,
      String runtimeId,
      RunAction runAction,
      Consumer<URI> onTelemetryServer) {
    this.server = server;
    this.baton = baton;
    this.runtimeId = runtimeId;
    this.runAction = runAction;
    this.onTelemetryServer = onTelemetryServer;
  }

  /**
   * Binds a port on loopback: {@code port} if given (0 picks any free one), else the first free one
   * from 3100 to 3199.
   *
   * @throws IOException when the port given, or every port of the range, is taken
   */
  static HttpServer bind(@Nullable Integer port) throws IOException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    if (port != null) {
      return HttpServer.create(new InetSocketAddress(loopback, port), 0);
    }
    for (int candidate = FIRST_PORT; candidate <= LAST_PORT; candidate++) {
      try {
        return HttpServer.create(new InetSocketAddress(loopback, candidate), 0);
      } catch (BindException taken) {
        // Another runtime has it; try the next one, as Genkit JS and Go do.
      }
    }
    throw new BindException("no free port from " + FIRST_PORT + " to " + LAST_PORT);
  }

  /** Starts serving on a bound server. */
  static ReflectionServer start(
      HttpServer server,
      Baton baton,
      String runtimeId,
      RunAction runAction,
      Consumer<URI> onTelemetryServer) {
    ReflectionServer reflection =
        new ReflectionServer(server, baton, runtimeId, runAction, onTelemetryServer);
    server.setExecutor(reflection.threads);
    server.createContext("/", reflection::handle);
    server.start();
    return reflection;
  }

  /** The URL the runtime file advertises. */
  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Stops listening, ending requests in flight. */
  void stop() {
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("X-Genkit-Version", DevTools.VERSION);
    try {
      if (!refused(exchange)) {
        route(exchange);
      }
    } catch (BatonException e) {
      Http.json(exchange, e.status().httpStatus(), Http.status(e, null));
    } catch (RuntimeException e) {
      log.warn(
          "reflection API: {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
      Http.json(exchange, 500, Http.status(BatonException.from(e), null));
    } finally {
      exchange.close();
    }
  }

  /**
   * Answers, and returns true for, a request a web page may have sent. A page can POST to any
   * address without the browser asking the server first (a CORS preflight) only as {@code
   * text/plain}, a form or multipart, so a POST must say {@code application/json}, the only body
   * Genkit JS's reflection server parses (with {@code express.json()}); and a page served from a
   * domain that its owner points at 127.0.0.1 (DNS rebinding) is same-origin with this server, but
   * its requests name that domain as their {@code Host}.
   */
  private static boolean refused(HttpExchange exchange) throws IOException {
    if (!Http.addressedToLoopback(exchange)) {
      log.warn(
          "reflection API: refused {} {}, addressed to a host other than localhost (a web page?)",
          exchange.getRequestMethod(),
          exchange.getRequestURI().getPath());
      BatonException error =
          BatonException.of(
              Status.PERMISSION_DENIED,
              "the reflection API answers requests addressed to localhost, 127.0.0.1 or [::1]");
      Http.json(exchange, 403, Http.status(error, null));
      return true;
    }
    if ("POST".equals(exchange.getRequestMethod()) && !Http.sendsJson(exchange)) {
      BatonException error =
          BatonException.invalidArgument("the request body must be sent as application/json");
      Http.json(exchange, 415, Http.status(error, null));
      return true;
    }
    return false;
  }

  private void route(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    switch (method + " " + path) {
      case "GET /api/__health" -> health(exchange);
      case "GET /api/actions" -> Http.json(exchange, 200, ActionCatalog.actions(baton.registry()));
      case "GET /api/values" -> values(exchange);
      case "GET /api/envs" -> Http.json(exchange, 200, Json.toTree(new String[] {"dev"}));
      case "POST /api/runAction" -> runAction.run(exchange);
      case "POST /api/cancelAction" -> cancel(exchange);
      case "POST /api/notify" -> notify(exchange);
      default -> Http.text(exchange, 404, "not found: " + method + " " + path);
    }
  }

  private void health(HttpExchange exchange) throws IOException {
    String id = Http.query(exchange).get("id");
    if (id != null && !id.isEmpty() && !id.equals(runtimeId)) {
      Http.text(exchange, 503, "Invalid runtime ID");
      return;
    }
    Http.text(exchange, 200, "OK");
  }

  private void values(HttpExchange exchange) throws IOException {
    String type = Http.query(exchange).get("type");
    if (type == null || type.isEmpty()) {
      Http.text(exchange, 400, "Query parameter \"type\" is required.");
      return;
    }
    Http.json(exchange, 200, ActionCatalog.values(baton.registry(), type));
  }

  private void cancel(HttpExchange exchange) throws IOException {
    JsonNode traceId = Http.jsonBody(exchange).path("traceId");
    if (!traceId.isString() || traceId.asString().isEmpty()) {
      Http.json(exchange, 400, Json.object().put("error", "traceId is required"));
      return;
    }
    if (runAction.cancel(traceId.asString())) {
      Http.json(exchange, 200, Json.object().put("message", "Action cancelled"));
    } else {
      Http.json(
          exchange, 404, Json.object().put("message", "Action not found or already completed"));
    }
  }

  private void notify(HttpExchange exchange) throws IOException {
    ObjectNode body = Http.jsonBody(exchange);
    JsonNode url = body.path("telemetryServerUrl");
    log.info("Genkit CLI connected (its telemetry server: {})", url.asString("none"));
    if (url.isString() && !url.asString().isBlank()) {
      try {
        onTelemetryServer.accept(URI.create(url.asString().strip()));
      } catch (IllegalArgumentException e) {
        log.warn(
            "the Genkit CLI announced a telemetry server at an invalid URL: {}", url.asString());
      }
    }
    int version = body.path("reflectionApiSpecVersion").asInt(0);
    if (version != DevTools.REFLECTION_API_SPEC_VERSION) {
      log.warn(
          "the Genkit CLI speaks reflection API version {}, this runtime {}: some features may not"
              + " work; use a genkit-cli release that matches",
          version,
          DevTools.REFLECTION_API_SPEC_VERSION);
    }
    Http.text(exchange, 200, "OK");
  }

  /** The port {@code GENKIT_REFLECTION_PORT} asks for, or null for the first free from 3100. */
  static @Nullable Integer port(Map<String, String> env) {
    String value = env.get("GENKIT_REFLECTION_PORT");
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("GENKIT_REFLECTION_PORT is not a port number: " + value);
    }
  }
}
