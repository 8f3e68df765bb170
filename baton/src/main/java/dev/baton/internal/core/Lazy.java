package dev.baton.internal.core;

import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A value computed on first use, once, whichever thread asks first; later calls return the same
 * value without locking. What it is for: parts of a definition that a call from Java never needs
 * (an action's JSON schemas, its input validator), whose computation loads hundreds of classes and
 * takes much of an instance's start.
 *
 * <p>A computation that throws leaves the value uncomputed: the next call tries again.
 *
 * <p>Callers that arrive while the value is being computed wait on a {@link ReentrantLock}, not on
 * a monitor: a first use can be thousands of virtual threads at once (the tool calls of one model
 * response), and a contended monitor spins before it blocks, burning the CPU the computation needs;
 * the lock's waiters park.
 */
public final class Lazy<T> implements Supplier<T> {
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable Supplier<? extends T> computation; // guarded by lock
  private volatile @Nullable T value;

  private Lazy(Supplier<? extends T> computation) {
    this.computation = computation;
  }

  /** A value {@code computation} computes when it is first asked for; it must not return null. */
  public static <T> Lazy<T> of(Supplier<? extends T> computation) {
    return new Lazy<>(computation);
  }

  @Override
  public T get() {
    T result = value;
    if (result != null) {
      return result;
    }
    lock.lock();
    try {
      result = value;
      if (result == null) {
        // Not null here: it is cleared only once a value is set.
        result = Objects.requireNonNull(Objects.requireNonNull(computation).get(), "lazy value");
        value = result;
        // What the computation captured (a builder's schemas, say) is no longer needed.
        computation = null;
      }
      return result;
    } finally {
      lock.unlock();
    }
  }
}
