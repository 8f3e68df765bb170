package dev.baton.agent.store;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a task every interval on a virtual thread of its own, between {@link #start} and {@link
 * #stop}. The thread exists only while the poller is started, so an idle store holds no thread and
 * needs no shutdown. The first run comes one interval after the start; a task that throws is
 * logged, and the next run still comes.
 *
 * <p>Thread-safe. {@code start} and {@code stop} are idempotent and never block: a stopped thread
 * finishes the run it is in, if any, and exits. A start right after a stop gets a new thread.
 */
final class SnapshotPoller {
  private static final Logger log = LoggerFactory.getLogger(SnapshotPoller.class);

  private final long intervalNanos;
  private final Runnable task;
  private final String threadName;
  private final ReentrantLock lock = new ReentrantLock();

  /** The running thread, or null when stopped. Written under {@link #lock}. */
  private volatile @Nullable Thread thread;

  /**
   * A stopped poller.
   *
   * @param interval the time between the end of one run and the start of the next; positive
   */
  SnapshotPoller(Duration interval, Runnable task, String threadName) {
    if (!interval.isPositive()) {
      throw new IllegalArgumentException("poll interval must be positive, got " + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.task = task;
    this.threadName = threadName;
  }

  void start() {
    lock.lock();
    try {
      if (thread == null) {
        // Published before it starts: the loop runs only while it is the poller's thread.
        Thread started = Thread.ofVirtual().name(threadName).unstarted(this::loop);
        thread = started;
        started.start();
      }
    } finally {
      lock.unlock();
    }
  }

  void stop() {
    lock.lock();
    try {
      Thread running = thread;
      thread = null;
      if (running != null) {
        LockSupport.unpark(running);
      }
    } finally {
      lock.unlock();
    }
  }

  boolean isRunning() {
    return thread != null;
  }

  private void loop() {
    Thread self = Thread.currentThread();
    while (awaitNextRun(self)) {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.warn("{} failed; polling on", threadName, e);
      }
    }
  }

  /** Waits one interval; false when this thread was stopped meanwhile. */
  private boolean awaitNextRun(Thread self) {
    long deadline = System.nanoTime() + intervalNanos;
    for (long left = intervalNanos; left > 0; left = deadline - System.nanoTime()) {
      if (thread != self) {
        return false;
      }
      LockSupport.parkNanos(this, left);
    }
    return thread == self;
  }
}
