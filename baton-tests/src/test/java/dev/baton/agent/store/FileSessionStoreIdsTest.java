package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.AsciiNamesJvm;
import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every ID the file store accepts has a file, whatever its length and whatever the JVM's file-name
 * encoding; the IDs it refuses are refused with a message that names no path.
 */
class FileSessionStoreIdsTest {
  private static final String LONG_ID = "x".repeat(10_000);

  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  private FileSessionStore store() {
    return FileSessionStore.builder(dir).build();
  }

  private List<String> filesOnDisk() throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths
          .filter(Files::isRegularFile)
          .filter(p -> !FileSessionStoreTest.BOOKKEEPING.contains(p.getFileName().toString()))
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .sorted()
          .toList();
    }
  }

  private static SessionSnapshot save(
      FileSessionStore store, ActionContext context, SessionSnapshot row) {
    return store.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  @ParameterizedTest
  @ValueSource(strings = {"snap-1", "0b7c9e2a-1f4d-4c51-9a7e-3d2b8f6a1c90", "a b.c", "ünï ☀"})
  void plainIdsKeepTheirOwnNamesAsGenkitGoWritesThem(String id) throws IOException {
    assumeTrue(canName(id));

    save(store(), context, row(id, id, at(1)));

    assertThat(filesOnDisk())
        .containsExactlyInAnyOrder("global/" + id + ".json", "global/.pointers/" + id + ".json");
  }

  @Test
  void idsOfTenThousandCharactersAreStoredAndFound() throws IOException {
    FileSessionStore store = store();
    save(store, context, row(LONG_ID, LONG_ID, at(1)));
    save(store, context, row(LONG_ID + "-2", LONG_ID, at(2)));

    assertThat(store.getSnapshot(context, LONG_ID))
        .extracting(SessionSnapshot::sessionId)
        .isEqualTo(LONG_ID);
    assertThat(store.getLatestSnapshot(context, LONG_ID))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo(LONG_ID + "-2");
    Files.delete(onlyFileIn(dir.resolve("global/.pointers")));
    assertThat(store.getLatestSnapshot(context, LONG_ID))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo(LONG_ID + "-2");
    assertThat(filesOnDisk())
        .allMatch(name -> name.matches("global/(\\.pointers/)?~[0-9a-f]{64}\\.json"));
  }

  @Test
  void anIdAsLongAsAGenkitGoFileNameAllowsIsStillItsOwnName() throws IOException {
    String longest = "y".repeat(FileNames.MAX_NAME_BYTES);

    save(store(), context, row(longest, "sess-1", at(1)));

    assertThat(dir.resolve("global").resolve(longest + ".json")).isRegularFile();
  }

  @Test
  void anIdThatLooksLikeAHashedNameIsHashedItself() throws IOException {
    String lookalike = "~" + "0".repeat(64);
    FileSessionStore store = store();

    save(store, context, row(lookalike, "sess-1", at(1)));

    assertThat(dir.resolve("global").resolve(lookalike + ".json")).doesNotExist();
    assertThat(store.getSnapshot(context, lookalike)).isNotNull();
  }

  @Test
  void aLongPrefixSegmentIsAFolderToo() {
    FileSessionStore store =
        FileSessionStore.builder(dir).snapshotPathPrefix(c -> "org/" + LONG_ID).build();

    save(store, context, row("s1", "sess-1", at(1)));

    assertThat(store.getLatestSnapshot(context, "sess-1")).isNotNull();
    assertThat(dir.resolve("org"))
        .isDirectoryContaining(p -> p.getFileName().toString().startsWith("~"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"lone \uD800 high", "lone \uDC00 low", "\uDBFF", "nul\u0000", "a/b", "..", "a\\b"})
  void idsNoRowCouldHoldAreRefusedWithoutAPath(String id) throws IOException {
    FileSessionStore store = store();

    for (var call :
        List.<ThrowingCallable>of(
            () -> store.getSnapshot(context, id),
            () -> store.getLatestSnapshot(context, id),
            () -> save(store, context, row(id, "sess-1", at(1))),
            () -> save(store, context, row("s1", id, at(1))))) {
      assertThatThrownBy(call)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT);
                assertThat(e.isPublic()).isTrue();
                assertThat(e.getMessage()).doesNotContain(dir.toString()).doesNotContain("\u0000");
              });
    }
    assertThat(filesOnDisk()).isEmpty();
  }

  @Test
  void aRefusedLongIdIsQuotedShort() {
    String id = "../" + LONG_ID;

    assertThatThrownBy(() -> store().getSnapshot(context, id))
        .hasMessageStartingWith("invalid snapshot ID \"../xxx")
        .hasMessageContaining("(10003 characters)")
        .message()
        .hasSizeLessThan(200);
  }

  @Test
  void nonAsciiIdsWorkUnderAnAsciiFileNameEncodingAndTheFolderLoadsUnderUtf8() throws Exception {
    AsciiNamesJvm.Result probe = AsciiNamesJvm.run(AsciiLocaleProbe.class, dir.toString());
    assumeTrue(probe.ran(), "could not start a JVM with ASCII file names: " + probe.output());

    assertThat(probe.exitCode()).as(probe.output()).isZero();
    assertThat(probe.output()).contains("found by ID: true, latest of session: true");

    // This JVM names files in UTF-8: it finds the rows under their hashed names, and a save moves
    // the row to the name Genkit Go would give it.
    assumeTrue(canName(AsciiLocaleProbe.SNAPSHOT_ID));
    FileSessionStore store = store();
    assertThat(store.getSnapshot(context, AsciiLocaleProbe.SNAPSHOT_ID)).isNotNull();
    assertThat(store.getLatestSnapshot(context, AsciiLocaleProbe.SESSION_ID)).isNotNull();
    store.saveSnapshot(
        context, AsciiLocaleProbe.SNAPSHOT_ID, existing -> existing.withUpdatedAt(at(2)));
    assertThat(filesOnDisk())
        .contains("global/" + AsciiLocaleProbe.SNAPSHOT_ID + ".json")
        .filteredOn(name -> name.startsWith("global/~"))
        .isEmpty();
  }

  private static boolean canName(String id) {
    try {
      Path.of(id);
      return true;
    } catch (InvalidPathException e) {
      return false;
    }
  }

  /** The only file in a folder, leaving out the store's bookkeeping. */
  private static Path onlyFileIn(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      List<Path> all =
          files
              .filter(
                  file -> !FileSessionStoreTest.BOOKKEEPING.contains(file.getFileName().toString()))
              .toList();
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }
}
