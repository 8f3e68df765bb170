package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file store removes the temporary files of killed writers, and only theirs. */
class FileSessionStoreLeftoversTest {
  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  /** A temporary file as a writer killed {@code age} ago left it. */
  private Path leftover(String folder, String name, Duration age) throws IOException {
    Path file = dir.resolve(folder).resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "{\"snapshotId\": \"half");
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  @Test
  void openingTheStoreRemovesOldTemporaryFilesInEveryFolder() throws IOException {
    Path row = leftover("global", "s1.json.k2j4.tmp", Duration.ofMinutes(5));
    Path pointer = leftover("global/.pointers", "sess-1.json.x9.tmp", Duration.ofHours(3));
    Path tenant = leftover("org-42/user-7", "s9.json.1.tmp", Duration.ofDays(2));
    Path live = leftover("global", "s2.json.live.tmp", Duration.ofSeconds(1));
    Path notOurs = leftover("global", "notes.txt", Duration.ofDays(2));

    FileSessionStore.builder(dir).build();

    assertThat(row).doesNotExist();
    assertThat(pointer).doesNotExist();
    assertThat(tenant).doesNotExist();
    assertThat(live).as("a file a live writer may be writing").exists();
    assertThat(notOurs).exists();
  }

  @Test
  void aScanRemovesOldTemporaryFilesItComesAcross() throws IOException {
    FileSessionStore store = FileSessionStore.builder(dir).build();
    SessionSnapshot saved = row("s1", "sess-1", at(1));
    store.saveSnapshot(context, "s1", existing -> saved);
    Files.delete(dir.resolve("global/.pointers/sess-1.json"));
    Path killed = leftover("global", "s2.json.k2j4.tmp", Duration.ofMinutes(2));
    Path live = leftover("global", "s3.json.live.tmp", Duration.ZERO);

    assertThat(store.getLatestSnapshot(context, "sess-1")).isEqualTo(saved);

    assertThat(killed).doesNotExist();
    assertThat(live).exists();
  }

  @Test
  void aFolderAnotherWriterHoldsIsSweptOnlyOnceItIsFree() throws Exception {
    Path killed = leftover("global", "s1.json.k2j4.tmp", Duration.ofMinutes(2));
    CountDownLatch lockHeld = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Map<String, Boolean> seenUnderLock = new ConcurrentHashMap<>();
    Thread writer =
        Thread.ofVirtual()
            .start(
                () ->
                    ProcessLock.hold(
                        dir.resolve("global"),
                        () -> {
                          lockHeld.countDown();
                          try {
                            release.await();
                          } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                          }
                          seenUnderLock.put("leftover", Files.exists(killed));
                          return null;
                        }));
    lockHeld.await();
    Thread opener = Thread.ofVirtual().start(() -> FileSessionStore.builder(dir).build());
    await().until(() -> opener.getState() == Thread.State.WAITING);
    assertThat(killed).exists();

    release.countDown();
    writer.join();
    opener.join();

    assertThat(seenUnderLock).containsEntry("leftover", true);
    assertThat(killed).doesNotExist();
  }
}
