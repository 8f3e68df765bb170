package dev.baton.internal.agent;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.internal.core.Timing;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a store call again while it fails transiently, so that a database that restarts, fails over
 * or drops a connection does not cost a turn's end or a detached run's result.
 *
 * <p>A failure is transient when its status says the store could not do the work just now: {@code
 * UNAVAILABLE}, {@code ABORTED} (a conflict to try again) or {@code DEADLINE_EXCEEDED}. Any other
 * failure is thrown at once, since trying again cannot change it. Attempts are spaced 50 ms apart
 * at first, twice as far each time, up to 2 s, each pause drawn within 50% of that so that the many
 * runs an outage hits do not all come back at once; none starts later than {@code bound} after the
 * first began, and the last failure is thrown (and logged when it was not the first). A
 * cancellation cuts the wait short: the retries stop, and its reason is thrown.
 *
 * <p>Only idempotent calls may be retried: a write reported failed may have committed all the same
 * (the connection died before the commit was acknowledged), and the next attempt must then leave
 * the row as the first did. The runtime's writes are: each saves a row under an ID chosen before
 * the first attempt, with content fixed before it or derived from the stored row.
 */
final class StoreRetry {
  private static final Logger log = LoggerFactory.getLogger(StoreRetry.class);
  private static final Set<Status> TRANSIENT =
      Set.of(Status.UNAVAILABLE, Status.ABORTED, Status.DEADLINE_EXCEEDED);
  private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private static final long LONGEST_PAUSE_NANOS = TimeUnit.SECONDS.toNanos(2);

  private StoreRetry() {}

  /**
   * The call's result, from the first attempt that succeeds.
   *
   * @param timing the clock that measures {@code bound} and the scheduler that times the pauses
   * @param cancellation stops the retries; {@link Cancellation#never()} for a write that must land
   *     whoever has gone away
   * @param what what the call does, for the log
   * @throws RuntimeException the last failure, when it is not transient or {@code bound} has passed
   * @throws BatonException the cancellation's reason, with the last failure suppressed, when it is
   *     cancelled between attempts
   */
  static <T extends @Nullable Object> T call(
      Timing timing, Cancellation cancellation, Duration bound, String what, Supplier<T> call) {
    Instant start = timing.now();
    long pause = FIRST_PAUSE_NANOS;
    for (int attempt = 1; ; attempt++) {
      try {
        return call.get();
      } catch (RuntimeException e) {
        long left = bound.minus(Duration.between(start, timing.now())).toNanos();
        if (!isTransient(e) || left <= 0) {
          if (attempt > 1) {
            // The caller's error may be public (UNAVAILABLE) and so logged nowhere else.
            log.warn("{}: gave up after {} attempts", what, attempt, e);
          }
          throw e;
        }
        log.debug("{}: attempt {} failed transiently; trying again", what, attempt, e);
        try {
          timing.pause(cancellation, Duration.ofNanos(Math.min(jittered(pause), left)));
        } catch (BatonException stopped) {
          stopped.addSuppressed(e);
          throw stopped;
        }
        pause = Math.min(pause * 2, LONGEST_PAUSE_NANOS);
      }
    }
  }

  /** A pause drawn uniformly within 50% of {@code pause} either side. */
  static long jittered(long pause) {
    return pause / 2 + ThreadLocalRandom.current().nextLong(pause + 1);
  }

  private static boolean isTransient(RuntimeException e) {
    return e instanceof BatonException error && TRANSIENT.contains(error.status());
  }
}
