package dev.baton.server;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A Jetty server that runs one {@link BatonHandler} on an address of its own: HTTP/1.1, requests on
 * virtual threads, no server version header, error pages without stack traces, and a graceful stop
 * that gives the handler its shutdown grace (plus a few seconds for the last frames).
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
  private final BatonHandler handler;

  private BatonServer(Server server, ServerConnector connector, BatonHandler handler) {
    this.server = server;
    this.connector = connector;
    this.handler = handler;
  }

  /**
   * Starts a server for {@code handler} on {@code host} and {@code port} (0 for any free port).
   *
   * @throws IllegalStateException when the server cannot start (the port is taken, say)
   */
  public static BatonServer start(BatonHandler handler, String host, int port) {
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
    server.setHandler(handler);
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
    return new BatonServer(server, connector, handler);
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
   * Stops gracefully: new requests are refused, requests and detached runs get the handler's grace
   * period, then the requests left are cancelled and the detached runs left to the Baton instance,
   * whose {@code close()} aborts them (see {@link BatonHandler}).
   */
  @Override
  public void close() {
    try {
      // The handler drains first (answering new requests with 503 meanwhile); then nothing of
      // ours is left in flight, and the connectors close at once rather than waiting for idle
      // keep-alive connections.
      handler
          .shutdown()
          .get(handler.shutdownGrace().plus(LAST_FRAMES).toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Stop anyway: the handler cancels what is left.
    }
    try {
      server.stop();
    } catch (Exception e) {
      throw new IllegalStateException("the server did not stop cleanly", e);
    }
  }
}
