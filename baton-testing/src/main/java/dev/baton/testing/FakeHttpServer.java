package dev.baton.testing;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP server on a free loopback port that records every request and answers with replies
 * queued in advance, in order. A reply may hang until the server closes, to test cancellation and
 * timeouts; tests wait for a request to arrive with {@link #awaitRequest()}, never by sleeping.
 */
public final class FakeHttpServer implements AutoCloseable {
  /** A request as the server saw it. */
  public record Recorded(String method, String pathAndQuery, Headers headers, String body) {
    public String header(String name) {
      return headers.getFirst(name);
    }
  }

  /** A canned answer. */
  public record Reply(
      int status,
      String contentType,
      List<String> pieces,
      Map<String, String> headers,
      boolean hangAfter) {
    public static Reply json(int status, String body) {
      return new Reply(status, "application/json", List.of(body), Map.of(), false);
    }

    public static Reply json(String body) {
      return json(200, body);
    }

    /**
     * An SSE stream with CRLF line ends: each payload becomes one event, flushed on its own, with
     * one {@code data:} line per line of the payload.
     */
    public static Reply sse(String... payloads) {
      List<String> frames = new ArrayList<>();
      for (String payload : payloads) {
        StringBuilder frame = new StringBuilder();
        payload.lines().forEach(line -> frame.append("data: ").append(line).append("\r\n"));
        frames.add(frame.append("\r\n").toString());
      }
      return new Reply(200, "text/event-stream", frames, Map.of(), false);
    }

    /** A body written as it is, piece by piece. */
    public static Reply raw(int status, String contentType, String... pieces) {
      return new Reply(status, contentType, List.of(pieces), Map.of(), false);
    }

    /** Headers that never come: the request waits until the server closes. */
    public static Reply hang() {
      return new Reply(0, "", List.of(), Map.of(), true);
    }

    public Reply withHeader(String name, String value) {
      return new Reply(status, contentType, pieces, Map.of(name, value), hangAfter);
    }

    /** Sends this reply's pieces, then keeps the stream open until the server closes. */
    public Reply thenHang() {
      return new Reply(status, contentType, pieces, headers, true);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Semaphore arrived = new Semaphore(0);
  private final CountDownLatch closing = new CountDownLatch(1);

  public FakeHttpServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public FakeHttpServer reply(Reply... next) {
    replies.addAll(List.of(next));
    return this;
  }

  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  public Recorded request(int index) {
    return requests.get(index);
  }

  /** Waits until one more request has arrived, failing after ten seconds. */
  public void awaitRequest() throws InterruptedException {
    if (!arrived.tryAcquire(10, TimeUnit.SECONDS)) {
      throw new AssertionError("no request arrived");
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    Headers headers = new Headers();
    headers.putAll(exchange.getRequestHeaders());
    requests.add(
        new Recorded(
            exchange.getRequestMethod(), exchange.getRequestURI().toString(), headers, body));
    arrived.release();
    Reply reply = replies.poll();
    if (reply == null) {
      reply = Reply.json(500, "{\"error\":{\"message\":\"no reply queued\"}}");
    }
    try (exchange) {
      if (reply.status() == 0) {
        awaitClose();
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      exchange.sendResponseHeaders(reply.status(), 0);
      OutputStream out = exchange.getResponseBody();
      for (String piece : reply.pieces()) {
        out.write(piece.getBytes(StandardCharsets.UTF_8));
        out.flush();
      }
      if (reply.hangAfter()) {
        awaitClose();
      }
    } catch (IOException clientWentAway) {
      // The client aborted the exchange, which is what cancellation tests want.
    }
  }

  private void awaitClose() {
    try {
      closing.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
