package dev.baton.mcp.internal.client;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.McpSyncClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One run of a server: the SDK client and its transport, and for a stdio server the process Baton
 * started. A session that ended (its process exited) is replaced by a new one on next use.
 * Thread-safe: parallel requests share it.
 */
final class Session {
  // How long a stopped process tree gets to exit on SIGTERM before it is killed.
  private static final Duration STOP_GRACE = Duration.ofSeconds(2);
  // How long a server that exited at start gets to have its last stderr lines read.
  private static final Duration STDERR_GRACE = Duration.ofSeconds(1);

  private final String name;
  private final Duration timeout;
  private final McpSyncClient client;
  private final CancellingTransport transport;
  private final @Nullable StdioServerTransport stdio;
  // Why the server is gone (UNAVAILABLE), once it is; then every request in flight fails with it.
  private final AtomicReference<@Nullable BatonException> ended = new AtomicReference<>();
  // The requests waited for, by a number of their own (futures have no equality to key a set by).
  private final Map<Long, CompletableFuture<?>> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong requests = new AtomicLong();

  Session(
      String name,
      Duration timeout,
      McpSyncClient client,
      CancellingTransport transport,
      @Nullable StdioServerTransport stdio) {
    this.name = name;
    this.timeout = timeout;
    this.client = client;
    this.transport = transport;
    this.stdio = stdio;
    if (stdio != null) {
      CompletableFuture<?> unused =
          stdio
              .process()
              .thenCompose(Process::onExit)
              .whenComplete(
                  (process, error) ->
                      end(
                          process != null
                              ? exited(process.exitValue())
                              : McpErrors.unavailable(name, "its command could not be run", null)));
    }
  }

  McpSyncClient client() {
    return client;
  }

  CancellingTransport transport() {
    return transport;
  }

  boolean isAlive() {
    return ended.get() == null;
  }

  /**
   * Runs the MCP handshake, waiting at most {@code limit} (a server may take longer to start than
   * to answer); on failure the session is stopped and the error says why.
   */
  void initialize(Duration limit) {
    try {
      await(Cancellation.never(), limit, client::initialize, reason -> {});
    } catch (BatonException e) {
      stop();
      if (e.status() == Status.UNAVAILABLE && stdio != null) {
        throw withStderr(e);
      }
      throw e;
    }
  }

  /**
   * Waits for a request, at most the timeout, and no longer than the server lives or the caller
   * waits: {@code cancel} is told why when the caller stops waiting first.
   */
  <T> T await(Cancellation cancellation, Supplier<T> request, Consumer<String> cancel) {
    return await(cancellation, timeout, request, cancel);
  }

  private <T> T await(
      Cancellation cancellation, Duration limit, Supplier<T> request, Consumer<String> cancel) {
    CompletableFuture<T> outcome = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("mcp-" + name)
        .start(
            () -> {
              try {
                outcome.complete(request.get());
              } catch (RuntimeException e) {
                outcome.completeExceptionally(e);
              }
            });
    long id = requests.incrementAndGet();
    inFlight.put(id, outcome);
    BatonException gone = ended.get();
    if (gone != null) {
      outcome.completeExceptionally(gone);
    }
    try (var registration =
        cancellation.onCancel(() -> outcome.completeExceptionally(cancelled(cancellation)))) {
      return outcome.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      cancel.accept("timed out");
      throw new BatonException(
          Status.DEADLINE_EXCEEDED,
          "MCP server \"%s\" did not answer within %s".formatted(name, limit),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancel.accept("cancelled");
      throw new BatonException(Status.CANCELLED, "the operation was cancelled", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BatonException baton && baton.status() == Status.CANCELLED) {
        cancel.accept("cancelled");
        throw baton;
      }
      throw failure(e.getCause() == null ? e : e.getCause());
    } finally {
      inFlight.remove(id);
    }
  }

  /** Marks the server gone for the reason given first, and fails the requests in flight. */
  private void end(BatonException why) {
    if (ended.compareAndSet(null, why)) {
      inFlight.values().forEach(request -> request.completeExceptionally(why));
    }
  }

  /**
   * Stops the server: a stdio server's whole process tree (the command may have started the real
   * server as its child, as {@code npx} does) gets SIGTERM, then SIGKILL after a grace period.
   */
  void stop() {
    end(McpErrors.unavailable(name, "the connection was closed", null));
    List<ProcessHandle> tree = new ArrayList<>();
    Process process =
        stdio != null && stdio.process().isDone() && !stdio.process().isCompletedExceptionally()
            ? stdio.process().join()
            : null;
    if (process != null) {
      // Collected before anything is stopped: an orphan is no longer a descendant.
      tree.add(process.toHandle());
      process.descendants().forEach(tree::add);
    }
    tree.forEach(ProcessHandle::destroy);
    client.close();
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        handle.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        handle.destroyForcibly();
      }
    }
  }

  private BatonException failure(Throwable error) {
    // A request that failed because the server died says so, not how the transport noticed; each
    // caller gets an exception of its own.
    BatonException gone = ended.get();
    if (gone != null) {
      return new BatonException(
          gone.status(), String.valueOf(gone.getMessage()), error.equals(gone) ? null : error);
    }
    return error instanceof BatonException baton ? baton : McpErrors.toBaton(name, error);
  }

  private BatonException exited(int code) {
    return McpErrors.unavailable(name, "its process exited with code " + code, null);
  }

  private BatonException withStderr(BatonException error) {
    List<String> tail = stdio == null ? List.of() : stdio.stderrTail(STDERR_GRACE);
    if (tail.isEmpty()) {
      return error;
    }
    return new BatonException(
        Status.UNAVAILABLE,
        String.valueOf(error.getMessage()) + "; its stderr ended with:\n" + String.join("\n", tail),
        error.getCause());
  }

  private static BatonException cancelled(Cancellation cancellation) {
    BatonException reason = cancellation.reason();
    return reason != null
        ? reason
        : new BatonException(Status.CANCELLED, "the operation was cancelled");
  }
}
