package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;

import dev.baton.AsciiNamesJvm;
import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Run by {@link FileSessionStoreIdsTest} in a JVM of its own whose file-name encoding is ASCII:
 * saves and reads back rows with non-ASCII IDs in the folder named by its argument, printing what
 * it read. Exits with {@link AsciiNamesJvm#NOT_ASCII} when the JVM's file-name encoding is not
 * ASCII after all, so the test can tell that it could not set up the case from a failure of the
 * store.
 */
final class AsciiLocaleProbe {
  static final String SNAPSHOT_ID = "snäp-1";
  static final String SESSION_ID = "sessión-1";

  private AsciiLocaleProbe() {}

  public static void main(String[] args) {
    if (!AsciiNamesJvm.namesFilesInAscii()) {
      System.out.println("file names are " + System.getProperty("sun.jnu.encoding"));
      System.exit(AsciiNamesJvm.NOT_ASCII);
    }
    FileSessionStore store = FileSessionStore.builder(Path.of(args[0])).build();
    ActionContext context = Baton.builder().build().context();
    store.saveSnapshot(context, SNAPSHOT_ID, existing -> row(SNAPSHOT_ID, SESSION_ID, at(1)));

    SessionSnapshot byId = Objects.requireNonNull(store.getSnapshot(context, SNAPSHOT_ID));
    SessionSnapshot latest = Objects.requireNonNull(store.getLatestSnapshot(context, SESSION_ID));
    // Printed in ASCII: the probe's standard output is ASCII too.
    System.out.println(
        "found by ID: "
            + byId.snapshotId().equals(SNAPSHOT_ID)
            + ", latest of session: "
            + latest.snapshotId().equals(SNAPSHOT_ID));
  }
}
