package dev.baton.server.internal;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a graceful shutdown waits for: the requests being handled, each known by its cancellation,
 * and the detached runs those requests started in this process, each known by the future of its
 * final row (see {@link dev.baton.internal.agent.DetachedRuns}).
 *
 * <p>Once draining, new requests are refused. Requests in flight and detached runs get the grace
 * period to finish; then the requests still running are cancelled with {@code UNAVAILABLE} (so a
 * stream still ends with an error frame), and the detached runs are left as they are: their rows
 * stay pending, stop heartbeating when the process ends, expire, and are continued later.
 *
 * <p>Thread-safe.
 */
public final class Drain {
  private static final Logger log = LoggerFactory.getLogger(Drain.class);

  /** How long cancelled requests get to write their last frame before the connectors close. */
  private static final Duration FLUSH = Duration.ofSeconds(5);

  private final Set<Cancellation> requests = ConcurrentHashMap.newKeySet();
  private final Set<CompletionStage<Void>> detached = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Void> noRequests = new CompletableFuture<>();
  private final CompletableFuture<Void> empty = new CompletableFuture<>();
  private volatile boolean draining;

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

  /**
   * Waits, when draining, for a detached run the requests started (directly, or through a
   * background delegation) until {@code finalized} completes: its row is final.
   */
  public void track(CompletionStage<Void> finalized) {
    detached.add(finalized);
    finalized.whenComplete(
        (ignored, error) -> {
          detached.remove(finalized);
          checkEmpty();
        });
  }

  public boolean isDraining() {
    return draining;
  }

  /**
   * Starts draining and completes when the requests and detached runs are done, or when the grace
   * period is over and the requests left have been cancelled (and have had a moment to answer).
   */
  @SuppressWarnings("FutureReturnValueIgnored") // each callback only completes the future returned
  public CompletableFuture<Void> shutdown(Duration grace) {
    draining = true;
    checkEmpty();
    CompletableFuture<Void> done = new CompletableFuture<>();
    empty
        .orTimeout(grace.toMillis(), TimeUnit.MILLISECONDS)
        .whenComplete(
            (ok, timedOut) -> {
              if (timedOut == null) {
                done.complete(null);
                return;
              }
              log.info(
                  "shutdown grace of {} is over: cancelling {} request(s); {} detached run(s) are"
                      + " left to expire and be continued",
                  grace,
                  requests.size(),
                  detached.size());
              cancelAll();
              noRequests
                  .orTimeout(FLUSH.toMillis(), TimeUnit.MILLISECONDS)
                  .whenComplete((ignored, error) -> done.complete(null));
            });
    return done;
  }

  /** Cancels every request; detached runs are left to go on, or to expire with the process. */
  public void cancelAll() {
    BatonException reason =
        BatonException.of(Status.UNAVAILABLE, "the server is shutting down; try again shortly");
    requests.forEach(request -> request.cancel(reason));
  }

  private void checkEmpty() {
    if (draining && requests.isEmpty()) {
      noRequests.complete(null);
      if (detached.isEmpty()) {
        empty.complete(null);
      }
    }
  }
}
