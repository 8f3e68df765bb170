package dev.baton.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The agent's one heartbeat ticker: who it beats, and when it runs at all. */
class HeartbeatsTest {
  private final Heartbeats heartbeats = new Heartbeats("test", Duration.ofMillis(5));

  private static final class Counting implements Heartbeats.Beating {
    final AtomicInteger beats = new AtomicInteger();

    @Override
    public void beat() {
      beats.incrementAndGet();
    }
  }

  @Test
  void everyRunBeatsUntilItLeaves() {
    Counting leaving = new Counting();
    Counting staying = new Counting();
    heartbeats.add(leaving);
    heartbeats.add(staying);
    await().until(() -> leaving.beats.get() >= 2 && staying.beats.get() >= 2);

    assertThat(heartbeats.remove(leaving)).isTrue();
    // A tick may be between reading the set and calling the run: one more beat at most.
    int atRemoval = leaving.beats.get();
    int stayingAtRemoval = staying.beats.get();
    await().until(() -> staying.beats.get() >= stayingAtRemoval + 3);
    assertThat(leaving.beats.get()).isLessThanOrEqualTo(atRemoval + 1);
    assertThat(heartbeats.remove(leaving)).as("no longer beating").isFalse();
  }

  @Test
  void theTickerStopsWithoutRunsAndStartsAgainForTheNext() {
    Counting first = new Counting();
    heartbeats.add(first);
    await().until(() -> first.beats.get() >= 1);
    heartbeats.remove(first);
    await().until(() -> !heartbeats.isTicking());

    Counting next = new Counting();
    heartbeats.add(next);
    assertThat(heartbeats.isTicking()).isTrue();
    await().until(() -> next.beats.get() >= 2);
  }

  @Test
  void aRunThatCannotBeatDoesNotStopTheOthers() {
    heartbeats.add(
        () -> {
          throw new IllegalStateException("no thread for this beat");
        });
    Counting healthy = new Counting();
    heartbeats.add(healthy);
    await().until(() -> healthy.beats.get() >= 3);
  }

  @Test
  void aRunWhoseBeatThrowsAnErrorDoesNotStopTheOthersNorTheRunsThatJoinLater() {
    heartbeats.add(
        () -> {
          throw new StackOverflowError("a beat that overflowed");
        });
    Counting healthy = new Counting();
    heartbeats.add(healthy);
    await().until(() -> healthy.beats.get() >= 3);
    Counting later = new Counting();
    heartbeats.add(later);
    await().until(() -> later.beats.get() >= 3);
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
    }
    for (Thread thread : threads) {
      thread.join();
    }
    // One wait for all of them: each wait of its own would first sleep Awaitility's poll delay.
    await()
        .until(
            () -> {
              for (int i = 1; i < runs.length; i += 2) {
                if (runs[i].beats.get() < 1) {
                  return false;
                }
              }
              return true;
            });
    for (int i = 1; i < runs.length; i += 2) {
      heartbeats.remove(runs[i]);
    }
    await().until(() -> !heartbeats.isTicking());
  }
}
