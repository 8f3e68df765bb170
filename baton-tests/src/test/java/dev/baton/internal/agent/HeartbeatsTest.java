package dev.baton.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.internal.core.Timing;
import dev.baton.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The agent's one heartbeat ticker: who it beats, and when it runs at all. On fake time, so each
 * test counts beats exactly: a tick runs only when the test advances the clock.
 */
class HeartbeatsTest {
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private final FakeTime time = FakeTime.create();
  private final Heartbeats heartbeats =
      new Heartbeats("test", INTERVAL, new Timing(time, time.scheduler()));

  private static final class Counting implements Heartbeats.Beating {
    final AtomicInteger beats = new AtomicInteger();

    @Override
    public void beat() {
      beats.incrementAndGet();
    }
  }

  private void advanceTicks(int ticks) {
    time.advance(INTERVAL.multipliedBy(ticks));
  }

  @Test
  void everyRunBeatsOncePerIntervalUntilItLeaves() {
    Counting leaving = new Counting();
    Counting staying = new Counting();
    heartbeats.add(leaving);
    heartbeats.add(staying);
    time.advance(INTERVAL.minusMillis(1));
    assertThat(leaving.beats).as("the first beat comes an interval after joining").hasValue(0);
    time.advance(Duration.ofMillis(1));
    advanceTicks(1);
    assertThat(leaving.beats).hasValue(2);
    assertThat(staying.beats).hasValue(2);

    assertThat(heartbeats.remove(leaving)).isTrue();
    advanceTicks(3);
    assertThat(leaving.beats).hasValue(2);
    assertThat(staying.beats).hasValue(5);
    assertThat(heartbeats.remove(leaving)).as("no longer beating").isFalse();
  }

  @Test
  void theTickerStopsWithoutRunsAndStartsAgainForTheNext() {
    Counting first = new Counting();
    heartbeats.add(first);
    advanceTicks(1);
    assertThat(first.beats).hasValue(1);
    heartbeats.remove(first);
    // The next tick finds no run and stops the ticker: no timer is left.
    advanceTicks(1);
    assertThat(heartbeats.isTicking()).isFalse();
    assertThat(time.pendingTasks()).isZero();

    Counting next = new Counting();
    heartbeats.add(next);
    assertThat(heartbeats.isTicking()).isTrue();
    advanceTicks(2);
    assertThat(next.beats).hasValue(2);
  }

  @Test
  void aRunThatCannotBeatDoesNotStopTheOthers() {
    heartbeats.add(
        () -> {
          throw new IllegalStateException("no thread for this beat");
        });
    Counting healthy = new Counting();
    heartbeats.add(healthy);
    advanceTicks(3);
    assertThat(healthy.beats).hasValue(3);
  }

  @Test
  void aRunWhoseBeatThrowsAnErrorDoesNotStopTheOthersNorTheRunsThatJoinLater() {
    heartbeats.add(
        () -> {
          throw new StackOverflowError("a beat that overflowed");
        });
    Counting healthy = new Counting();
    heartbeats.add(healthy);
    advanceTicks(3);
    assertThat(healthy.beats).hasValue(3);
    Counting later = new Counting();
    heartbeats.add(later);
    advanceTicks(3);
    assertThat(later.beats).hasValue(3);
  }

  @Test
  void manyRunsJoiningAndLeavingConcurrentlyLeaveTheRemainingOnesBeating() throws Exception {
    // Runs join and leave from many threads while the ticker starts and stops: the runs still in
    // the set at the end all beat, and an empty set stops the ticker.
    Counting[] runs = new Counting[200];
    Thread[] threads = new Thread[runs.length];
    for (int i = 0; i < runs.length; i++) {
      Counting run = new Counting();
      runs[i] = run;
      boolean leaves = i % 2 == 0;
      threads[i] =
          Thread.ofVirtual()
              .start(
                  () -> {
                    heartbeats.add(run);
                    if (leaves) {
                      heartbeats.remove(run);
                    }
                  });
      if (i % 50 == 0) {
        // Ticks while runs join and leave.
        time.advance(INTERVAL);
      }
    }
    for (Thread thread : threads) {
      thread.join();
    }
    int[] before = new int[runs.length];
    for (int i = 0; i < runs.length; i++) {
      before[i] = runs[i].beats.get();
    }
    advanceTicks(1);
    for (int i = 0; i < runs.length; i++) {
      assertThat(runs[i].beats.get() - before[i]).as("beats of run %d", i).isEqualTo(i % 2);
    }
    for (int i = 1; i < runs.length; i += 2) {
      heartbeats.remove(runs[i]);
    }
    advanceTicks(1);
    assertThat(heartbeats.isTicking()).isFalse();
  }
}
