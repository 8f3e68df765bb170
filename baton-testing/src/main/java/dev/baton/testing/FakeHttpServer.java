package dev.baton.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A local HTTP/1.1 server on a free loopback port that records every request and answers with
 * replies queued in advance, in order.
 *
 * <p>Each request gets its own connection: the server answers with {@code Connection: close} and a
 * chunked body, then closes. A reply may instead {@linkplain Reply#thenCut() close the connection
 * right after its pieces} without ending the body, as a server that fails mid-stream does, or
 * {@linkplain Reply#hang() hang} before its headers or {@linkplain Reply#thenHang() after its
 * pieces}; the server then waits for the client to close the connection and counts down that
 * reply's {@linkplain Reply#awaitClientGone() client-gone} latch, so a cancellation or timeout test
 * can check that the client really dropped the exchange rather than leaving it running. Tests wait
 * with {@link #awaitRequest()} and {@link Reply#awaitClientGone()}, never by sleeping.
 *
 * <p>It reads request bodies by {@code Content-Length} only, which is what the JDK client sends for
 * a byte-array body. Thread-safe.
 */
public final class FakeHttpServer implements AutoCloseable {
  /**
   * A request as the server saw it; only the server builds one, so it has no public constructor.
   */
  public static final class Recorded {
    private final String method;
    private final String pathAndQuery;
    private final HttpHeaders headers;
    private final String body;

    private Recorded(String method, String pathAndQuery, HttpHeaders headers, String body) {
      this.method = method;
      this.pathAndQuery = pathAndQuery;
      this.headers = headers;
      this.body = body;
    }

    public String method() {
      return method;
    }

    public String pathAndQuery() {
      return pathAndQuery;
    }

    public HttpHeaders headers() {
      return headers;
    }

    public String body() {
      return body;
    }

    public @Nullable String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    @Override
    public String toString() {
      return method + " " + pathAndQuery;
    }
  }

  /**
   * A canned answer. Each reply has its own client-gone latch, so use one per request (the factory
   * methods, {@link #withHeader} and {@link #thenHang} each return a new one).
   */
  public static final class Reply {
    /** What the server does after the pieces. */
    private enum End {
      FINISH,
      CUT,
      HANG
    }

    private final int status;
    private final String contentType;
    private final List<String> pieces;
    private final Map<String, String> headers;
    private final End end;
    private final CountDownLatch clientGone = new CountDownLatch(1);

    private Reply(
        int status, String contentType, List<String> pieces, Map<String, String> headers, End end) {
      this.status = status;
      this.contentType = contentType;
      this.pieces = List.copyOf(pieces);
      this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
      this.end = end;
    }

    public static Reply json(int status, String body) {
      return new Reply(status, "application/json", List.of(body), Map.of(), End.FINISH);
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
      return new Reply(200, "text/event-stream", frames, Map.of(), End.FINISH);
    }

    /** A body written as it is, piece by piece, each piece flushed on its own. */
    public static Reply raw(int status, String contentType, String... pieces) {
      return new Reply(status, contentType, List.of(pieces), Map.of(), End.FINISH);
    }

    /** Headers that never come: the request waits until the client leaves or the server closes. */
    public static Reply hang() {
      return new Reply(0, "", List.of(), Map.of(), End.HANG);
    }

    /** This reply with one more header; an earlier header of the same name is replaced. */
    public Reply withHeader(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, contentType, pieces, more, end);
    }

    /** Sends this reply's pieces, then keeps the stream open until the client leaves. */
    public Reply thenHang() {
      return new Reply(status, contentType, pieces, headers, End.HANG);
    }

    /**
     * Sends this reply's pieces, then closes the connection at once without the chunk that ends the
     * body: the client sees every piece, then a connection that failed mid-body.
     */
    public Reply thenCut() {
      return new Reply(status, contentType, pieces, headers, End.CUT);
    }

    /**
     * Waits until the client has closed the connection of this hanging reply, failing after ten
     * seconds. The server shutting down does not count as the client leaving.
     */
    public void awaitClientGone() throws InterruptedException {
      if (!clientGone.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("the client never closed the connection");
      }
    }
  }

  private static final byte[] CRLF = {'\r', '\n'};

  /** Held here so that it is never collected; see {@link #sharedClient()}. */
  private static final HttpClient SHARED_CLIENT = HttpClient.newHttpClient();

  private final ServerSocket listener;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
  private final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Semaphore arrived = new Semaphore(0);
  private volatile boolean closed;

  public FakeHttpServer() throws IOException {
    listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    executor.execute(this::accept);
  }

  /**
   * A new server, or an {@link UncheckedIOException} when no port can be opened. Made for a test's
   * field, which JUnit closes after each test:
   *
   * <pre>{@code
   * @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
   * }</pre>
   */
  public static FakeHttpServer start() {
    try {
      return new FakeHttpServer();
    } catch (IOException e) {
      throw new UncheckedIOException("could not start a fake HTTP server", e);
    }
  }

  /**
   * One HTTP client for the plugins under test to use, which lives as long as the JVM. A client
   * that the garbage collector reclaims closes its connections, so a plugin built with a client of
   * its own, in a Baton a test no longer holds, could drop a hanging reply's connection without
   * having been asked to, and {@link Reply#awaitClientGone()} would pass for the wrong reason. Pass
   * this one to the plugin's builder instead.
   */
  public static HttpClient sharedClient() {
    return SHARED_CLIENT;
  }

  public URI baseUrl() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
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

  private void accept() {
    while (!closed) {
      try {
        Socket socket = listener.accept();
        connections.add(socket);
        executor.execute(() -> serve(socket));
      } catch (IOException e) {
        // The listener was closed: the server is shutting down.
        return;
      }
    }
  }

  private void serve(Socket socket) {
    Reply reply = null;
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      String[] requestLine = readLine(in).split(" ", -1);
      if (requestLine.length < 2) {
        return; // Connected and left without a request.
      }
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
        int colon = line.indexOf(':');
        headers
            .computeIfAbsent(line.substring(0, colon).strip(), name -> new ArrayList<>())
            .add(line.substring(colon + 1).strip());
      }
      int length = Integer.parseInt(headers.getOrDefault("Content-Length", List.of("0")).get(0));
      String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
      requests.add(
          new Recorded(
              requestLine[0], requestLine[1], HttpHeaders.of(headers, (n, v) -> true), body));
      arrived.release();
      reply = replies.poll();
      if (reply == null) {
        reply = Reply.json(500, "{\"error\":{\"message\":\"no reply queued\"}}");
      }
      OutputStream out = socket.getOutputStream();
      if (reply.status != 0) {
        writeHead(out, reply);
        for (String piece : reply.pieces) {
          byte[] bytes = piece.getBytes(StandardCharsets.UTF_8);
          out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.UTF_8));
          out.write(bytes);
          out.write(CRLF);
          out.flush();
        }
        if (reply.end == Reply.End.CUT) {
          return;
        }
        if (reply.end == Reply.End.FINISH) {
          out.write("0\r\n\r\n".getBytes(StandardCharsets.UTF_8));
          out.flush();
          return;
        }
      }
      // The client sends nothing more on this connection, so a read returns only when it closes.
      while (in.read() >= 0) {
        // Discard anything unexpected and keep waiting.
      }
      reply.clientGone.countDown();
    } catch (IOException e) {
      // A reset by the client is the client leaving too; a socket closed by close() is not.
      if (reply != null && reply.end == Reply.End.HANG && !closed) {
        reply.clientGone.countDown();
      }
    } finally {
      connections.remove(socket);
    }
  }

  private static void writeHead(OutputStream out, Reply reply) throws IOException {
    StringBuilder head = new StringBuilder("HTTP/1.1 ").append(reply.status).append(" Fake\r\n");
    head.append("Content-Type: ").append(reply.contentType).append("\r\n");
    reply.headers.forEach(
        (name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
    head.append("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
    out.write(head.toString().getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** One header line without its line end; empty at the blank line or the end of input. */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // Nothing is left to release.
    }
    for (Socket socket : connections) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // The connection is gone either way.
      }
    }
    executor.shutdownNow();
  }
}
