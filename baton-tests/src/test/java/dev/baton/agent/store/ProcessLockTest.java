package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLockTest {
  @TempDir Path dir;

  /**
   * Holds the folder's lock on a thread of its own until the returned latch is counted down; the
   * lock is held when this returns.
   */
  private CountDownLatch holdOnAnotherThread(Path folder) throws InterruptedException {
    CountDownLatch held = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () ->
                ProcessLock.hold(
                    folder,
                    () -> {
                      held.countDown();
                      awaitQuietly(release);
                      return null;
                    }));
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
    return release;
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void aThreadWaitingForTheLockStopsWithCancelledWhenInterrupted() throws Exception {
    CountDownLatch release = holdOnAnotherThread(dir);
    AtomicInteger ran = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    ProcessLock.hold(dir, ran::incrementAndGet);
                  } catch (RuntimeException e) {
                    failure.set(e);
                  }
                });
    await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.WAITING);

    thread.interrupt();
    thread.join(10_000);
    boolean stoppedWhileHeld = !thread.isAlive();
    release.countDown();
    thread.join(10_000);

    assertThat(stoppedWhileHeld).as("stopped while the lock was still held").isTrue();
    assertThat(ran).hasValue(0);
    assertThat(failure.get())
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(ProcessLock.hold(dir, ran::incrementAndGet)).isEqualTo(1);
  }

  @Test
  void aThreadOfThisJvmWaitsForTheHolderWithoutSpinning() throws Exception {
    CountDownLatch release = holdOnAnotherThread(dir);
    AtomicInteger ran = new AtomicInteger();
    Thread thread = Thread.ofPlatform().start(() -> ProcessLock.hold(dir, ran::incrementAndGet));

    // A spinning waiter sleeps for a bounded time (TIMED_WAITING) and wakes up again and again;
    // one queued on a lock parks until it is handed the lock.
    await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.WAITING);
    assertThat(ran).hasValue(0);

    release.countDown();
    thread.join(10_000);
    assertThat(ran).hasValue(1);
  }

  @Test
  void anotherSpellingOfTheSameFolderSharesItsLock() throws Exception {
    Path link =
        Files.createSymbolicLink(dir.resolve("link"), Files.createDirectory(dir.resolve("real")));
    CountDownLatch release = holdOnAnotherThread(dir.resolve("real"));
    AtomicInteger ran = new AtomicInteger();
    Thread thread = Thread.ofPlatform().start(() -> ProcessLock.hold(link, ran::incrementAndGet));

    await().atMost(Duration.ofSeconds(10)).until(() -> thread.getState() == Thread.State.WAITING);

    release.countDown();
    thread.join(10_000);
    assertThat(ran).hasValue(1);
  }

  @Test
  void bodyRunsAndItsValueIsReturned() throws IOException {
    assertThat(ProcessLock.hold(dir.resolve("new/folder"), () -> "done")).isEqualTo("done");
    assertThat(dir.resolve("new/folder/.lock")).isRegularFile();
  }
}
