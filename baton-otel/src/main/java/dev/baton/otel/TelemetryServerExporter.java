package dev.baton.otel;

import dev.baton.core.Json;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends spans to Genkit's telemetry server: one {@code POST <server>/api/traces} per trace in a
 * batch, the body a {@link TraceData}.
 *
 * <p>Sends run one at a time, in the order spans were handed over, on a thread of the exporter's
 * own: a span's "started" post never overtakes its "ended" one, and the application's threads never
 * wait for the network. {@link #flush()} completes once everything handed over before it was sent.
 * A server that is down or answers an error loses those spans, logged at debug: the dev tools are
 * optional, and the application must not suffer when they are gone. For the same reason at most
 * {@link #MAX_QUEUED_SPANS} spans wait to be sent: a server slower than the application (each POST
 * may take up to its timeout, {@link #TIMEOUT} by default, and real-time mode posts every span
 * twice) loses the spans beyond, counted and logged, rather than the application its memory.
 * Without a server ({@link #target} not yet told one) spans are dropped.
 *
 * <p>Thread-safe.
 */
final class TelemetryServerExporter implements SpanExporter {
  private static final Logger log = LoggerFactory.getLogger(TelemetryServerExporter.class);

  /** How long a POST may take, connecting included, unless the builder says otherwise. */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  /** Spans handed over and not yet sent, at most (as many as a BatchSpanProcessor queues). */
  static final int MAX_QUEUED_SPANS = 2048;

  private final int capacity;
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();
  // Set while spans are being dropped, so the log says so once until the queue has drained.
  private final AtomicBoolean dropping = new AtomicBoolean();

  private final AtomicReference<@Nullable URI> server;
  private final Duration timeout;
  private final HttpClient http;
  private final ExecutorService sender =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().daemon().name("baton-genkit-telemetry").factory());

  TelemetryServerExporter(@Nullable URI server, Duration timeout) {
    this(server, timeout, MAX_QUEUED_SPANS);
  }

  /** With a smaller queue, for tests. */
  TelemetryServerExporter(@Nullable URI server, Duration timeout, int capacity) {
    this.server = new AtomicReference<>(server);
    this.timeout = timeout;
    this.capacity = capacity;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .version(HttpClient.Version.HTTP_1_1)
            .build();
  }

  /** How many spans were dropped because too many were waiting to be sent. */
  long droppedSpans() {
    return dropped.get();
  }

  /** Sends to this server from now on. */
  void target(URI url) {
    server.set(url);
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    Map<String, List<SpanData>> byTrace = new LinkedHashMap<>();
    for (SpanData span : spans) {
      byTrace.computeIfAbsent(span.getTraceId(), id -> new ArrayList<>()).add(span);
    }
    int size = spans.size();
    if (queued.addAndGet(size) > capacity) {
      queued.addAndGet(-size);
      long total = dropped.addAndGet(size);
      if (dropping.compareAndSet(false, true)) {
        log.warn(
            "the Genkit telemetry server at {} is not keeping up: spans are dropped until it does"
                + " ({} so far)",
            server.get(),
            total);
      }
      return CompletableResultCode.ofFailure();
    }
    CompletableResultCode result = new CompletableResultCode();
    try {
      sender.execute(
          () -> {
            boolean ok = true;
            try {
              for (var trace : byTrace.entrySet()) {
                ok &= send(trace.getKey(), trace.getValue());
              }
            } finally {
              sent(size);
            }
            if (ok) {
              result.succeed();
            } else {
              result.fail();
            }
          });
    } catch (RejectedExecutionException e) {
      sent(size);
      result.fail();
    }
    return result;
  }

  /** Takes spans that were sent, or given up on, off the queue. */
  private void sent(int size) {
    if (queued.addAndGet(-size) == 0) {
      dropping.set(false);
    }
  }

  private boolean send(String traceId, List<SpanData> spans) {
    URI target = server.get();
    if (target == null) {
      return true;
    }
    try {
      HttpRequest request =
          HttpRequest.newBuilder(resolve(target))
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .header("Accept", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(Json.write(TraceData.of(traceId, spans))))
              .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        log.debug(
            "the telemetry server at {} refused trace {}: {} {}",
            target,
            traceId,
            response.statusCode(),
            response.body());
        return false;
      }
      return true;
    } catch (IOException | IllegalArgumentException e) {
      log.debug("trace {} not sent to the telemetry server at {}", traceId, target, e);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static URI resolve(URI server) {
    String base = server.toString();
    return URI.create((base.endsWith("/") ? base : base + "/") + "api/traces");
  }

  @Override
  public CompletableResultCode flush() {
    CompletableResultCode done = new CompletableResultCode();
    try {
      sender.execute(done::succeed);
    } catch (RejectedExecutionException e) {
      done.succeed();
    }
    return done;
  }

  @Override
  public CompletableResultCode shutdown() {
    CompletableResultCode done = flush();
    sender.shutdown();
    return done;
  }
}
