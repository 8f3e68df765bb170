package dev.baton.mcp.internal.client;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.McpAsyncClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * One run of a server: the SDK client and its transport, and for a stdio server the process Baton
 * started. A session that ended (its process exited) is replaced by a new one on next use.
 * Thread-safe: parallel requests share it.
 *
 * <p>Requests run on the SDK's asynchronous client: a caller that stops waiting cancels its
 * request's subscription, so no thread and no HTTP stream outlives the call.
 */
final class Session {
  private static final Logger LOG = LoggerFactory.getLogger(Session.class);
  // How long a stopped server gets, in all, to exit: first on its stdin closing, then on SIGTERM;
  // what is left then is killed.
  private static final Duration STOP_GRACE = Duration.ofSeconds(2);
  // How long a server that exited at start gets to have its last stderr lines read.
  private static final Duration STDERR_GRACE = Duration.ofSeconds(1);

  private final String name;
  private final Duration timeout;
  private final McpAsyncClient client;
  private final CancellingTransport transport;
  private final @Nullable StdioServerTransport stdio;
  // Why the server is gone (UNAVAILABLE), once it is; then every request in flight fails with it.
  private final AtomicReference<@Nullable BatonException> ended = new AtomicReference<>();
  // The requests waited for, by a number of their own (futures have no equality to key a set by).
  private final Map<Long, CompletableFuture<?>> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicBoolean stopping = new AtomicBoolean();

  Session(
      String name,
      Duration timeout,
      McpAsyncClient client,
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

  McpAsyncClient client() {
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
   * to answer); on failure the session is stopped and the error says why. A stdio server's stderr
   * goes to the log, never into the error: it may hold stack traces or secrets.
   */
  void initialize(Duration limit) {
    try {
      await(Cancellation.never(), limit, client.initialize(), reason -> {});
    } catch (BatonException e) {
      stop();
      if (e.status() == Status.UNAVAILABLE && stdio != null) {
        throw exitedAtStart(stdio, e);
      }
      throw e;
    }
  }

  /**
   * A stdio server that failed the handshake has usually exited: the error says with which code,
   * and its stderr, which may hold stack traces or secrets, goes to the log.
   */
  private BatonException exitedAtStart(StdioServerTransport stdio, BatonException error) {
    List<String> tail = stdio.stderrTail(STDERR_GRACE);
    if (!tail.isEmpty()) {
      LOG.warn(
          "MCP server \"{}\" did not start; its stderr ended with:\n{}",
          name,
          String.join("\n", tail));
    }
    try {
      int code =
          stdio
              .process()
              .thenCompose(Process::onExit)
              .get(STDERR_GRACE.toMillis(), TimeUnit.MILLISECONDS)
              .exitValue();
      return exited(code);
    } catch (ExecutionException | TimeoutException e) {
      return error;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error;
    }
  }

  /**
   * Waits for a request, at most the timeout, and no longer than the server lives or the caller
   * waits: {@code cancel} is told why when the caller stops waiting first, whatever status the
   * caller's cancellation carries.
   */
  <T> T await(
      Cancellation cancellation,
      Function<McpAsyncClient, Mono<T>> request,
      Consumer<String> cancel) {
    return await(cancellation, timeout, request.apply(client), cancel);
  }

  private <T> T await(
      Cancellation cancellation, Duration limit, Mono<T> request, Consumer<String> cancel) {
    // Cancelling this future disposes the request's subscription.
    CompletableFuture<@Nullable T> outcome = request.toFuture();
    long id = requests.incrementAndGet();
    inFlight.put(id, outcome);
    BatonException gone = ended.get();
    if (gone != null) {
      outcome.completeExceptionally(gone);
    }
    // Only the caller's cancellation cancels the future (a dead server completes it with an
    // error): told apart by that, not by its status, which may be ABORTED, DEADLINE_EXCEEDED...
    try (var registration = cancellation.onCancel(() -> outcome.cancel(true))) {
      T answer = outcome.get(limit.toMillis(), TimeUnit.MILLISECONDS);
      if (answer == null) {
        // The SDK completed the request without an answer: the connection ended under it.
        throw failure(McpErrors.unavailable(name, null, null));
      }
      return answer;
    } catch (TimeoutException e) {
      outcome.cancel(true);
      cancel.accept("timed out");
      throw new BatonException(
          Status.DEADLINE_EXCEEDED,
          "MCP server \"%s\" did not answer within %s".formatted(name, limit),
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      outcome.cancel(true);
      cancel.accept("cancelled");
      throw new BatonException(Status.CANCELLED, "the operation was cancelled", e);
    } catch (CancellationException e) {
      cancel.accept("cancelled");
      throw cancelled(cancellation);
    } catch (ExecutionException e) {
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
   * Stops the server under one deadline: a stdio server first has its stdin closed (the SDK then
   * signals it), then its whole process tree gets SIGTERM (the command may have started the real
   * server as its child, as {@code npx} does), and what is still running at the deadline SIGKILL.
   */
  void stop() {
    end(McpErrors.unavailable(name, "the connection was closed", null));
    if (!stopping.compareAndSet(false, true)) {
      return;
    }
    long deadline = System.nanoTime() + STOP_GRACE.toNanos();
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
    try {
      client.closeGracefully().timeout(left(deadline)).block();
    } catch (RuntimeException e) {
      // Not closed in time, or the transport already failed: the tree is stopped below.
      LOG.debug("MCP server \"{}\" did not close gracefully", name, e);
    }
    tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(left(deadline).toNanos(), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        handle.destroyForcibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        handle.destroyForcibly();
      }
    }
    client.close();
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
  }

  private BatonException failure(Throwable error) {
    // A request that failed because the server died says so, not how the transport noticed; each
    // caller gets an exception of its own.
    BatonException gone = ended.get();
    if (gone != null) {
      return new BatonException(
          gone.status(), String.valueOf(gone.getMessage()), error.equals(gone) ? null : error);
    }
    return McpErrors.toBaton(name, error);
  }

  private BatonException exited(int code) {
    return McpErrors.unavailable(name, "its process exited with code " + code, null);
  }

  private static BatonException cancelled(Cancellation cancellation) {
    BatonException reason = cancellation.reason();
    // Each caller gets an exception of its own: several may wait on one cancellation.
    return reason != null
        ? new BatonException(reason.status(), String.valueOf(reason.getMessage()), reason)
        : new BatonException(Status.CANCELLED, "the operation was cancelled");
  }
}
