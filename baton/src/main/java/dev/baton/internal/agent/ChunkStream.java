package dev.baton.internal.agent;

import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.BackgroundStream;
import dev.baton.core.BatonException;
import dev.baton.core.StreamCallback;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream an invocation's worker writes its chunks to: it applies the agent's stream transform
 * and hands each chunk, one at a time, to where the client reads them (a queue, or the client's own
 * callback when the worker runs on the client's thread).
 *
 * <p>Once {@linkplain #latchDetached() detached}, chunks are dropped: a detached run streams
 * nothing to its client, including the turn the detach input starts. Only an in-process {@linkplain
 * #follow follower} goes on receiving them. A transform or a callback that fails closes the stream
 * for good, records the failure (which fails the invocation), and stops the work; a follower that
 * fails is dropped, and the work goes on.
 *
 * <p>Thread-safe: parallel tool calls may stream at once.
 */
final class ChunkStream {
  private static final Logger log = LoggerFactory.getLogger(ChunkStream.class);

  private final @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> transform;
  private final StreamCallback<AgentStreamChunk> client;
  private final Runnable stopWork;
  private final AtomicReference<@Nullable BatonException> failure = new AtomicReference<>();
  // A lock rather than a monitor: the callback may block on a slow client's socket.
  private final ReentrantLock deliveryLock = new ReentrantLock();
  private volatile boolean detached;
  private volatile @Nullable BackgroundStream follower;

  /**
   * @param client where the client reads chunks
   * @param stopWork stops the work when the stream fails
   */
  ChunkStream(
      @Nullable Function<AgentStreamChunk, @Nullable AgentStreamChunk> transform,
      StreamCallback<AgentStreamChunk> client,
      Runnable stopWork) {
    this.transform = transform;
    this.client = client;
    this.stopWork = stopWork;
  }

  /**
   * Whether a chunk sent now would go unseen: the client discards every chunk and no transform
   * looks at them, or the run has detached. A producer may then skip building its chunks.
   */
  boolean isDiscarding() {
    return detached ? follower == null : transform == null && client.isDiscarding();
  }

  void send(AgentStreamChunk chunk) {
    if (detached) {
      sendToFollower(chunk);
      return;
    }
    if (failure.get() != null) {
      return;
    }
    AgentStreamChunk outbound;
    try {
      outbound = transform == null ? chunk : transform.apply(chunk);
    } catch (RuntimeException e) {
      failClosed(BatonException.from(e));
      return;
    }
    if (outbound != null) {
      deliver(outbound);
    }
  }

  private void deliver(AgentStreamChunk chunk) {
    deliveryLock.lock();
    try {
      if (failure.get() != null) {
        return;
      }
      client.onChunk(chunk);
      return;
    } catch (RuntimeException e) {
      failure.compareAndSet(null, BatonException.from(e));
    } finally {
      deliveryLock.unlock();
    }
    // Stopping the work runs cancellation listeners: not while other chunks wait on the lock.
    stopWork.run();
  }

  /**
   * After the detach, a chunk goes to the follower only, on the work's thread: the follower is
   * thread-safe and does not block, so no lock is held.
   */
  private void sendToFollower(AgentStreamChunk chunk) {
    BackgroundStream observer = follower;
    if (observer == null) {
      return;
    }
    try {
      AgentStreamChunk outbound = transform == null ? chunk : transform.apply(chunk);
      if (outbound != null) {
        observer.onChunk(outbound);
      }
    } catch (RuntimeException e) {
      // The work is no longer the client's: an observer's failure only ends its own stream.
      follower = null;
      log.warn("a background stream failed; it receives no more chunks", e);
    }
  }

  /** Sends the chunks of the detached work to {@code observer} too; set before the detach. */
  void follow(BackgroundStream observer) {
    follower = observer;
  }

  /** Stops streaming for good; the invocation fails with this error. */
  void failClosed(BatonException error) {
    failure.compareAndSet(null, error);
  }

  /** Why the stream closed, or null while it is open. */
  @Nullable BatonException failure() {
    return failure.get();
  }

  /** Drops every chunk from now on: the client has gone. */
  void latchDetached() {
    detached = true;
  }
}
