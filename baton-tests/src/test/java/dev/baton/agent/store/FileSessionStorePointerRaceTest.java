package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers racing the writer of a session's pointer: whatever a reader meets, Baton never answers
 * with a row older than the newest one committed when the read began, and a pointer is never seen
 * torn. The checksum is the second line of defence: it rejects every mix of an old pointer and a
 * new one, which an in-place write would let a reader see.
 */
class FileSessionStorePointerRaceTest {
  private static final int ROWS = 300;
  private static final int READERS = 2;

  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  private static long sequenceOf(SessionSnapshot row) {
    return Long.parseLong(row.snapshotId().substring(1));
  }

  @Test
  void readersRacingTheWriterNeverSeeATornPointerNorAnOlderRowThanTheNewestCommitted()
      throws Exception {
    FileSessionStore writer =
        FileSessionStore.builder(dir).bootId("boot-1").syncDirectories(false).build();
    // Another instance over the folder, as another process of the machine would open it.
    FileSessionStore reader = FileSessionStore.builder(dir).bootId("boot-1").build();
    Path pointer = dir.resolve("global/.pointers/sess-1.json");
    AtomicLong committed = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();

    ExecutorService threads = Executors.newFixedThreadPool(READERS);
    try {
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        readers.add(
            threads.submit(
                () -> {
                  while (!done.get()) {
                    long floor = committed.get();
                    SessionSnapshot latest = reader.getLatestSnapshot(context, "sess-1");
                    if (floor > 0) {
                      assertThat(latest).isNotNull();
                      assertThat(sequenceOf(latest)).isGreaterThanOrEqualTo(floor);
                    }
                    byte[] bytes;
                    try {
                      bytes = Files.readAllBytes(pointer);
                    } catch (NoSuchFileException beforeTheFirstSave) {
                      continue;
                    }
                    assertThat(SessionPointer.fromFileContent(bytes))
                        .as("a pointer as a reader meets it: %s", new String(bytes))
                        .isNotNull();
                    reads.incrementAndGet();
                  }
                  return null;
                }));
      }
      String parent = null;
      for (int i = 1; i <= ROWS; i++) {
        SessionSnapshot next = row("s" + i, "sess-1", at(i));
        SessionSnapshot linked = parent == null ? next : withParentId(next, parent);
        writer.saveSnapshot(context, linked.snapshotId(), existing -> linked);
        committed.set(i);
        parent = linked.snapshotId();
      }
      done.set(true);
      for (Future<?> each : readers) {
        each.get();
      }
    } finally {
      done.set(true);
      threads.shutdownNow();
    }
    assertThat(reads.get()).as("reads that met a pointer").isPositive();
  }

  @Test
  void theChecksumRejectsEveryMixOfAnOldPointerAndANewOne() {
    // Same length and shape, so every mix is valid JSON naming a snapshot: "turn-09" and
    // "turn-10" mix into "turn-00" and "turn-19" as well as into themselves.
    byte[] old =
        new SessionPointer("turn-09", at(9), Instant.parse("2026-01-01T00:00:09Z")).toFileContent();
    byte[] now =
        new SessionPointer("turn-10", at(10), Instant.parse("2026-01-01T00:00:10Z"))
            .toFileContent();
    assertThat(now).hasSameSizeAs(old);

    int mixes = 0;
    for (int cut = 0; cut <= old.length; cut++) {
      for (byte[] mix : List.of(splice(now, old, cut), splice(old, now, cut))) {
        if (Arrays.equals(mix, old) || Arrays.equals(mix, now)) {
          continue;
        }
        mixes++;
        assertThat(SessionPointer.fromFileContent(mix))
            .as("torn: %s", new String(mix, StandardCharsets.UTF_8))
            .isNull();
      }
    }
    assertThat(mixes).isPositive();
  }

  /** The first {@code cut} bytes of {@code head}, then the rest of {@code tail}. */
  private static byte[] splice(byte[] head, byte[] tail, int cut) {
    byte[] mix = tail.clone();
    System.arraycopy(head, 0, mix, 0, cut);
    return mix;
  }
}
