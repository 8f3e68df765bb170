package dev.baton.mcp.internal.server;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The tool calls in flight, each known by its cancellation and its MCP session: what a client's
 * cancellation fires for one call, the end of a stdio session for its calls, and closing the server
 * for all of them. Once closed, new calls are refused.
 *
 * <p>A client may cancel a call before the call has registered (its notification overtook the
 * request, on another HTTP request): such a cancellation is kept for a while, in a bounded record,
 * and fires as soon as the call registers.
 *
 * <p>Thread-safe.
 */
public final class ToolCalls {
  // Far more than the calls a client sends at once: the record only has to outlive a race.
  private static final int MAX_EARLY = 1024;
  private static final long EARLY_TTL_NANOS = Duration.ofMinutes(1).toNanos();
  private static final String NO_SESSION = "";

  private final Object lock = new Object();
  // Guarded by lock, both: a cancellation either finds its call or is found by it.
  private final Map<CallKey, Cancellation> byRequest = new LinkedHashMap<>();
  private final Map<CallKey, Long> cancelledEarly =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<CallKey, Long> eldest) {
          return size() > MAX_EARLY;
        }
      };
  // Each running call's cancellation, with its session.
  private final Map<Cancellation, String> running = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * Runs {@code call} with a cancellation of its own, which {@link #cancel} fires when {@code key}
   * is given, {@link #cancelSession} when {@code session} is, and {@link #cancelAll} in any case.
   *
   * @throws BatonException {@code UNAVAILABLE} when the server is closed
   */
  public <T> T run(
      @Nullable String session, @Nullable CallKey key, Function<Cancellation, T> call) {
    Cancellation cancellation = Cancellation.create();
    running.put(cancellation, session == null ? NO_SESSION : session);
    try {
      // Checked after the put, so that a close racing with this call either sees it or is seen.
      if (closed) {
        throw BatonException.of(Status.UNAVAILABLE, "the MCP server is closed");
      }
      if (key != null && registerCancelledEarly(key, cancellation)) {
        cancellation.cancel(cancelled());
      }
      return call.apply(cancellation);
    } finally {
      running.remove(cancellation);
      if (key != null) {
        synchronized (lock) {
          byRequest.remove(key, cancellation);
        }
      }
    }
  }

  /** Registers the call; whether its client cancelled it already. */
  private boolean registerCancelledEarly(CallKey key, Cancellation cancellation) {
    synchronized (lock) {
      byRequest.put(key, cancellation);
      Long cancelledAt = cancelledEarly.remove(key);
      return cancelledAt != null && System.nanoTime() - cancelledAt < EARLY_TTL_NANOS;
    }
  }

  /** Cancels the call a client named: now if it is running, else as soon as it registers. */
  public void cancel(CallKey key) {
    Cancellation cancellation;
    synchronized (lock) {
      cancellation = byRequest.get(key);
      if (cancellation == null) {
        cancelledEarly.put(key, System.nanoTime());
        return;
      }
    }
    cancellation.cancel(cancelled());
  }

  /** Cancels the calls of a session that ended (a stdio client closed its input). */
  public void cancelSession(String session) {
    running.forEach(
        (cancellation, owner) -> {
          if (owner.equals(session)) {
            cancellation.cancel(BatonException.of(Status.CANCELLED, "the MCP session ended"));
          }
        });
  }

  /** Refuses new calls and cancels the running ones. */
  public void cancelAll() {
    closed = true;
    running
        .keySet()
        .forEach(
            cancellation ->
                cancellation.cancel(
                    BatonException.of(Status.UNAVAILABLE, "the MCP server is closing")));
  }

  private static BatonException cancelled() {
    return BatonException.of(Status.CANCELLED, "the client cancelled the call");
  }
}
