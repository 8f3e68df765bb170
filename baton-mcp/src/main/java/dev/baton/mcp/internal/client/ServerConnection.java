package dev.baton.mcp.internal.client;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.mcp.internal.McpSdk;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The connection of one {@code McpClient} to its server: starts it on first use, restarts it when
 * it died, stops it (with its whole process tree) on {@link #close}. Every request waits at most
 * the client's timeout and no longer than the caller's cancellation; failures come out as {@code
 * BatonException}s through {@link McpErrors}.
 *
 * <p>Thread-safe: parallel requests share one running server; one thread starts it.
 */
public final class ServerConnection implements AutoCloseable {
  private static final McpSchema.Implementation CLIENT_INFO =
      McpSchema.Implementation.builder(McpSdk.NAME, McpSdk.version()).title("Baton").build();
  // The SDK's own timeout is a backstop: this class times requests out, and tells the server.
  private static final Duration SDK_MARGIN = Duration.ofSeconds(5);
  // The least time a server gets to start and answer the handshake: npx may download it first.
  private static final Duration MIN_START = Duration.ofSeconds(30);

  private final String name;
  private final Endpoint endpoint;
  private final Duration timeout;
  private final Consumer<List<McpSchema.Tool>> toolsChanged;
  // Count the server's notifications that its prompts or resources changed: what lists them keeps
  // a list while the count stays the same.
  private final AtomicLong promptListVersion = new AtomicLong();
  private final AtomicLong resourceListVersion = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private volatile @Nullable Session session;
  private volatile boolean closed;

  /**
   * A connection that has not started its server yet.
   *
   * @param toolsChanged receives the server's new tool list after it notified a change
   */
  public ServerConnection(
      String name,
      Endpoint endpoint,
      Duration timeout,
      Consumer<List<McpSchema.Tool>> toolsChanged) {
    this.name = name;
    this.endpoint = endpoint;
    this.timeout = timeout;
    this.toolsChanged = toolsChanged;
  }

  /** The client's name, which its tools are prefixed with. */
  public String name() {
    return name;
  }

  /**
   * What the running server (started first, or restarted when it died) announced it offers.
   *
   * @throws BatonException {@code UNAVAILABLE} when the server does not start, {@code
   *     FAILED_PRECONDITION} once closed
   */
  public McpSchema.ServerCapabilities capabilities() {
    return session().client().getServerCapabilities();
  }

  /**
   * Runs a request on the running server within the timeout and the caller's cancellation; a caller
   * that stops waiting cancels it here, but the server is not told (only tool calls carry what
   * {@code notifications/cancelled} needs).
   *
   * @throws BatonException the request's failure, mapped by {@link McpErrors}
   */
  public <T> T request(Cancellation cancellation, Function<McpAsyncClient, Mono<T>> request) {
    return session().await(cancellation, request, reason -> {});
  }

  /** How many times the server said its prompts changed ({@code prompts/list_changed}). */
  public long promptListVersion() {
    return promptListVersion.get();
  }

  /** How many times the server said its resources changed ({@code resources/list_changed}). */
  public long resourceListVersion() {
    return resourceListVersion.get();
  }

  /**
   * Calls a tool; a caller that stops waiting (cancelled, or timed out) sends the server {@code
   * notifications/cancelled} for the call.
   */
  public McpSchema.CallToolResult callTool(
      ActionContext context, String tool, Map<String, Object> arguments) {
    Session running = session();
    String token = "baton-" + UUID.randomUUID();
    var request = new McpSchema.CallToolRequest(tool, arguments, Map.of("progressToken", token));
    CancellingTransport transport = running.transport();
    try {
      return running.await(
          context.cancellation(),
          client -> client.callTool(request),
          reason -> transport.cancel(token, reason));
    } finally {
      transport.forget(token);
    }
  }

  /** The server's tools, every page of them; none when the server offers no tools. */
  public List<McpSchema.Tool> listTools(Cancellation cancellation) {
    Session running = session();
    // A server of prompts or resources alone has no tools capability, and the SDK refuses to ask.
    if (running.client().getServerCapabilities().tools() == null) {
      return List.of();
    }
    // The SDK's listTools() follows every page.
    return running.await(
        cancellation, client -> client.listTools().map(result -> result.tools()), reason -> {});
  }

  /**
   * Stops the server, if it runs; later requests fail with {@code FAILED_PRECONDITION}. Does not
   * wait for a start in progress: the starting thread stops what it started.
   */
  @Override
  public void close() {
    closed = true;
    Session stopping = session;
    if (stopping != null) {
      stopping.stop();
    }
  }

  private Session session() {
    lock.lock();
    try {
      if (closed) {
        throw closedError();
      }
      Session current = session;
      if (current != null && current.isAlive()) {
        return current;
      }
      if (current != null) {
        current.stop();
        session = null;
      }
      Session started = start();
      // Published before closed is read and before the handshake, as close() sets closed before it
      // reads the session: a close() during the start is seen here, or stops the session, which
      // ends its handshake at once (stopping twice is harmless).
      session = started;
      if (closed) {
        started.stop();
        throw closedError();
      }
      try {
        started.initialize(startLimit());
      } catch (BatonException e) {
        throw closed ? closedError() : e;
      }
      return started;
    } finally {
      lock.unlock();
    }
  }

  private Session start() {
    StdioServerTransport stdio =
        endpoint instanceof Endpoint.Stdio s
            ? new StdioServerTransport(
                ServerParameters.builder(s.command()).args(s.args()).env(s.environment()).build(),
                McpSdk.MAPPER,
                s.inheritEnvironment())
            : null;
    McpClientTransport base = stdio != null ? stdio : http((Endpoint.Http) endpoint);
    CancellingTransport transport = new CancellingTransport(base, timeout);
    McpAsyncClient client =
        McpClient.async(transport)
            .clientInfo(CLIENT_INFO)
            .requestTimeout(timeout.plus(SDK_MARGIN))
            .initializationTimeout(startLimit().plus(SDK_MARGIN))
            .toolsChangeConsumer(tools -> Mono.fromRunnable(() -> toolsChanged.accept(tools)))
            .promptsChangeConsumer(prompts -> Mono.fromRunnable(promptListVersion::incrementAndGet))
            .resourcesChangeConsumer(
                resources -> Mono.fromRunnable(resourceListVersion::incrementAndGet))
            .build();
    return new Session(name, timeout, client, transport, stdio);
  }

  private Duration startLimit() {
    return timeout.compareTo(MIN_START) > 0 ? timeout : MIN_START;
  }

  /**
   * Throws once the connection is closed.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} when closed
   */
  public void checkOpen() {
    if (closed) {
      throw closedError();
    }
  }

  private BatonException closedError() {
    return BatonException.failedPrecondition("MCP client \"%s\" is closed", name);
  }

  private static McpClientTransport http(Endpoint.Http http) {
    URI uri = http.uri();
    String base = uri.getScheme() + "://" + uri.getRawAuthority();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String endpoint = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
    Map<String, String> headers = http.headers();
    return HttpClientStreamableHttpTransport.builder(base)
        .endpoint(endpoint)
        .jsonMapper(McpSdk.MAPPER)
        .addHttpRequestCustomizer(
            (request, method, target, body, context) -> headers.forEach(request::setHeader))
        .build();
  }
}
