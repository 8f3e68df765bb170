package dev.baton.internal.agent;

import dev.baton.agent.AgentStreamChunk;
import dev.baton.core.BatonException;
import dev.baton.core.StreamCallback;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Carries an invocation's events from its worker to the client, in order: stream chunks, then a
 * marker when the invocation settles (or the client cancels). With a worker thread the events go
 * through a queue, so the worker never blocks on a slow client; an invocation that runs on the
 * client's own thread hands chunks straight to the client's callback instead.
 *
 * <p>Once {@linkplain #latchDetached() detached}, chunks are dropped: a detached run streams
 * nothing, including the turn the detach input starts. A stream transform that fails closes the
 * stream for good and records the failure, which fails the invocation.
 */
final class ChunkRouter {
  /** What the client reads. */
  sealed interface Event {}

  record Chunk(AgentStreamChunk chunk) implements Event {}

  /** The worker finished, or a detach was requested: time to build the output. */
  record Settled() implements Event {}

  /** The client's own context was cancelled. */
  record Cancelled() implements Event {}

  private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
  private final @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> transform;
  private final @Nullable StreamCallback<AgentStreamChunk> direct;
  private final Runnable onSinkFailure;
  private final AtomicReference<@Nullable BatonException> failure = new AtomicReference<>();
  private final ReentrantLock deliveryLock = new ReentrantLock();
  private volatile boolean detached;

  /**
   * @param direct the client's callback when the invocation runs on the client's thread, or null to
   *     queue events for a client reading them from another thread
   * @param onSinkFailure stops the work when the client's callback fails
   */
  ChunkRouter(
      @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> transform,
      @Nullable StreamCallback<AgentStreamChunk> direct,
      Runnable onSinkFailure) {
    this.transform = transform;
    this.direct = direct;
    this.onSinkFailure = onSinkFailure;
  }

  void send(AgentStreamChunk chunk) {
    if (detached || failure.get() != null) {
      return;
    }
    AgentStreamChunk outbound = chunk;
    if (transform != null) {
      try {
        outbound = transform.apply(chunk);
      } catch (RuntimeException e) {
        failClosed(BatonException.from(e));
        return;
      }
    }
    if (outbound == null) {
      return;
    }
    if (direct != null) {
      deliver(direct, outbound);
    } else {
      events.add(new Chunk(outbound));
    }
  }

  /**
   * Hands a chunk to the client's callback, one at a time (parallel tool calls may stream at once),
   * and turns a failing callback into a closed stream and stopped work rather than an exception in
   * the agent's code.
   */
  private void deliver(StreamCallback<AgentStreamChunk> sink, AgentStreamChunk chunk) {
    // A lock rather than a monitor: the callback may block on a slow client's socket.
    deliveryLock.lock();
    try {
      if (failure.get() != null) {
        return;
      }
      sink.onChunk(chunk);
      return;
    } catch (RuntimeException e) {
      failClosed(BatonException.from(e));
    } finally {
      deliveryLock.unlock();
    }
    // Stopping the work runs cancellation listeners: not while other chunks wait on the lock.
    onSinkFailure.run();
  }

  /** Stops streaming for good; the invocation fails with this error. */
  void failClosed(BatonException error) {
    failure.compareAndSet(null, error);
  }

  @Nullable BatonException failure() {
    return failure.get();
  }

  void latchDetached() {
    detached = true;
  }

  boolean isDetached() {
    return detached;
  }

  void settle() {
    events.add(new Settled());
  }

  void cancelled() {
    events.add(new Cancelled());
  }

  Event take() throws InterruptedException {
    return events.take();
  }
}
