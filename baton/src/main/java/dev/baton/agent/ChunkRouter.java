package dev.baton.agent;

import dev.baton.core.BatonException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Carries an invocation's events from its worker to the client, in order: stream chunks, then a
 * marker when the invocation settles (or the client cancels). The worker never blocks on a slow
 * client.
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
  private final AgentOptions.@Nullable StreamTransform transform;
  private final AtomicReference<@Nullable BatonException> failure = new AtomicReference<>();
  private volatile boolean detached;

  ChunkRouter(AgentOptions.@Nullable StreamTransform transform) {
    this.transform = transform;
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
    if (outbound != null) {
      events.add(new Chunk(outbound));
    }
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
