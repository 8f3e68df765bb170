package dev.baton.server.internal.protocol;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a graceful shutdown waits for: the requests being handled, each known by its cancellation,
 * and the agent work of the Baton instance, which {@link Baton#drain} waits for: the turns, and the
 * detached runs that requests started (a detached turn, or the background delegations of a served
 * orchestrator, however deep) or that the application started itself.
 *
 * <p>Once draining, new requests are refused. Requests in flight and detached runs get the grace
 * period to finish; then the requests still running are cancelled with {@code UNAVAILABLE} (so a
 * stream still ends with an error frame), and the detached runs are left as they are: the Baton
 * instance is the application's, and its {@code close()} aborts them so that their rows settle as
 * resumable; in a process that ends without closing it, their rows stay pending, stop heartbeating,
 * expire, and are continued later.
 *
 * <p>Shared with the A2A binding, whose handler drains the same way. Thread-safe.
 */
public final class Drain {
  private static final Logger log = LoggerFactory.getLogger(Drain.class);

  /** How long cancelled requests get to write their last frame before the connectors close. */
  private static final Duration FLUSH = Duration.ofSeconds(5);

  private final Baton baton;
  private final Set<Cancellation> requests = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Void> noRequests = new CompletableFuture<>();
  private volatile boolean draining;

  public Drain(Baton baton) {
    this.baton = baton;
  }

  /**
   * Admits a request.
   *
   * @return false when the server is draining and the request must be refused
   */
  public boolean enter(Cancellation request) {
    requests.add(request);
    if (draining) {
      requests.remove(request);
      return false;
    }
    return true;
  }

  /** A request is over. */
  public void exit(Cancellation request) {
    requests.remove(request);
    checkEmpty();
  }

  public boolean isDraining() {
    return draining;
  }

  /**
   * Starts draining and completes when the requests and the instance's agent work are done, or when
   * the grace period is over and the requests left have been cancelled (and have had a moment to
   * answer).
   */
  @SuppressWarnings("FutureReturnValueIgnored") // each callback only completes the future returned
  public CompletableFuture<Void> shutdown(Duration grace) {
    draining = true;
    checkEmpty();
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread.ofVirtual()
        .name("baton-server-drain")
        .start(
            () -> {
              try {
                wait(grace);
              } finally {
                done.complete(null);
              }
            });
    return done;
  }

  private void wait(Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    try {
      if (await(noRequests, grace)
          && baton.drain(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
        return;
      }
      log.info(
          "shutdown grace of {} is over: cancelling {} request(s); detached runs are left to the"
              + " Baton instance",
          grace,
          requests.size());
      cancelAll();
      await(noRequests, FLUSH);
    } catch (InterruptedException e) {
      cancelAll();
      Thread.currentThread().interrupt();
    }
  }

  private static boolean await(CompletableFuture<Void> future, Duration timeout)
      throws InterruptedException {
    try {
      future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (TimeoutException | ExecutionException e) {
      return false;
    }
  }

  /** Cancels every request; detached runs are left to go on. */
  public void cancelAll() {
    BatonException reason =
        BatonException.of(Status.UNAVAILABLE, "the server is shutting down; try again shortly");
    requests.forEach(request -> request.cancel(reason));
  }

  private void checkEmpty() {
    if (draining && requests.isEmpty()) {
      noRequests.complete(null);
    }
  }
}
