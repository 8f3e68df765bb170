package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.TestJvm;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL trials: a JVM of its own saves new rows of one session in a loop, printing each ID once
 * its save has returned, and is killed with SIGKILL after a random number of them, wherever it is
 * in its loop; the next trial's JVM goes on in the same folder. After each kill, the folder's
 * latest row is the last one the JVM reported, or the one it was saving when it was killed: a
 * process crash never hides a committed row. A kill loses no page cache, so this holds whatever the
 * pointer verification does; {@link FileSessionStoreLostPageCacheTest} plays a crash of the
 * machine.
 */
class FileSessionStoreKillTest {
  private static final int TRIALS = 5;
  private static final int MAX_ROWS_PER_TRIAL = 20;
  private static final String SESSION = "sess-1";

  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  /** The ID of the {@code n}th row of the session, saved by the JVM of trial {@code trial}. */
  private static String rowId(int trial, long n) {
    return String.format("s%06d-t%d", n, trial);
  }

  private static long sequenceOf(String rowId) {
    return Long.parseLong(rowId.substring(1, rowId.indexOf('-')));
  }

  @Test
  void aKilledWriterNeverHidesARowWhoseSaveReturned() throws Exception {
    for (int trial = 1; trial <= TRIALS; trial++) {
      int killAfter = ThreadLocalRandom.current().nextInt(1, MAX_ROWS_PER_TRIAL + 1);
      List<String> reported = runAndKill(trial, killAfter);
      String lastReported = reported.get(reported.size() - 1);

      FileSessionStore store = FileSessionStore.builder(dir).build();
      SessionSnapshot latest = store.getLatestSnapshot(context, SESSION);

      String inFlight = rowId(trial, sequenceOf(lastReported) + 1);
      assertThat(latest)
          .as("trial %d, killed after %d reported rows", trial, killAfter)
          .isNotNull()
          .extracting(SessionSnapshot::snapshotId)
          .isIn(lastReported, inFlight);
      assertThat(reported).allSatisfy(id -> assertThat(store.getSnapshot(context, id)).isNotNull());
    }
  }

  /**
   * Runs the writer for one trial, kills it with SIGKILL once it has reported {@code killAfter}
   * rows, and returns every row it reported in whole lines: a line the kill cut short is left out,
   * which only widens what the test allows by the row whose save was in flight.
   */
  private List<String> runAndKill(int trial, int killAfter) throws Exception {
    Path errors = dir.resolveSibling(dir.getFileName() + "-writer-" + trial + ".err");
    Process writer =
        new ProcessBuilder(
                TestJvm.command(
                    Writer.class,
                    List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"),
                    List.of(dir.toString(), String.valueOf(trial))))
            .redirectError(errors.toFile())
            .start();
    List<String> reported = new ArrayList<>();
    try (InputStream out = new BufferedInputStream(writer.getInputStream())) {
      StringBuilder line = new StringBuilder();
      for (int b = out.read(); b != -1; b = out.read()) {
        if (b != '\n') {
          line.append((char) b);
          continue;
        }
        reported.add(line.toString());
        line.setLength(0);
        if (reported.size() == killAfter) {
          // SIGKILL on POSIX systems: the JVM runs nothing more, not even shutdown hooks. Through
          // the handle, which unlike Process.destroyForcibly leaves the pipe open to read the rest.
          writer.toHandle().destroyForcibly();
        }
      }
    } finally {
      writer.destroyForcibly();
      assertThat(writer.waitFor(30, TimeUnit.SECONDS)).as("the writer ended").isTrue();
    }
    assertThat(reported)
        .as("rows the writer of trial %d reported; it wrote to standard error: %s", trial, errors)
        .hasSizeGreaterThanOrEqualTo(killAfter);
    Files.deleteIfExists(errors);
    return reported;
  }

  /**
   * The writer: goes on from the session's latest row in the folder named by its first argument,
   * saving the next row of the lineage, one second of {@code createdAt} later, again and again, and
   * printing each ID once its save returned. Each trial's IDs carry its number, so that no trial
   * rewrites a row that a killed one left behind.
   */
  static final class Writer {
    private Writer() {}

    public static void main(String[] args) {
      FileSessionStore store =
          FileSessionStore.builder(Path.of(args[0])).syncDirectories(false).build();
      int trial = Integer.parseInt(args[1]);
      ActionContext context = Baton.builder().build().context();
      SessionSnapshot latest = store.getLatestSnapshot(context, SESSION);
      String parent = latest == null ? null : latest.snapshotId();
      for (long n = parent == null ? 1 : sequenceOf(parent) + 1; ; n++) {
        SessionSnapshot next = row(rowId(trial, n), SESSION, at(n));
        SessionSnapshot linked = parent == null ? next : withParentId(next, parent);
        store.saveSnapshot(context, linked.snapshotId(), existing -> linked);
        System.out.println(linked.snapshotId());
        System.out.flush();
        parent = linked.snapshotId();
      }
    }
  }
}
