package dev.baton.server;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.Graceful;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty server that runs a {@link BatonHandler} (or several handlers, such as a {@code
 * BatonHandler} beside an MCP handler) on an address of its own: HTTP/1.1, requests on virtual
 * threads, no server version header, error pages without stack traces, and a graceful stop that
 * gives each handler that drains its shutdown grace (plus a few seconds for the last frames).
 *
 * <pre>{@code
 * try (BatonServer server = BatonServer.start(handler, "127.0.0.1", 8080)) {
 *   System.out.println("serving at " + server.uri());
 *   server.join();
 * }
 * }</pre>
 *
 * <p>To serve Baton beside other handlers, or with TLS or HTTP/2, mount the {@link BatonHandler} in
 * a {@code Server} of your own instead, with {@code
 * HttpConfiguration.setHeaderCacheCaseSensitive(true)} on its HTTP/1 connectors when the handler
 * has context providers (see {@link BatonHandler}). Thread-safe.
 */
public final class BatonServer implements AutoCloseable {
  private static final Duration LAST_FRAMES = Duration.ofSeconds(10);

  private final Server server;
  private final ServerConnector connector;
  private final List<Handler> handlers;

  private BatonServer(Server server, ServerConnector connector, List<Handler> handlers) {
    this.server = server;
    this.connector = connector;
    this.handlers = handlers;
  }

  /**
   * Starts a server for {@code handler} on {@code host} and {@code port} (0 for any free port).
   *
   * @throws IllegalStateException when the server cannot start (the port is taken, say)
   */
  public static BatonServer start(BatonHandler handler, String host, int port) {
    return start(host, port, handler);
  }

  /**
   * Starts a server for several handlers on {@code host} and {@code port} (0 for any free port): a
   * request goes to the first handler, in the order given, that handles it, so {@code start(host,
   * port, batonHandler, mcpHandler)} serves Baton's routes and an MCP endpoint side by side; a
   * request no handler takes is answered 404. On {@link #close()} every handler that drains ({@link
   * Graceful}, as {@link BatonHandler} is) gets its grace, all of them at once.
   *
   * @throws IllegalArgumentException when no handler is given
   * @throws IllegalStateException when the server cannot start (the port is taken, say)
   */
  public static BatonServer start(String host, int port, Handler... handlers) {
    if (handlers.length == 0) {
      throw new IllegalArgumentException("at least one handler is required");
    }
    List<Handler> served = List.of(handlers);
    QueuedThreadPool threads = new QueuedThreadPool();
    threads.setName("baton-server");
    threads.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("baton-http"));
    Server server = new Server(threads);
    HttpConfiguration config = new HttpConfiguration();
    config.setSendServerVersion(false);
    config.setSendXPoweredBy(false);
    // Jetty reuses a header field it parsed earlier on the same connection when a new one matches
    // it, by default without regard to case: behind a proxy that multiplexes users onto one
    // connection, "Bearer abc" would then be read as an earlier user's "Bearer ABC".
    config.setHeaderCacheCaseSensitive(true);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config));
    connector.setHost(host);
    connector.setPort(port);
    // A burst of clients (a thousand streams opened at once) would overflow the JDK's default
    // backlog of 50 and wait out SYN retransmits.
    connector.setAcceptQueueSize(1024);
    server.addConnector(connector);
    ErrorHandler errors = new ErrorHandler();
    errors.setShowStacks(false);
    errors.setShowMessageInTitle(false);
    server.setErrorHandler(errors);
    server.setHandler(served.size() == 1 ? served.getFirst() : new Handler.Sequence(served));
    // close() drains the handler itself, so Jetty's own graceful wait would only add to it.
    server.setStopTimeout(0);
    try {
      server.start();
    } catch (Exception e) {
      try {
        server.stop();
      } catch (Exception ignored) {
        // Reporting why it could not start matters more.
      }
      throw new IllegalStateException("could not start the server on " + host + ":" + port, e);
    }
    return new BatonServer(server, connector, served);
  }

  /** The port the server listens on. */
  public int port() {
    return connector.getLocalPort();
  }

  /** The server's base URI, such as {@code http://127.0.0.1:8080}. */
  public URI uri() {
    String host = connector.getHost() == null ? "127.0.0.1" : connector.getHost();
    return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port());
  }

  /** Blocks until the server stops. */
  public void join() throws InterruptedException {
    server.join();
  }

  /**
   * Stops gracefully: new requests are refused, and each handler that drains gets its grace period
   * (a {@link BatonHandler}: its requests and detached runs; then the requests left are cancelled
   * and the detached runs left to the Baton instance, whose {@code close()} aborts them).
   */
  @Override
  public void close() {
    // The handlers drain first (a BatonHandler answers new requests with 503 meanwhile); then
    // nothing of theirs is left in flight, and the connectors close at once rather than waiting
    // for idle keep-alive connections.
    Duration grace = Duration.ZERO;
    List<CompletableFuture<Void>> drains = new ArrayList<>();
    for (Handler handler : handlers) {
      if (handler instanceof Graceful graceful) {
        drains.add(graceful.shutdown());
        grace = max(grace, shutdownGrace(handler));
      }
    }
    try {
      CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new))
          .get(grace.plus(LAST_FRAMES).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Stop anyway: the handlers cancel what is left.
    }
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("the server did not stop cleanly", e);
    }
  }

  /** How long a handler's drain may take; a handler other than Baton's gets Baton's default. */
  private static Duration shutdownGrace(Handler handler) {
    return handler instanceof BatonHandler baton
        ? baton.shutdownGrace()
        : BatonHandler.DEFAULT_SHUTDOWN_GRACE;
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
