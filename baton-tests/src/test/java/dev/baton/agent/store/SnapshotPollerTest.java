package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SnapshotPollerTest {
  private static final Duration INTERVAL = Duration.ofMillis(2);

  @Test
  void runsRepeatedlyWhileStartedAndKeepsGoingAfterAFailure() throws InterruptedException {
    CountDownLatch threeRuns = new CountDownLatch(3);
    SnapshotPoller poller =
        new SnapshotPoller(
            INTERVAL,
            () -> {
              threeRuns.countDown();
              throw new IllegalStateException("a failing round");
            },
            "test-poller");

    poller.start();
    try {
      assertThat(threeRuns.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(poller.isRunning()).isTrue();
    } finally {
      poller.stop();
    }
    assertThat(poller.isRunning()).isFalse();
  }

  @Test
  void stoppedThreadExitsAndRestartUsesANewOne() throws InterruptedException {
    AtomicReference<Thread> runner = new AtomicReference<>();
    AtomicInteger runs = new AtomicInteger();
    SnapshotPoller poller =
        new SnapshotPoller(
            INTERVAL,
            () -> {
              runner.set(Thread.currentThread());
              runs.incrementAndGet();
            },
            "test-poller");

    poller.start();
    poller.start();
    awaitRuns(runs, 1);
    poller.stop();
    Thread first = runner.get();
    first.join(Duration.ofSeconds(10));
    assertThat(first.isAlive()).isFalse();

    poller.start();
    int before = runs.get();
    awaitRuns(runs, before + 1);
    poller.stop();
    assertThat(runner.get()).isNotSameAs(first);
    assertThat(runner.get().isVirtual()).isTrue();
  }

  @Test
  void intervalMustBePositive() {
    assertThatThrownBy(() -> new SnapshotPoller(Duration.ZERO, () -> {}, "test-poller"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static void awaitRuns(AtomicInteger runs, int atLeast) {
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> runs.get() >= atLeast);
  }
}
