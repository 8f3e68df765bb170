package dev.baton.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A response body read as an {@link InputStream} that hands out every byte received before it
 * reports how the body ended. The JDK's {@code BodyHandlers.ofInputStream()} throws as soon as the
 * connection fails and drops what it had buffered, so a provider that streams a chunk and an error
 * event and then closes would lose both to a race; here a reader gets the chunk and the error
 * event, and only then an {@link IOException} carrying the failure.
 *
 * <p>It keeps at most {@value #MAX_QUEUED} deliveries ahead of the reader, asking for one more each
 * time the reader finishes one, so a slow reader slows the connection down rather than filling the
 * heap. Nothing is requested before the first read. That matters: the JDK client runs {@link
 * #getBody()} of a subscriber of its own on another thread, and a body that fails before then fails
 * the whole response, bytes and all; without demand it holds both the bytes and the failure back
 * until the reader, who by then has the response, asks for them. {@link #close()} cancels the
 * subscription and drops what is queued; a read blocked at that moment, or any later one, throws
 * {@code IOException("closed")}. A read interrupted while it waits throws {@link
 * InterruptedIOException} and leaves the thread's interrupt flag set.
 *
 * <p>Thread-safe: the HTTP client delivers on its threads while one reader reads.
 */
final class LosslessBodyStream extends InputStream
    implements HttpResponse.BodySubscriber<InputStream> {
  /** How many deliveries may wait for the reader. */
  static final int MAX_QUEUED = 8;

  private static final int NOTHING_YET = -2;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  // All guarded by lock.
  private final ArrayDeque<List<ByteBuffer>> queue = new ArrayDeque<>();
  private int indexInHead;
  // Deliveries the queue has room for that are not requested yet: all of them until the first read.
  private int room = MAX_QUEUED;
  private Flow.@Nullable Subscription subscription;
  private boolean complete;
  private @Nullable Throwable failure;
  private boolean closed;

  @Override
  public CompletionStage<InputStream> getBody() {
    // The stream exists before its bytes do, so the response completes with its headers.
    return CompletableFuture.completedStage(this);
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    boolean cancel;
    lock.lock();
    try {
      cancel = closed || this.subscription != null;
      if (!cancel) {
        this.subscription = subscription;
        changed.signalAll(); // A reader that came first can now ask for bytes.
      }
    } finally {
      lock.unlock();
    }
    if (cancel) {
      subscription.cancel();
    }
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    Objects.requireNonNull(buffers);
    lock.lock();
    try {
      if (!closed) {
        queue.add(buffers);
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onError(Throwable error) {
    Objects.requireNonNull(error);
    lock.lock();
    try {
      failure = error;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void onComplete() {
    lock.lock();
    try {
      complete = true;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] bytes, int offset, int length) throws IOException {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (length == 0) {
      return 0;
    }
    while (true) {
      int read = NOTHING_YET;
      int demand;
      Flow.@Nullable Subscription toRequest;
      lock.lock();
      try {
        if (closed) {
          throw new IOException("closed");
        }
        ByteBuffer buffer = head();
        if (buffer != null) {
          read = Math.min(length, buffer.remaining());
          buffer.get(bytes, offset, read);
          head(); // A delivery read to its end is replaced at once, not at the next read.
        } else if (failure != null) {
          throw new IOException(failure.getMessage(), failure);
        } else if (complete) {
          read = -1;
        }
        toRequest = subscription;
        demand = toRequest == null ? 0 : room;
        room -= demand;
        if (read == NOTHING_YET && demand == 0) {
          awaitChange();
        }
      } finally {
        lock.unlock();
      }
      // Outside the lock: the client may deliver the next buffers on this very thread.
      if (demand > 0 && toRequest != null) {
        toRequest.request(demand);
      }
      if (read != NOTHING_YET) {
        return read;
      }
    }
  }

  /** The bytes the next read can return without waiting: those of the current buffer. */
  @Override
  public int available() {
    lock.lock();
    try {
      ByteBuffer buffer = closed ? null : head();
      return buffer == null ? 0 : buffer.remaining();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    Flow.@Nullable Subscription toCancel;
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      queue.clear();
      toCancel = subscription;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    if (toCancel != null) {
      toCancel.cancel();
    }
  }

  /** Waits for a delivery, the end of the body or a close. Called under the lock. */
  @SuppressWarnings("WaitNotInLoop") // read() loops, and looks again after every wake-up
  private void awaitChange() throws InterruptedIOException {
    try {
      changed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the response body");
    }
  }

  /**
   * The first queued buffer with bytes left, or null when none is queued. Deliveries read to their
   * end are dropped on the way, making {@link #room} for one more each. Called under the lock.
   */
  private @Nullable ByteBuffer head() {
    for (List<ByteBuffer> first = queue.peekFirst(); first != null; first = queue.peekFirst()) {
      for (; indexInHead < first.size(); indexInHead++) {
        if (first.get(indexInHead).hasRemaining()) {
          return first.get(indexInHead);
        }
      }
      queue.removeFirst();
      indexInHead = 0;
      room++;
    }
    return null;
  }
}
