package dev.baton.internal.core;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Baton instance owns, and ends when it closes: the agent turns and detached runs in flight,
 * the threads the runtime starts for them, and the resources to release last (heartbeat timers,
 * plugins that are {@link AutoCloseable}).
 *
 * <p>Closing stops new turns ({@link #admit} refuses them with {@code FAILED_PRECONDITION}), waits
 * up to a grace period for the work in flight to end, then aborts what is left and gives it {@link
 * #SETTLE} to save its progress. Only then are the runtime's threads that are still running
 * interrupted (as Helidon's executor does on close): an interrupt earlier could cut short the store
 * write that settles a row. Last, the resources close, in the reverse order of their registration.
 *
 * <p>Thread-safe. Closing is idempotent: a second call waits for the first to finish.
 */
public final class Lifecycle {
  private static final Logger log = LoggerFactory.getLogger(Lifecycle.class);

  /** How long aborted work gets to save its progress, and interrupted threads to end. */
  private static final Duration SETTLE = Duration.ofSeconds(5);

  /** Work in flight that a close may have to abort once the grace period is over. */
  @FunctionalInterface
  public interface Work {
    /**
     * Stops the work so that it settles soon: a foreground turn fails with {@code reason}, a
     * detached run is aborted and saves its progress. It may be called again, and concurrently with
     * the work's own end: it must be idempotent, and must not block.
     */
    void abort(BatonException reason);
  }

  /** The tracking of one piece of work: closing it says the work is over. Idempotent. */
  public interface Tracked extends AutoCloseable {
    @Override
    void close();
  }

  private enum State {
    OPEN,
    CLOSING,
    ABORTING,
    CLOSED
  }

  // Joining and leaving take no lock; a drain checks for emptiness under the lock, and the leave
  // that empties the set signals under it, so no wake-up is lost between the two.
  private final Set<Work> running = ConcurrentHashMap.newKeySet();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private final Deque<AutoCloseable> resources = new ArrayDeque<>(); // guarded by lock
  private final ExecutorService threads =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("baton-", 0).factory());
  private final AtomicBoolean closeStarted = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private volatile State state = State.OPEN;

  /**
   * Tracks a new agent turn until the returned handle is closed.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} once the instance is closing or closed
   */
  public Tracked admit(Work work) {
    running.add(work);
    // After the add: a close that has not yet seen this work finds the state still open only if
    // it starts draining afterwards, and then it waits for the work.
    State now = state;
    if (now != State.OPEN) {
      leave(work);
      throw BatonException.failedPrecondition(
          now == State.CLOSED
              ? "Baton is closed: it starts no new agent turns"
              : "Baton is closing: it starts no new agent turns");
    }
    return () -> leave(work);
  }

  /**
   * Tracks work that carries on work already admitted (a detached run, after the turn that
   * detached): never refused, but aborted at once when the grace period is already over.
   */
  public Tracked track(Work work) {
    running.add(work);
    if (state == State.ABORTING || state == State.CLOSED) {
      abortQuietly(work, closingReason());
    }
    return () -> leave(work);
  }

  private void leave(Work work) {
    if (running.remove(work) && running.isEmpty()) {
      lock.lock();
      try {
        idle.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Starts {@code task} on a virtual thread the instance owns, named {@code name}.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} once the instance has closed
   */
  public void start(String name, Runnable task) {
    try {
      threads.execute(new Named(name, task));
    } catch (RejectedExecutionException e) {
      throw BatonException.failedPrecondition("Baton is closed: it starts no new work");
    }
  }

  /**
   * The body of an owned thread. A record rather than a lambda: a parked virtual thread's stack is
   * heap, and a detached fan-out parks thousands of these threads at once.
   */
  private record Named(String name, Runnable task) implements Runnable {
    @Override
    public void run() {
      Thread.currentThread().setName(name);
      task.run();
    }
  }

  /** Closes {@code resource} when the instance closes (at once, when it has closed). */
  public void onClose(AutoCloseable resource) {
    lock.lock();
    try {
      if (state != State.CLOSED) {
        resources.push(resource);
        return;
      }
    } finally {
      lock.unlock();
    }
    closeQuietly(resource);
  }

  /**
   * Waits until no turn or detached run is in flight, or {@code timeout} has passed. Does not stop
   * new turns.
   *
   * @return whether none is in flight
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (!running.isEmpty()) {
        if (left <= 0) {
          return false;
        }
        left = idle.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Closes the instance as the class comment says; returns once it has closed. */
  public void close(Duration grace) {
    if (!closeStarted.compareAndSet(false, true)) {
      closed.join();
      return;
    }
    boolean interrupted = false;
    try {
      state = State.CLOSING;
      try {
        if (!drain(grace)) {
          abortAll();
          if (!drain(SETTLE)) {
            log.warn("Baton closed with {} run(s) that did not settle in time", running.size());
          }
        }
      } catch (InterruptedException e) {
        // Asked to hurry: abort at once, and give the aborted work no time to settle.
        interrupted = true;
        abortAll();
      }
      state = State.CLOSED;
      threads.shutdownNow();
      if (!awaitThreads()) {
        interrupted = true;
      }
      closeResources();
    } finally {
      state = State.CLOSED;
      closed.complete(null);
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void abortAll() {
    state = State.ABORTING;
    BatonException reason = closingReason();
    for (Work work : List.copyOf(running)) {
      abortQuietly(work, reason);
    }
  }

  private static BatonException closingReason() {
    return BatonException.of(
        Status.UNAVAILABLE, "Baton is closing: the run was stopped; continue it later");
  }

  private static void abortQuietly(Work work, BatonException reason) {
    try {
      work.abort(reason);
    } catch (RuntimeException e) {
      log.warn("aborting a run on close failed", e);
    }
  }

  /** Waits for the interrupted threads; false when this thread was interrupted meanwhile. */
  private boolean awaitThreads() {
    try {
      if (!threads.awaitTermination(SETTLE.toNanos(), TimeUnit.NANOSECONDS)) {
        log.warn("Baton closed with threads that did not end when interrupted");
      }
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private void closeResources() {
    while (true) {
      AutoCloseable resource;
      lock.lock();
      try {
        resource = resources.poll();
      } finally {
        lock.unlock();
      }
      if (resource == null) {
        return;
      }
      closeQuietly(resource);
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    try {
      resource.close();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      log.warn("closing {} failed", resource, e);
    }
  }
}
