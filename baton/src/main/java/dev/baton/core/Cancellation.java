package dev.baton.core;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cancellation signal passed explicitly through {@link ActionContext}, the way Go passes a {@code
 * context.Context}.
 *
 * <p>Cancelling is one-way and idempotent; the first reason given wins. A {@linkplain #child()
 * child} is cancelled with its parent but can also be cancelled alone, which is how a generate call
 * stops its own tool calls without touching the caller. Long-running work polls {@link
 * #isCancelled()} or registers a listener with {@link #onCancel(Runnable)} (an HTTP call aborts its
 * request there).
 *
 * <p>Thread-safe. Listeners run on the thread that cancels, once each; a listener registered after
 * cancellation runs at once on the registering thread. A listener that throws is logged, and the
 * others still run.
 */
public final class Cancellation {
  private static final Logger log = LoggerFactory.getLogger(Cancellation.class);
  private static final Cancellation NEVER = new Cancellation(null, false);

  private final AtomicReference<@Nullable BatonException> reason = new AtomicReference<>();
  // A set, not a list: thousands of waiters may register on one signal (a wait on many tasks), and
  // each must add and remove its listener in constant time.
  private final Set<Listener> listeners = ConcurrentHashMap.newKeySet();
  private final boolean cancellable;
  private final Registration parentLink;

  private Cancellation(@Nullable Cancellation parent, boolean cancellable) {
    this.cancellable = cancellable;
    this.parentLink =
        parent != null && parent.cancellable
            ? parent.onCancel(() -> cancel(parent.reasonOrDefault()))
            : () -> {};
  }

  /** A signal that can be cancelled. */
  public static Cancellation create() {
    return new Cancellation(null, true);
  }

  /** A signal that is never cancelled: work detached from any caller. */
  public static Cancellation never() {
    return NEVER;
  }

  /**
   * A new signal cancelled when this one is, and cancellable on its own. {@link #release()} it when
   * the work it guards is over, so that this signal stops holding on to it.
   */
  public Cancellation child() {
    return new Cancellation(this, true);
  }

  /** Stops following the parent signal; this one can still be cancelled on its own. */
  public void release() {
    parentLink.close();
  }

  /** Cancels with {@link Status#CANCELLED} "the operation was cancelled". */
  public void cancel() {
    cancel(new BatonException(Status.CANCELLED, "the operation was cancelled"));
  }

  /**
   * Cancels with a reason (for example {@link Status#DEADLINE_EXCEEDED}); later calls do nothing.
   */
  // The listeners are a concurrent set, whose iteration is safe while it changes.
  @SuppressWarnings("ModifyCollectionInEnhancedForLoop")
  public void cancel(BatonException why) {
    if (!cancellable || !reason.compareAndSet(null, why)) {
      return;
    }
    for (Listener listener : listeners) {
      listener.runOnce();
      listeners.remove(listener);
    }
  }

  public boolean isCancelled() {
    return reason.get() != null;
  }

  /**
   * Why this signal was cancelled, or null while it is not: a new exception on each call, with the
   * reason given to {@link #cancel(BatonException)} as its cause, so every thread that throws it
   * throws its own.
   */
  public @Nullable BatonException reason() {
    BatonException why = reason.get();
    return why == null ? null : copyOf(why);
  }

  /**
   * Throws the cancellation reason if this signal has been cancelled: a new exception each time,
   * with the same status, message and visibility, whose cause is the reason itself.
   */
  public void throwIfCancelled() {
    BatonException why = reason.get();
    if (why != null) {
      throw copyOf(why);
    }
  }

  private static BatonException copyOf(BatonException why) {
    return new BatonException(
        why.status(), String.valueOf(why.getMessage()), why.details(), why.isPublic(), why);
  }

  /**
   * Waits for {@code duration}, or less when this is cancelled: for pacing polls and retries in a
   * way that a cancellation cuts short.
   *
   * @throws BatonException this signal's reason when it is cancelled before or during the wait, or
   *     {@code CANCELLED} when the thread is interrupted (its interrupt flag is kept)
   */
  public void pause(Duration duration) {
    throwIfCancelled();
    if (duration.isPositive()) {
      CountDownLatch cancelled = new CountDownLatch(1);
      try (Registration registration = onCancel(cancelled::countDown)) {
        cancelled.await(duration.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw BatonException.from(e);
      }
    }
    throwIfCancelled();
  }

  /**
   * Runs a listener when this signal is cancelled (at once if it already is).
   *
   * @return a handle that removes the listener; call it when the guarded work ends
   */
  public Registration onCancel(Runnable listener) {
    if (!cancellable) {
      return () -> {};
    }
    Listener once = new Listener(listener);
    listeners.add(once);
    // A cancel racing this registration may have iterated before the add; the once-guard makes
    // running it here as well harmless.
    if (isCancelled()) {
      once.runOnce();
      listeners.remove(once);
    }
    return () -> listeners.remove(once);
  }

  private BatonException reasonOrDefault() {
    BatonException why = reason.get();
    return why != null ? why : new BatonException(Status.CANCELLED, "the operation was cancelled");
  }

  /** A listener that runs at most once; the flag it extends says whether it has. */
  @SuppressWarnings("serial") // never serialised
  private static final class Listener extends AtomicBoolean {
    private final transient Runnable action;

    Listener(Runnable action) {
      this.action = action;
    }

    void runOnce() {
      if (!compareAndSet(false, true)) {
        return;
      }
      try {
        action.run();
      } catch (RuntimeException e) {
        // The others must still run: each releases something (an HTTP call, a blocked reader).
        log.warn("a cancellation listener failed", e);
      }
    }
  }

  /** Removes a listener registered with {@link #onCancel(Runnable)}. */
  @FunctionalInterface
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }
}
