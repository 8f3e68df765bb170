package dev.baton.internal.core;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Where a Baton instance's runtime reads the time and runs its timers: the clock that stamps rows
 * and judges heartbeats, and the scheduler of heartbeats, the stop of an aborted run's beats and
 * the pauses of waits and retries. Both come from {@code Baton.builder()}; tests pass a fake whose
 * time moves only when they say, so no test waits for a real interval.
 *
 * <p>Without a scheduler of the application's, each agent's heartbeat timer has a thread of its own
 * and waits time themselves on the clock of the JVM, as they always did.
 *
 * @param clock the instance's clock
 * @param scheduler the application's scheduler, which Baton never shuts down; null for Baton's own
 *     timers
 */
public record Timing(InstantSource clock, @Nullable ScheduledExecutorService scheduler) {
  private static final Timing SYSTEM = new Timing(InstantSource.system(), null);

  public Timing {
    Objects.requireNonNull(clock, "clock");
  }

  /** The timing of the instance whose registry {@code context} carries. */
  public static Timing of(ActionContext context) {
    return DefaultRegistry.timing(context.registry());
  }

  /** The clock's current instant. */
  public Instant now() {
    return clock.instant();
  }

  /** The JVM's clock and Baton's own timers. */
  public static Timing system() {
    return SYSTEM;
  }

  /**
   * Waits for {@code duration} on this timing's scheduler, or less when {@code wake} is counted
   * down or {@code cancellation} fires.
   *
   * @throws BatonException the cancellation's reason when it fires before or during the wait,
   *     {@code CANCELLED} when the thread is interrupted (its interrupt flag is kept), or {@code
   *     FAILED_PRECONDITION} when the application's scheduler refuses the timer
   */
  public void pause(Cancellation cancellation, Duration duration, CountDownLatch wake) {
    cancellation.throwIfCancelled();
    if (!duration.isPositive()) {
      return;
    }
    ScheduledExecutorService timers = scheduler;
    try (var onCancel = cancellation.onCancel(wake::countDown)) {
      if (timers == null) {
        wake.await(duration.toNanos(), TimeUnit.NANOSECONDS);
      } else {
        // The wait itself is untimed: only the scheduler's time ends it, fake or real.
        ScheduledFuture<?> timer;
        try {
          timer = timers.schedule(wake::countDown, duration.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
          throw BatonException.failedPrecondition(
              "the scheduler given to Baton.builder().scheduler() was shut down while the instance"
                  + " still needs it");
        }
        try {
          wake.await();
        } finally {
          timer.cancel(false);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
    cancellation.throwIfCancelled();
  }

  /** {@link #pause(Cancellation, Duration, CountDownLatch)} with nothing else to wake it. */
  public void pause(Cancellation cancellation, Duration duration) {
    pause(cancellation, duration, new CountDownLatch(1));
  }
}
