package dev.baton.otel;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.testing.trace.TestSpanData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.data.StatusData;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The queue in front of a slow Genkit telemetry server. */
class TelemetryServerExporterTest {
  private final CountDownLatch firstArrived = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger received = new AtomicInteger();
  private final HttpServer slow;

  TelemetryServerExporterTest() throws Exception {
    slow = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    slow.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    slow.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          firstArrived.countDown();
          try {
            release.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          received.incrementAndGet();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    slow.start();
  }

  @AfterEach
  void stop() {
    release.countDown();
    slow.stop(0);
  }

  @Test
  void spansBeyondTheQueueAreDroppedAndCountedWhileTheServerLags() throws Exception {
    URI url = URI.create("http://127.0.0.1:" + slow.getAddress().getPort());
    TelemetryServerExporter exporter =
        new TelemetryServerExporter(url, TelemetryServerExporter.TIMEOUT, 3);

    // The first span is being sent and the server holds it: it still counts against the queue.
    CompletableResultCode first = exporter.export(List.of(span(1)));
    assertThat(firstArrived.await(30, TimeUnit.SECONDS)).isTrue();
    exporter.export(List.of(span(2)));
    exporter.export(List.of(span(3)));
    CompletableResultCode overflow = exporter.export(List.of(span(4), span(5)));

    assertThat(overflow.isDone()).isTrue();
    assertThat(overflow.isSuccess()).isFalse();
    assertThat(exporter.droppedSpans()).isEqualTo(2);
    assertThat(first.isDone()).isFalse();

    release.countDown();
    assertThat(exporter.flush().join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(received).hasValue(3);

    // Once the server has caught up, spans are taken again.
    CompletableResultCode later = exporter.export(List.of(span(6)));
    assertThat(later.join(30, TimeUnit.SECONDS).isSuccess()).isTrue();
    assertThat(received).hasValue(4);
    assertThat(exporter.droppedSpans()).isEqualTo(2);
    exporter.shutdown().join(30, TimeUnit.SECONDS);
  }

  private static SpanData span(int n) {
    String traceId = "%032x".formatted(n);
    String spanId = "%016x".formatted(n);
    return TestSpanData.builder()
        .setName("span-" + n)
        .setKind(SpanKind.INTERNAL)
        .setSpanContext(
            SpanContext.create(traceId, spanId, TraceFlags.getSampled(), TraceState.getDefault()))
        .setStartEpochNanos(1_000_000)
        .setEndEpochNanos(2_000_000)
        .setHasEnded(true)
        .setStatus(StatusData.unset())
        .build();
  }
}
