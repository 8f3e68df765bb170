package dev.baton.mcp.internal.server;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The tool calls in flight, each known by its cancellation: what a client's cancellation fires for
 * one call, and what closing the server fires for all of them. Once closed, new calls are refused.
 *
 * <p>Thread-safe.
 */
public final class ToolCalls {
  private final Map<CallKey, Cancellation> byRequest = new ConcurrentHashMap<>();
  private final Set<Cancellation> running = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Runs {@code call} with a cancellation of its own, which {@link #cancel} fires when {@code key}
   * is given and {@link #cancelAll} fires in any case.
   *
   * @throws BatonException {@code UNAVAILABLE} when the server is closed
   */
  public <T> T run(@Nullable CallKey key, Function<Cancellation, T> call) {
    Cancellation cancellation = Cancellation.create();
    running.add(cancellation);
    try {
      // Checked after the add, so that a close racing with this call either sees it or is seen.
      if (closed) {
        throw BatonException.of(Status.UNAVAILABLE, "the MCP server is closed");
      }
      if (key != null) {
        byRequest.put(key, cancellation);
      }
      return call.apply(cancellation);
    } finally {
      running.remove(cancellation);
      if (key != null) {
        byRequest.remove(key, cancellation);
      }
    }
  }

  /** Cancels the call a client named, if it is still running. */
  public void cancel(CallKey key) {
    Cancellation cancellation = byRequest.get(key);
    if (cancellation != null) {
      cancellation.cancel(BatonException.of(Status.CANCELLED, "the client cancelled the call"));
    }
  }

  /** Refuses new calls and cancels the running ones. */
  public void cancelAll() {
    closed = true;
    BatonException reason = BatonException.of(Status.UNAVAILABLE, "the MCP server is closing");
    running.forEach(cancellation -> cancellation.cancel(reason));
  }
}
