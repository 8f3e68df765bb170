package dev.baton.devtools;

import com.sun.net.httpserver.HttpExchange;
import dev.baton.Baton;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.RootSpanHooks;
import dev.baton.internal.core.TracedContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /api/runAction[?stream=true]} and {@code POST /api/cancelAction}, as Genkit JS and Go
 * serve them.
 *
 * <p>The body is {@code {key, input?, init?, context?, telemetryLabels?}}. {@code init} reaches
 * bidirectional actions (agents) as the session init and is ignored by the others, as in Genkit JS;
 * {@code context} is Genkit's action context, whose {@code auth} object becomes the run's auth
 * context (the form a Baton server's context providers give, {@link ActionContext#auth()}); a
 * context without an {@code auth} object is taken as the auth context itself. The root span records
 * the context as {@code genkit:metadata:context} ({@code {}} for none, as Genkit JS records it),
 * with what became the auth context, and {@code secrets}, redacted; {@code telemetryLabels} become
 * attributes of the root span too.
 *
 * <p>The answer's headers go out as soon as the action's root span starts, carrying {@code
 * X-Genkit-Trace-Id}, {@code X-Genkit-Span-Id} and {@code X-Genkit-Version}, so the CLI follows the
 * trace while the action runs. A streamed run answers {@code text/plain} NDJSON: one line per
 * chunk, then the {@code {result, telemetry: {traceId}}} object with no newline after it; a
 * non-streamed run answers that object alone. A failure after the headers is a 200 whose last
 * object is {@code {error: {code, message, details}}}; a failure before them (an unknown key is a
 * 404 in plain text, as in JS; bad input) answers the status's HTTP code with that error object.
 * Spans are flushed to the telemetry server before the result is written, so the trace is complete
 * when the CLI reads it.
 *
 * <p>Runs in flight are cancellable by trace ID. Thread-safe: each request runs on its own thread.
 */
final class RunAction {
  private static final Logger log = LoggerFactory.getLogger(RunAction.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Baton baton;
  private final String version;
  private final Runnable flushTelemetry;
  private final ConcurrentMap<String, Cancellation> inFlight = new ConcurrentHashMap<>();

  /**
   * @param version the bare version sent as {@code X-Genkit-Version}
   * @param flushTelemetry sends the spans ended so far to the telemetry server, if there is one
   */
  RunAction(Baton baton, String version, Runnable flushTelemetry) {
    this.baton = baton;
    this.version = version;
    this.flushTelemetry = flushTelemetry;
  }

  void run(HttpExchange exchange) throws IOException {
    ObjectNode body;
    try {
      body = Http.jsonBody(exchange);
    } catch (BatonException e) {
      Http.json(exchange, e.status().httpStatus(), Http.status(e, null));
      return;
    }
    JsonNode keyNode = body.path("key");
    if (!keyNode.isString()) {
      BatonException missing = BatonException.invalidArgument("the field \"key\" is required");
      Http.json(exchange, 400, Http.status(missing, null));
      return;
    }
    String key = keyNode.asString();
    Optional<Action<?, ?, ?>> found = baton.registry().lookup(key);
    if (found.isEmpty()) {
      Http.text(exchange, 404, "action " + key + " not found");
      return;
    }
    boolean stream = "true".equals(Http.query(exchange).get("stream"));
    new Run(exchange, found.get(), body, stream).execute();
  }

  /** Cancels the run with this trace ID; false when none is in flight. */
  boolean cancel(String traceId) {
    Cancellation cancellation = inFlight.remove(traceId);
    if (cancellation == null) {
      return false;
    }
    cancellation.cancel(new BatonException(Status.CANCELLED, "Action was cancelled"));
    return true;
  }

  /** One run: its response, whose headers go out when the root span starts. */
  private final class Run {
    private final HttpExchange exchange;
    private final Action<?, ?, ?> action;
    private final ObjectNode body;
    private final boolean stream;
    private final Cancellation cancellation = Cancellation.create();
    private volatile @Nullable String traceId;
    private boolean headersSent;

    Run(HttpExchange exchange, Action<?, ?, ?> action, ObjectNode body, boolean stream) {
      this.exchange = exchange;
      this.action = action;
      this.body = body;
      this.stream = stream;
    }

    void execute() throws IOException {
      JsonNode result;
      try {
        ActionContext context = context();
        JsonNode input = body.has("input") ? body.get("input") : Json.nodes().nullNode();
        JsonNode init = action.descriptor().isBidi() ? body.get("init") : null;
        StreamCallback<JsonNode> chunks = stream ? this::writeChunk : StreamCallback.discard();
        result = action.runJson(context, input, init, chunks);
      } catch (RuntimeException e) {
        fail(BatonException.from(e));
        return;
      } finally {
        if (traceId != null) {
          inFlight.remove(traceId);
        }
      }
      flushTelemetry.run();
      ObjectNode answer = Json.object();
      answer.set("result", result);
      if (traceId != null) {
        answer.putObject("telemetry").put("traceId", traceId);
      }
      sendHeaders(null);
      finish(answer);
    }

    private ActionContext context() {
      ActionContext context = baton.context().withCancellation(cancellation);
      Map<String, String> attributes = new LinkedHashMap<>();
      JsonNode labels = body.path("telemetryLabels");
      if (labels.isObject()) {
        labels.properties().forEach(e -> attributes.put(e.getKey(), text(e.getValue())));
      }
      ObjectNode traced = Json.object();
      if (body.path("context") instanceof ObjectNode actionContext && !actionContext.isEmpty()) {
        boolean nested = actionContext.path("auth").isObject();
        ObjectNode auth = nested ? (ObjectNode) actionContext.get("auth") : actionContext;
        context = context.withAuth(authMap(auth));
        if (nested) {
          traced = actionContext;
        } else {
          // Every entry became the auth context, so every entry is redacted.
          for (String name : actionContext.propertyNames()) {
            traced.put(name, TracedContext.REDACTED);
          }
        }
      }
      attributes.put(TracedContext.ATTRIBUTE, TracedContext.of(traced));
      return context.with(
          RootSpanHooks.KEY,
          new RootSpanHooks(
              attributes, (trace, span) -> sendHeaders(valid(trace) ? trace + "/" + span : null)));
    }

    /** Sends the headers once; {@code ids} is {@code traceId/spanId}, or null when unknown. */
    private synchronized void sendHeaders(@Nullable String ids) {
      if (headersSent) {
        return;
      }
      headersSent = true;
      if (ids == null && traceId == null) {
        // No SDK, or an action without a span: the run is still cancellable by an ID of its own.
        ids = randomHex(16) + "/" + randomHex(8);
      }
      if (ids != null) {
        traceId = ids.substring(0, ids.indexOf('/'));
        inFlight.put(traceId, cancellation);
        exchange.getResponseHeaders().set("X-Genkit-Trace-Id", traceId);
        exchange.getResponseHeaders().set("X-Genkit-Span-Id", ids.substring(ids.indexOf('/') + 1));
      }
      exchange.getResponseHeaders().set("X-Genkit-Version", version);
      exchange.getResponseHeaders().set("Content-Type", stream ? "text/plain" : "application/json");
      try {
        exchange.sendResponseHeaders(200, 0);
        // The JDK's server holds the headers back until the first body write unless flushed.
        exchange.getResponseBody().flush();
      } catch (IOException e) {
        cancellation.cancel();
        throw new UncheckedIOException(e);
      }
    }

    // Synchronized: an action may stream from threads of its own.
    private synchronized void writeChunk(JsonNode chunk) {
      sendHeaders(null);
      try {
        OutputStream out = exchange.getResponseBody();
        out.write(Json.writeBytes(chunk));
        out.write('\n');
        out.flush();
      } catch (IOException e) {
        // The client has gone: stop the work rather than compute for nobody.
        cancellation.cancel();
        throw new UncheckedIOException(e);
      }
    }

    private synchronized void fail(BatonException error) throws IOException {
      if (!error.isPublic()) {
        log.warn("action {} failed: {}", action.descriptor().key(), error.getMessage(), error);
      }
      ObjectNode status = Http.status(error, traceId);
      if (!headersSent) {
        headersSent = true;
        Http.json(exchange, error.status().httpStatus(), status);
        return;
      }
      ObjectNode answer = Json.object();
      answer.set("error", status);
      finish(answer);
    }

    /** Writes the last object, with no newline after it, and ends the response. */
    private synchronized void finish(ObjectNode last) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(Json.write(last).getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        log.debug("the client left before the end of {}", action.descriptor().key(), e);
      } finally {
        exchange.close();
      }
    }
  }

  /** The auth context; a null entry is left out, as absent and null read the same. */
  private static Map<String, Object> authMap(ObjectNode auth) {
    Map<String, Object> map = new LinkedHashMap<>();
    auth.properties()
        .forEach(
            e -> {
              if (!e.getValue().isNull()) {
                map.put(e.getKey(), Json.convert(e.getValue(), Object.class));
              }
            });
    return map;
  }

  private static String text(JsonNode value) {
    return value.isString() ? value.asString() : Json.write(value);
  }

  private static boolean valid(String hexId) {
    return !hexId.chars().allMatch(c -> c == '0');
  }

  private static String randomHex(int bytes) {
    byte[] id = new byte[bytes];
    RANDOM.nextBytes(id);
    return HexFormat.of().formatHex(id);
  }
}
