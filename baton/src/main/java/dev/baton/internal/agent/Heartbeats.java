package dev.baton.internal.agent;

import dev.baton.internal.core.Timing;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One agent's heartbeat timer: a single ticker that, every heartbeat interval, asks each of the
 * agent's beating detached runs to refresh its pending row, instead of one timer registration per
 * run. Ten thousand runs launched at once then cost ten thousand set entries, not ten thousand
 * entries in a scheduler's queue, each added and removed under its lock.
 *
 * <p>A run beats from when it {@linkplain #add joins} until it {@linkplain #remove leaves}; its
 * first beat comes at the first tick after it joined, so within one interval, as with a timer of
 * its own (never later, possibly sooner). The ticker runs only while some run is beating, and its
 * thread ends once it has been idle for a while, so an agent that detached once does not keep a
 * thread for the life of the JVM. The same thread runs the delayed checks of {@link #schedule}. An
 * instance built with a scheduler of the application's ticks on that scheduler instead, with no
 * thread of its own. {@link #close} ends the ticker for good, when the Baton instance closes.
 *
 * <p>Thread-safe.
 */
final class Heartbeats implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Heartbeats.class);
  private static final Duration THREAD_IDLE = Duration.ofSeconds(60);

  /** What the ticker beats: it must return at once (a beat's store write runs elsewhere). */
  interface Beating {
    void beat();
  }

  private final long intervalMillis;
  private final ScheduledExecutorService scheduler;
  // The application's scheduler, when it gave one, outlives the instance: close leaves it running.
  private final boolean ownsScheduler;
  private final Set<Beating> beating = ConcurrentHashMap.newKeySet();
  // Starting and stopping the ticker; joining and leaving the set take no lock.
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable ScheduledFuture<?> ticker; // guarded by lock

  Heartbeats(String agentName, Duration interval, Timing timing) {
    this.intervalMillis = interval.toMillis();
    ScheduledExecutorService shared = timing.scheduler();
    this.ownsScheduler = shared == null;
    this.scheduler = shared != null ? shared : ownScheduler(agentName);
  }

  private static ScheduledExecutorService ownScheduler(String agentName) {
    ScheduledThreadPoolExecutor own =
        new ScheduledThreadPoolExecutor(
            1, Thread.ofPlatform().daemon().name("baton-heartbeat-" + agentName).factory());
    own.setKeepAliveTime(THREAD_IDLE.toMillis(), TimeUnit.MILLISECONDS);
    own.allowCoreThreadTimeOut(true);
    own.setRemoveOnCancelPolicy(true);
    return own;
  }

  /** Beats {@code run} at every tick from now until it is removed. */
  void add(Beating run) {
    beating.add(run);
    // After the add: a tick that stops the ticker for want of runs checks under the lock, so
    // either it sees this run and goes on, or it stopped before this check, which starts a new one.
    lock.lock();
    try {
      // A ticker that is done died of something tick() let through: start another.
      if (ticker == null || ticker.isDone()) {
        ticker =
            scheduler.scheduleAtFixedRate(
                this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops beating {@code run}; a beat already started still completes.
   *
   * @return whether it was beating
   */
  boolean remove(Beating run) {
    return beating.remove(run);
  }

  /** Runs {@code check} once after {@code delay}, on the heartbeat thread: it must be quick. */
  ScheduledFuture<?> schedule(Runnable check, Duration delay) {
    return scheduler.schedule(check, delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void tick() {
    if (beating.isEmpty()) {
      lock.lock();
      try {
        if (beating.isEmpty() && ticker != null) {
          ticker.cancel(false);
          ticker = null;
        }
      } finally {
        lock.unlock();
      }
      return;
    }
    for (Beating run : beating) {
      try {
        run.beat();
      } catch (Throwable e) {
        // One run that cannot start its beat, whatever it threw, must not stop the ticker, and
        // with it every other run's beats: a periodic task that throws is never run again.
        log.warn("a heartbeat could not start", e);
      }
    }
  }

  /**
   * Stops the ticker, and on a scheduler of its own the delayed checks too; beats already started
   * still complete.
   */
  @Override
  public void close() {
    if (ownsScheduler) {
      scheduler.shutdownNow();
      return;
    }
    lock.lock();
    try {
      if (ticker != null) {
        ticker.cancel(false);
        ticker = null;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the ticker is running. Visible for tests. */
  boolean isTicking() {
    lock.lock();
    try {
      return ticker != null && !ticker.isDone();
    } finally {
      lock.unlock();
    }
  }
}
