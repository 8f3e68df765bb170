package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.testing.FakeTime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The pauses of waits and retries, on the instance's scheduler. */
class TimingTest {
  private static final Duration PAUSE = Duration.ofSeconds(30);
  private final FakeTime time = FakeTime.create();
  private final Timing timing = new Timing(time, time.scheduler());

  private CompletableFuture<Void> pauseInBackground(
      Cancellation cancellation, CountDownLatch wake) {
    CompletableFuture<Void> paused = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                timing.pause(cancellation, PAUSE, wake);
                paused.complete(null);
              } catch (Throwable e) {
                paused.completeExceptionally(e);
              }
            });
    await().until(time::pendingTasks, n -> n == 1);
    return paused;
  }

  @Test
  void aPauseEndsWhenTheSchedulersTimeHasPassedNotBefore() throws Exception {
    CompletableFuture<Void> paused = pauseInBackground(Cancellation.never(), new CountDownLatch(1));
    time.advance(PAUSE.minusMillis(1));
    assertThat(time.pendingTasks()).as("its timer is still armed").isEqualTo(1);
    time.advance(Duration.ofMillis(1));
    paused.get(10, TimeUnit.SECONDS);
  }

  @Test
  void aWakeEndsThePauseAtOnceAndDisarmsItsTimer() throws Exception {
    CountDownLatch wake = new CountDownLatch(1);
    CompletableFuture<Void> paused = pauseInBackground(Cancellation.never(), wake);
    wake.countDown();
    paused.get(10, TimeUnit.SECONDS);
    assertThat(time.pendingTasks()).isZero();
  }

  @Test
  void aCancellationEndsThePauseWithItsReason() {
    Cancellation cancellation = Cancellation.create();
    CompletableFuture<Void> paused = pauseInBackground(cancellation, new CountDownLatch(1));
    cancellation.cancel(BatonException.of(Status.ABORTED, "stop"));
    assertThatThrownBy(() -> paused.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ABORTED));
  }

  @Test
  void aPauseOnASchedulerThatWasShutDownFailsItsPrecondition() {
    time.scheduler().shutdown();
    assertThatThrownBy(() -> timing.pause(Cancellation.never(), PAUSE))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("Baton.builder().scheduler()");
  }

  @Test
  void withoutASchedulerAPauseTimesItselfAndAWakeStillEndsIt() {
    CountDownLatch wake = new CountDownLatch(1);
    wake.countDown();
    Timing.system().pause(Cancellation.never(), Duration.ofDays(1), wake);
    assertThat(Timing.system().scheduler()).isNull();
  }
}
