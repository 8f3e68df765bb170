package dev.baton.testing;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Time that moves only when a test moves it: a clock and a scheduler for {@code
 * Baton.builder().clock(time).scheduler(time.scheduler())}, so that heartbeats, expiry, the poll
 * intervals of waits and retry pauses run in no real time and in a known order, rather than racing
 * real intervals of a few milliseconds.
 *
 * <p>The clock stands still until {@link #advance}, which moves it forward and runs every task that
 * falls due on the way, on the advancing thread, one at a time in the order they fall due (tasks
 * due at the same instant in the order they were scheduled), with the clock reading each task's due
 * time while it runs. A task scheduled while advancing runs in the same advance if it falls due
 * within it; a task given no delay runs at the next advance, {@code advance(Duration.ZERO)}
 * included. Work that a task hands to another thread (a heartbeat's store write, say) may still be
 * running when {@code advance} returns: wait for its effect with a latch or Awaitility. {@link
 * #pendingTasks()} tells a test when another thread has armed a timer (a wait now between two
 * reads, say), so it knows when advancing reaches it.
 *
 * <pre>{@code
 * FakeTime time = FakeTime.create();
 * Baton baton = Baton.builder().experimental().clock(time).scheduler(time.scheduler()).build();
 * // ... start a detached run, stop its store ...
 * time.advance(Duration.ofSeconds(30)); // the heartbeat timeout passes: the row reads expired
 * }</pre>
 *
 * <p>Thread-safe: any thread may read the clock and schedule tasks; advances run one at a time.
 */
public final class FakeTime implements InstantSource {
  private final Instant start;
  private final ReentrantLock lock = new ReentrantLock();
  private final ReentrantLock advancing = new ReentrantLock();
  private final PriorityQueue<Task<?>> queue = new PriorityQueue<>(); // guarded by lock
  private final Scheduler scheduler = new Scheduler();
  private volatile long elapsedNanos;
  private long scheduled; // guarded by lock: orders tasks due at the same instant
  private boolean shutdown; // guarded by lock

  private FakeTime(Instant start) {
    this.start = start;
  }

  /** Time starting at {@code start}. */
  public static FakeTime startingAt(Instant start) {
    return new FakeTime(Objects.requireNonNull(start, "start"));
  }

  /** Time starting at 2025-01-01T00:00:00Z. */
  public static FakeTime create() {
    return startingAt(Instant.parse("2025-01-01T00:00:00Z"));
  }

  /** The current fake instant. */
  @Override
  public Instant instant() {
    return start.plusNanos(elapsedNanos);
  }

  /**
   * The scheduler whose tasks run as the time advances. It follows {@link
   * ScheduledExecutorService}'s contract on fake time: a periodic task that throws runs no more and
   * its future holds the failure; {@code shutdown} refuses new tasks and cancels the periodic ones,
   * while queued one-shot tasks still run as the time advances; {@code shutdownNow} drops them all.
   */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /**
   * Moves the time forward by {@code duration}, running each task that falls due on the way.
   *
   * @throws IllegalArgumentException when {@code duration} is negative
   */
  public void advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("time cannot go back: " + duration);
    }
    advancing.lock();
    try {
      long target = elapsedNanos + duration.toNanos();
      while (true) {
        Task<?> next;
        lock.lock();
        try {
          next = queue.peek();
          if (next == null || next.due > target) {
            elapsedNanos = target;
            return;
          }
          queue.poll();
          elapsedNanos = Math.max(elapsedNanos, next.due);
        } finally {
          lock.unlock();
        }
        next.run();
      }
    } finally {
      advancing.unlock();
    }
  }

  /** How many tasks are scheduled and have neither run (for good) nor been cancelled. */
  public int pendingTasks() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  private <V> Task<V> enqueue(Callable<V> callable, long delayNanos, long periodNanos) {
    lock.lock();
    try {
      if (shutdown) {
        throw new RejectedExecutionException("the fake scheduler is shut down");
      }
      Task<V> task =
          new Task<>(callable, elapsedNanos + Math.max(0, delayNanos), periodNanos, scheduled++);
      queue.add(task);
      return task;
    } finally {
      lock.unlock();
    }
  }

  /** A scheduled task: one-shot (period 0), at a fixed rate (period > 0) or delay (period < 0). */
  private final class Task<V> implements ScheduledFuture<V> {
    private final Callable<V> callable;
    private final long period;
    private final CompletableFuture<V> result = new CompletableFuture<>();
    private long due; // changed only while the task is out of the queue, running
    private long sequence;

    Task(Callable<V> callable, long due, long period, long sequence) {
      this.callable = callable;
      this.due = due;
      this.period = period;
      this.sequence = sequence;
    }

    /** Runs the task once, on the advancing thread, and queues its next run if it has one. */
    void run() {
      if (result.isDone()) {
        return;
      }
      V value;
      try {
        value = callable.call();
      } catch (Throwable e) {
        result.completeExceptionally(e);
        return;
      }
      if (period == 0) {
        result.complete(value);
        return;
      }
      lock.lock();
      try {
        if (!result.isDone() && !shutdown) {
          due = period > 0 ? due + period : elapsedNanos - period;
          sequence = scheduled++;
          queue.add(this);
        }
      } finally {
        lock.unlock();
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean cancelled = result.cancel(false);
      lock.lock();
      try {
        queue.remove(this);
      } finally {
        lock.unlock();
      }
      return cancelled;
    }

    @Override
    public boolean isCancelled() {
      return result.isCancelled();
    }

    @Override
    public boolean isDone() {
      return result.isDone();
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
      return result.get();
    }

    @Override
    public V get(long timeout, TimeUnit unit)
        throws InterruptedException, ExecutionException, TimeoutException {
      return result.get(timeout, unit);
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - elapsedNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      Task<?> that = (Task<?>) other;
      int byDue = Long.compare(due, that.due);
      return byDue != 0 ? byDue : Long.compare(sequence, that.sequence);
    }
  }

  /** The fake scheduler: every task goes into the queue that {@link #advance} runs. */
  private final class Scheduler extends AbstractExecutorService
      implements ScheduledExecutorService {
    @Override
    public void execute(Runnable command) {
      // execute hands back no future: the task runs at the next advance, like any other.
      ScheduledFuture<?> unused = schedule(command, 0, TimeUnit.NANOSECONDS);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      return enqueue(Executors.callable(command), unit.toNanos(delay), 0);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
      return enqueue(callable, unit.toNanos(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
        Runnable command, long initialDelay, long period, TimeUnit unit) {
      return enqueue(
          Executors.callable(command), unit.toNanos(initialDelay), positive(period, unit));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      return enqueue(
          Executors.callable(command), unit.toNanos(initialDelay), -positive(delay, unit));
    }

    private static long positive(long period, TimeUnit unit) {
      long nanos = unit.toNanos(period);
      if (nanos <= 0) {
        throw new IllegalArgumentException("a period must be positive: " + period + " " + unit);
      }
      return nanos;
    }

    @Override
    public void shutdown() {
      lock.lock();
      try {
        shutdown = true;
        queue.removeIf(task -> task.period != 0 && task.result.cancel(false));
      } finally {
        lock.unlock();
      }
    }

    @Override
    public List<Runnable> shutdownNow() {
      List<Runnable> dropped = new ArrayList<>();
      lock.lock();
      try {
        shutdown = true;
        for (Task<?> task : queue) {
          dropped.add(task::run);
        }
        queue.clear();
      } finally {
        lock.unlock();
      }
      return dropped;
    }

    @Override
    public boolean isShutdown() {
      lock.lock();
      try {
        return shutdown;
      } finally {
        lock.unlock();
      }
    }

    @Override
    public boolean isTerminated() {
      lock.lock();
      try {
        return shutdown && queue.isEmpty();
      } finally {
        lock.unlock();
      }
    }

    /** Fake time never passes by itself: answers at once whether the scheduler has terminated. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return isTerminated();
    }
  }

  @Override
  public String toString() {
    return "FakeTime[" + instant() + ", " + pendingTasks() + " pending]";
  }
}
