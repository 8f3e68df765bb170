package dev.baton.mcp.internal.client;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's stdio transport, with what Baton needs to own the child process: the process itself (to
 * stop its whole tree, and to notice it died) and the tail of its stderr (to say why it did).
 *
 * <p>The SDK keeps the process in a private field and only signals the direct child on close, which
 * leaves {@code npx}'s {@code node} behind; the field is read once, after the SDK started the
 * process. The SDK offers no other way to it (2.2.0); reading it works because the SDK is an
 * automatic module, all of whose packages are open. Should a later SDK rename the field, Baton logs
 * it once and falls back on the SDK's own close.
 *
 * <p>The process gets the SDK's few safe variables (such as {@code PATH} and {@code HOME}) and the
 * client's, not the JVM's whole environment, unless the client inherits it. Thread-safe.
 */
final class StdioServerTransport extends StdioClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(StdioServerTransport.class);
  private static final int STDERR_LINES = 20;

  private final boolean inheritEnvironment;
  private final CompletableFuture<Process> started = new CompletableFuture<>();
  private final Deque<String> stderr = new ArrayDeque<>();

  StdioServerTransport(
      ServerParameters parameters, McpJsonMapper mapper, boolean inheritEnvironment) {
    super(parameters, mapper);
    this.inheritEnvironment = inheritEnvironment;
    setStdErrorHandler(this::addStderr);
  }

  @Override
  protected ProcessBuilder getProcessBuilder() {
    // The SDK adds its safe defaults and the client's variables to this builder's environment.
    ProcessBuilder builder = new ProcessBuilder();
    if (!inheritEnvironment) {
      builder.environment().clear();
    }
    return builder;
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return super.connect(handler)
        .doOnSuccess(
            unused -> {
              VarHandle field = ProcessField.HANDLE;
              if (field != null) {
                started.complete((Process) field.getVolatile(this));
              }
            })
        .doOnError(started::completeExceptionally);
  }

  /**
   * Completes with the process once the SDK started it, or with the error that kept it from it;
   * never, should this SDK hide its process.
   */
  CompletableFuture<Process> process() {
    return started;
  }

  /**
   * The last lines the server wrote to stderr, oldest first. The SDK reads stderr on its own
   * thread, which may not have read the last lines when the process has exited; this waits up to
   * {@code grace} for a first line.
   */
  synchronized List<String> stderrTail(Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    try {
      for (long left = grace.toNanos(); stderr.isEmpty() && left > 0; ) {
        TimeUnit.NANOSECONDS.timedWait(this, left);
        left = deadline - System.nanoTime();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return List.copyOf(stderr);
  }

  private synchronized void addStderr(String line) {
    if (stderr.size() == STDERR_LINES) {
      stderr.removeFirst();
    }
    stderr.addLast(line);
    notifyAll();
  }

  /** The SDK's private field, looked up on first use, once; null when it is not there. */
  private static final class ProcessField {
    static final @Nullable VarHandle HANDLE = find();

    private static @Nullable VarHandle find() {
      try {
        return MethodHandles.privateLookupIn(StdioClientTransport.class, MethodHandles.lookup())
            .findVarHandle(StdioClientTransport.class, "process", Process.class);
      } catch (ReflectiveOperationException | RuntimeException e) {
        LOG.warn(
            "This MCP SDK's stdio transport hides its process: a stopped MCP server's child"
                + " processes may outlive it",
            e);
        return null;
      }
    }
  }
}
