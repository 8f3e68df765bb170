package dev.baton.agent;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A stream of status values for one snapshot: a one-slot mailbox where a new value replaces an
 * unread one, so the reader always gets the latest. Stores {@linkplain #offer offer} values and
 * {@linkplain #end end} the stream; the reader takes values and {@linkplain #close closes} it when
 * done, which runs the store's cleanup. A reader that would rather not block a thread {@linkplain
 * #listen listens} instead: each value is then handed to its listener as it is offered.
 *
 * <p>Thread-safe: one reader, any number of writers.
 */
public final class StatusSubscription implements AutoCloseable {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Runnable onClose;
  private @Nullable SnapshotStatus unread;
  private @Nullable Consumer<SnapshotStatus> listener;
  private boolean ended;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** A subscription whose {@link #close} runs {@code onClose} once (the store's unsubscribe). */
  public StatusSubscription(Runnable onClose) {
    this.onClose = onClose;
  }

  /** A subscription that is already over: for a snapshot that does not exist. */
  public static StatusSubscription ended() {
    StatusSubscription subscription = new StatusSubscription(() -> {});
    subscription.end();
    return subscription;
  }

  /**
   * Delivers a value, replacing any unread one, or handing it to the listener. Ignored once the
   * stream has ended.
   */
  public void offer(SnapshotStatus status) {
    lock.lock();
    try {
      if (ended) {
        return;
      }
      if (listener != null) {
        listener.accept(status);
      } else {
        unread = status;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Switches the subscription to push delivery: the unread value, if any, and every value offered
   * from now on go to {@code listener} instead of to {@link #take} and {@link #poll}. The listener
   * runs on the offering thread, with this subscription's lock held, so its calls never overlap and
   * arrive in the order the values were offered; it must be quick and must not block (hand slow
   * work to another thread). A subscription has at most one listener.
   *
   * @throws IllegalStateException if the subscription already has a listener
   */
  public void listen(Consumer<SnapshotStatus> listener) {
    Objects.requireNonNull(listener, "listener");
    lock.lock();
    try {
      if (this.listener != null) {
        throw new IllegalStateException("the subscription already has a listener");
      }
      this.listener = listener;
      SnapshotStatus value = unread;
      unread = null;
      if (value != null) {
        listener.accept(value);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Ends the stream; a waiting reader wakes and sees the end. */
  public void end() {
    lock.lock();
    try {
      ended = true;
      unread = null;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits up to {@code timeout} for a value.
   *
   * @return the value, or null on timeout or when the stream has ended (see {@link #isEnded()})
   */
  public @Nullable SnapshotStatus poll(Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lock();
    try {
      while (unread == null && !ended) {
        if (nanos <= 0) {
          return null;
        }
        nanos = changed.awaitNanos(nanos);
      }
      SnapshotStatus value = unread;
      unread = null;
      return value;
    } finally {
      lock.unlock();
    }
  }

  /** Waits for a value; null when the stream has ended. */
  public @Nullable SnapshotStatus take() throws InterruptedException {
    lock.lock();
    try {
      while (unread == null && !ended) {
        changed.await(1, TimeUnit.DAYS);
      }
      SnapshotStatus value = unread;
      unread = null;
      return value;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the stream has ended and holds no unread value. */
  public boolean isEnded() {
    lock.lock();
    try {
      return ended && unread == null;
    } finally {
      lock.unlock();
    }
  }

  /** Ends the stream and unsubscribes from the store. Idempotent. */
  @Override
  public void close() {
    end();
    if (closed.compareAndSet(false, true)) {
      onClose.run();
    }
  }
}
