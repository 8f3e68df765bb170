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
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A writer killed between the steps of a commit never hides a row whose save returned, nor one
 * whose file is in place. A JVM of its own saves new rows of one session in a loop, printing each
 * ID once its save has returned, and dies in one of three ways: SIGKILL from this test after a
 * random number of reported rows, wherever it is in its loop; or {@link Runtime#halt} right after a
 * chosen save has written its row (its pointer still names the row before, and only the save's
 * marker says it is stale), or its pointer. The next trial's JVM goes on in the same folder. Each
 * trial runs in a boot of its own (a fresh boot ID, so each JVM starts by verifying the folder),
 * and the store that checks the trial opens the folder in that same boot, as the machine did not
 * crash: it trusts the pointers the killed JVM left, so a pointer that named an older row would be
 * returned. A kill loses no page cache; {@link FileSessionStoreLostPageCacheTest} plays a crash of
 * the machine.
 */
class FileSessionStoreKillTest {
  private static final int TRIALS = 3;
  private static final int MAX_ROWS_PER_TRIAL = 20;
  private static final String SESSION = "sess-1";

  /** How the writer of a trial dies. */
  enum Death {
    SIGKILL,
    HALT_AFTER_ROW,
    HALT_AFTER_POINTER
  }

  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  /** The ID of the {@code n}th row of the session, saved by the JVM of trial {@code trial}. */
  private static String rowId(int trial, long n) {
    return String.format("s%06d-t%d", n, trial);
  }

  private static long sequenceOf(String rowId) {
    return Long.parseLong(rowId.substring(1, rowId.indexOf('-')));
  }

  @ParameterizedTest
  @EnumSource(Death.class)
  void aKilledWriterNeverHidesACommittedRow(Death death) throws Exception {
    for (int trial = 1; trial <= TRIALS; trial++) {
      String bootId = "boot-" + death + "-" + trial;
      // At least one row reported in each trial, so that the last one is this trial's.
      int dieAt = ThreadLocalRandom.current().nextInt(2, MAX_ROWS_PER_TRIAL + 1);
      List<String> reported = runUntilDeath(trial, bootId, death, dieAt);
      String lastReported = reported.get(reported.size() - 1);
      String inFlight = rowId(trial, sequenceOf(lastReported) + 1);

      FileSessionStore store = FileSessionStore.builder(dir).bootId(bootId).build();
      SessionSnapshot latest = store.getLatestSnapshot(context, SESSION);

      assertThat(latest).as("trial %d, %s at row %d", trial, death, dieAt).isNotNull();
      switch (death) {
        case SIGKILL -> assertThat(latest.snapshotId()).isIn(lastReported, inFlight);
        // The row is in place, though its save never returned: it is committed, and the latest,
        // whether or not the pointer names it yet.
        case HALT_AFTER_ROW, HALT_AFTER_POINTER -> {
          assertThat(reported).hasSize(dieAt - 1);
          assertThat(latest.snapshotId()).isEqualTo(inFlight);
        }
      }
      assertThat(reported).allSatisfy(id -> assertThat(store.getSnapshot(context, id)).isNotNull());
    }
  }

  /**
   * Runs the writer for one trial until it dies as {@code death} says, at its {@code dieAt}th row,
   * and returns every row it reported in whole lines: a line the kill cut short is left out, which
   * only widens what the test allows by the row whose save was in flight.
   */
  private List<String> runUntilDeath(int trial, String bootId, Death death, int dieAt)
      throws Exception {
    Path errors = dir.resolveSibling(dir.getFileName() + "-writer-" + trial + ".err");
    Process writer =
        new ProcessBuilder(
                TestJvm.command(
                    Writer.class,
                    List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"),
                    List.of(
                        dir.toString(),
                        String.valueOf(trial),
                        bootId,
                        death.name(),
                        String.valueOf(dieAt))))
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
        if (death == Death.SIGKILL && reported.size() == dieAt) {
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
        .hasSizeGreaterThanOrEqualTo(death == Death.SIGKILL ? dieAt : dieAt - 1);
    if (death != Death.SIGKILL) {
      assertThat(writer.exitValue()).as("halted by the writer itself").isEqualTo(Writer.HALTED);
    }
    Files.deleteIfExists(errors);
    return reported;
  }

  /**
   * The writer: goes on from the session's latest row in the folder named by its first argument,
   * saving the next row of the lineage, one second of {@code createdAt} later, again and again, and
   * printing each ID once its save returned. Each trial's IDs carry its number, so that no trial
   * rewrites a row that a killed one left behind. Arguments: the folder, the trial, the boot ID,
   * how it dies ({@link Death}) and at which of its saves.
   */
  static final class Writer {
    static final int HALTED = 3;

    private Writer() {}

    public static void main(String[] args) {
      int trial = Integer.parseInt(args[1]);
      Death death = Death.valueOf(args[3]);
      long dieAt = Long.parseLong(args[4]);
      // Which of this JVM's saves is in flight, counted from 1.
      AtomicLong saving = new AtomicLong();
      FileSessionStore.CommitStep fatal =
          switch (death) {
            case HALT_AFTER_POINTER -> FileSessionStore.CommitStep.POINTER_STEP_DONE;
            case HALT_AFTER_ROW -> FileSessionStore.CommitStep.ROW_WRITTEN;
            case SIGKILL -> null;
          };
      FileSessionStore store =
          FileSessionStore.builder(Path.of(args[0]))
              .syncDirectories(false)
              .bootId(args[2])
              .onCommitStep(
                  step -> {
                    if (step == fatal && saving.get() == dieAt) {
                      Runtime.getRuntime().halt(HALTED);
                    }
                  })
              .build();
      ActionContext context = Baton.builder().build().context();
      SessionSnapshot latest = store.getLatestSnapshot(context, SESSION);
      String parent = latest == null ? null : latest.snapshotId();
      for (long n = parent == null ? 1 : sequenceOf(parent) + 1; ; n++) {
        SessionSnapshot next = row(rowId(trial, n), SESSION, at(n));
        SessionSnapshot linked = parent == null ? next : withParentId(next, parent);
        saving.incrementAndGet();
        store.saveSnapshot(context, linked.snapshotId(), existing -> linked);
        System.out.println(linked.snapshotId());
        System.out.flush();
        parent = linked.snapshotId();
      }
    }
  }
}
