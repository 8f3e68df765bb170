package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class FakeTimeTest {
  private static final Instant START = Instant.parse("2030-06-01T12:00:00Z");
  private final FakeTime time = FakeTime.startingAt(START);
  private final ScheduledExecutorService scheduler = time.scheduler();
  private final List<String> ran = new CopyOnWriteArrayList<>();

  @Test
  void theClockMovesOnlyWhenAdvanced() {
    assertThat(time.instant()).isEqualTo(START);
    assertThat(time.instant()).isEqualTo(START);
    time.advance(Duration.ofMillis(1500));
    assertThat(time.instant()).isEqualTo(START.plusMillis(1500));
    assertThatThrownBy(() -> time.advance(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(time.instant()).isEqualTo(START.plusMillis(1500));
  }

  @Test
  void tasksRunInDueOrderEachSeeingItsOwnDueTime() {
    scheduler.schedule(() -> ran.add("c@" + time.instant()), 30, TimeUnit.SECONDS);
    scheduler.schedule(() -> ran.add("a@" + time.instant()), 10, TimeUnit.SECONDS);
    scheduler.schedule(() -> ran.add("b@" + time.instant()), 10, TimeUnit.SECONDS);

    time.advance(Duration.ofSeconds(20));
    assertThat(ran).containsExactly("a@" + START.plusSeconds(10), "b@" + START.plusSeconds(10));
    assertThat(time.instant()).isEqualTo(START.plusSeconds(20));
    assertThat(time.pendingTasks()).isEqualTo(1);

    time.advance(Duration.ofSeconds(10));
    assertThat(ran).hasSize(3).last().isEqualTo("c@" + START.plusSeconds(30));
    assertThat(time.pendingTasks()).isZero();
  }

  @Test
  void aTaskScheduledWhileAdvancingRunsInTheSameAdvanceWhenItFallsDueWithinIt() {
    scheduler.schedule(
        () -> {
          ran.add("first");
          scheduler.schedule(() -> ran.add("inside"), 5, TimeUnit.SECONDS);
          scheduler.schedule(() -> ran.add("beyond"), 50, TimeUnit.SECONDS);
        },
        1,
        TimeUnit.SECONDS);
    time.advance(Duration.ofSeconds(10));
    assertThat(ran).containsExactly("first", "inside");
    assertThat(time.pendingTasks()).isEqualTo(1);
  }

  @Test
  void aTaskWithNoDelayWaitsForTheNextAdvanceEvenOfZero() throws Exception {
    ScheduledFuture<String> now =
        scheduler.schedule(
            () -> {
              ran.add("now");
              return "its result";
            },
            0,
            TimeUnit.SECONDS);
    scheduler.execute(() -> ran.add("executed"));
    assertThat(ran).isEmpty();
    time.advance(Duration.ZERO);
    assertThat(ran).containsExactly("now", "executed");
    assertThat(now.isDone()).isTrue();
    assertThat(now.get()).isEqualTo("its result");
  }

  @Test
  void aFixedRateTaskRunsOncePerPeriodUntilCancelled() {
    AtomicInteger ticks = new AtomicInteger();
    ScheduledFuture<?> ticker =
        scheduler.scheduleAtFixedRate(ticks::incrementAndGet, 100, 100, TimeUnit.MILLISECONDS);
    time.advance(Duration.ofMillis(350));
    assertThat(ticks).hasValue(3);
    assertThat(ticker.getDelay(TimeUnit.MILLISECONDS)).isEqualTo(50);

    assertThat(ticker.cancel(false)).isTrue();
    assertThat(time.pendingTasks()).isZero();
    time.advance(Duration.ofSeconds(1));
    assertThat(ticks).hasValue(3);
    assertThat(ticker.isCancelled()).isTrue();
  }

  @Test
  void aFixedDelayTaskCountsItsDelayFromItsRun() {
    List<Instant> runs = new CopyOnWriteArrayList<>();
    scheduler.scheduleWithFixedDelay(() -> runs.add(time.instant()), 10, 30, TimeUnit.SECONDS);
    time.advance(Duration.ofSeconds(75));
    assertThat(runs)
        .containsExactly(START.plusSeconds(10), START.plusSeconds(40), START.plusSeconds(70));
  }

  @Test
  void aPeriodicTaskThatThrowsRunsNoMoreAndItsFutureHoldsTheFailure() {
    AtomicInteger runs = new AtomicInteger();
    ScheduledFuture<?> failing =
        scheduler.scheduleAtFixedRate(
            () -> {
              if (runs.incrementAndGet() == 2) {
                throw new IllegalStateException("boom");
              }
            },
            1,
            1,
            TimeUnit.SECONDS);
    time.advance(Duration.ofSeconds(10));
    assertThat(runs).hasValue(2);
    assertThat(failing.isDone()).isTrue();
    assertThatThrownBy(failing::get)
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseMessage("boom");
  }

  @Test
  void aCancelledTaskNeverRuns() {
    ScheduledFuture<?> task = scheduler.schedule(() -> ran.add("x"), 1, TimeUnit.SECONDS);
    assertThat(time.pendingTasks()).isEqualTo(1);
    task.cancel(false);
    assertThat(time.pendingTasks()).isZero();
    time.advance(Duration.ofSeconds(5));
    assertThat(ran).isEmpty();
  }

  @Test
  void shutdownRefusesNewTasksAndStopsPeriodicOnesWhileDelayedOnesStillRun() {
    AtomicInteger ticks = new AtomicInteger();
    ScheduledFuture<?> ticker =
        scheduler.scheduleAtFixedRate(ticks::incrementAndGet, 1, 1, TimeUnit.SECONDS);
    scheduler.schedule(() -> ran.add("delayed"), 5, TimeUnit.SECONDS);
    scheduler.shutdown();

    assertThat(ticker.isCancelled()).isTrue();
    assertThatThrownBy(() -> scheduler.schedule(() -> ran.add("late"), 1, TimeUnit.SECONDS))
        .isInstanceOf(RejectedExecutionException.class);
    assertThat(scheduler.isTerminated()).isFalse();
    time.advance(Duration.ofSeconds(10));
    assertThat(ticks).hasValue(0);
    assertThat(ran).containsExactly("delayed");
    assertThat(scheduler.isTerminated()).isTrue();
  }

  @Test
  void shutdownNowDropsEveryQueuedTask() {
    scheduler.schedule(() -> ran.add("dropped"), 1, TimeUnit.SECONDS);
    assertThat(scheduler.shutdownNow()).hasSize(1);
    time.advance(Duration.ofSeconds(5));
    assertThat(ran).isEmpty();
    assertThat(scheduler.isTerminated()).isTrue();
  }
}
