package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
