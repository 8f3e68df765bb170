package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash of the machine loses the page cache, and with it any write not forced to the device: the
 * store forces its rows, never its pointers. These tests leave the rows as they stand and play what
 * such a crash may do to a pointer (roll it back to an older row, tear it, lose it, or lose the
 * record that the folder was verified), then open the folder under another boot ID, as the machine
 * would come back. Whatever the pointer says, {@code getLatestSnapshot} answers with the newest
 * committed row, a save never moves the pointer back past it, and the pointer is repaired. Also
 * here: what a pass that cannot finish leaves, a pointer naming a row never written, and a symbolic
 * link planted for a pointer.
 */
class FileSessionStoreLostPageCacheTest {
  @TempDir Path dir;

  private final ActionContext context = Baton.builder().build().context();

  private FileSessionStore storeInBoot(String bootId) {
    return FileSessionStore.builder(dir).bootId(bootId).build();
  }

  private Path pointer() {
    return pointer("sess-1");
  }

  private Path pointer(String sessionId) {
    return dir.resolve("global/.pointers").resolve(sessionId + ".json");
  }

  private void save(FileSessionStore store, SessionSnapshot row) {
    store.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  /** Rows s1 to s5 of one lineage, one second apart; returns the pointer as it was after s2. */
  private byte[] saveFiveRowsKeepingThePointerAfterTheSecond(FileSessionStore store)
      throws IOException {
    byte[] afterSecond = null;
    for (int i = 1; i <= 5; i++) {
      SessionSnapshot next = row("s" + i, "sess-1", at(i));
      save(store, i == 1 ? next : withParentId(next, "s" + (i - 1)));
      if (i == 2) {
        afterSecond = Files.readAllBytes(pointer());
      }
    }
    return afterSecond;
  }

  private Path pendingPointer() {
    return pendingPointer("sess-1");
  }

  /** Where a save writes the session's new pointer before its row. */
  private Path pendingPointer(String sessionId) {
    return AtomicFiles.nextOf(pointer(sessionId));
  }

  private String pointedAtUnchecked() {
    try {
      return pointedAt();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String pointedAt() throws IOException {
    return pointedAt("sess-1");
  }

  /** The row a session's pointer names, once the pointer is checked to be whole. */
  private String pointedAt(String sessionId) throws IOException {
    byte[] bytes = Files.readAllBytes(pointer(sessionId));
    assertThat(SessionPointer.fromFileContent(bytes)).as("a whole pointer").isNotNull();
    return Json.parse(bytes).path("currentSnapshotId").asString();
  }

  private String latestIn(FileSessionStore store) {
    SessionSnapshot latest = store.getLatestSnapshot(context, "sess-1");
    assertThat(latest).isNotNull();
    return latest.snapshotId();
  }

  @Test
  void aPointerRolledBackToAnOlderRowIsRepairedAfterTheReboot() throws IOException {
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(storeInBoot("boot-1"));

    Files.write(pointer(), namingS2);
    FileSessionStore rebooted = storeInBoot("boot-2");

    assertThat(latestIn(rebooted)).isEqualTo("s5");
    assertThat(pointedAt()).isEqualTo("s5");
  }

  @ParameterizedTest
  @ValueSource(strings = {"cut short", "zeroed", "mixed"})
  void aTornPointerIsNeverTrustedEvenWithinTheBoot(String damage) throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    byte[] whole = Files.readAllBytes(pointer());

    byte[] torn =
        switch (damage) {
          case "cut short" -> Arrays.copyOf(whole, whole.length / 2);
          case "zeroed" -> new byte[whole.length];
          // Old bytes in the middle of new ones: valid JSON naming an older row of the session.
          default ->
              new String(whole, StandardCharsets.UTF_8)
                  .replace("\"s5\"", "\"s4\"")
                  .getBytes(StandardCharsets.UTF_8);
        };
    Files.write(pointer(), torn);

    assertThat(latestIn(store)).isEqualTo("s5");
    assertThat(pointedAt()).isEqualTo("s5");
  }

  @ParameterizedTest
  @ValueSource(strings = {"rolled back", "lost"})
  void aSaveAfterTheRebootNeverMovesThePointerBackPastACommittedRow(String loss)
      throws IOException {
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(storeInBoot("boot-1"));
    if (loss.equals("lost")) {
      Files.delete(pointer());
    } else {
      Files.write(pointer(), namingS2);
    }
    FileSessionStore rebooted = storeInBoot("boot-2");

    // Created before s5 (a caller's timestamp, or a clock set back by the reboot), yet after the
    // row the rolled-back pointer names: compared with that pointer alone, it would pass for the
    // latest.
    save(rebooted, withParentId(row("s3-late", "sess-1", at(3)), "s2"));

    assertThat(pointedAt()).isEqualTo("s5");
    assertThat(latestIn(rebooted)).isEqualTo("s5");
  }

  @Test
  void aPointerGenkitGoWroteIsReplacedAtTheNextSaveByWhatTheRowsSay() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    Files.writeString(
        pointer(),
        Json.writePretty(
            Json.object()
                .put("currentSnapshotId", "s2")
                .put("currentCreatedAt", at(2).toString())
                .put("updatedAt", at(2).toString())));

    save(store, withParentId(row("s3-late", "sess-1", at(3)), "s2"));

    assertThat(pointedAt()).isEqualTo("s5");
  }

  @Test
  void pointersThatWereRightAreLeftAsTheyWereAndTheBootIsRecorded() throws IOException {
    saveFiveRowsKeepingThePointerAfterTheSecond(storeInBoot("boot-1"));
    byte[] before = Files.readAllBytes(pointer());

    assertThat(latestIn(storeInBoot("boot-2"))).isEqualTo("s5");

    assertThat(Files.readAllBytes(pointer())).isEqualTo(before);
    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1", "boot-2");
  }

  @Test
  void aPassThatCannotRewriteAPointerLeavesTheFolderUnverified() throws IOException {
    FileSessionStore before = storeInBoot("boot-1");
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(before);
    save(before, row("b1", "sess-b", at(1)));
    // The crash rolled sess-1's pointer back, and took sess-b's; in its place stands a directory,
    // which no pointer can be renamed over: the pass that rebuilds the pointers fails there.
    Files.write(pointer(), namingS2);
    Files.delete(pointer("sess-b"));
    Files.createDirectories(pointer("sess-b").resolve("in-the-way"));
    FileSessionStore rebooted = storeInBoot("boot-2");

    assertThat(latestIn(rebooted)).isEqualTo("s5");
    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1");

    // Unverified, the folder's pointers are not trusted: a whole pointer naming an older row of
    // the session, which the fast path would return, is passed over for a scan, read after read.
    Files.write(pointer(), namingS2);
    assertThat(latestIn(rebooted)).isEqualTo("s5");
    Files.write(pointer(), namingS2);
    assertThat(latestIn(rebooted)).isEqualTo("s5");
  }

  @Test
  void aSaveThatCannotPutItsPointerInPlaceInAVerifiedFolderCommitsItsRowAndReadersFindIt()
      throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    Files.delete(pointer());
    Path inTheWay = Files.createDirectories(pointer().resolve("in-the-way"));

    save(store, withParentId(row("s6", "sess-1", at(6)), "s5"));

    assertThat(pendingPointer()).exists();
    assertThat(latestIn(storeInBoot("boot-1"))).isEqualTo("s6");
    assertThat(latestIn(store)).isEqualTo("s6");

    Files.delete(inTheWay);
    Files.delete(pointer());
    assertThat(latestIn(store)).isEqualTo("s6");
    assertThat(pointedAt()).isEqualTo("s6");
    assertThat(pendingPointer()).doesNotExist();
  }

  @Test
  void aSaveThatCannotWriteItsNewPointerInAVerifiedFolderFailsAndWritesNoRow() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    Files.createDirectories(pendingPointer("sess-b").resolve("in-the-way"));

    assertThatThrownBy(() -> save(store, row("b1", "sess-b", at(1))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INTERNAL));

    assertThat(store.getSnapshot(context, "b1")).isNull();
    assertThat(latestIn(store)).isEqualTo("s5");
  }

  @Test
  void aSaveFailedBetweenItsRowAndItsPointerLetsNoLaterSaveMoveThePointerBehindTheRow()
      throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    FileSessionStore failing =
        FileSessionStore.builder(dir)
            .bootId("boot-1")
            .onCommitStep(
                step -> {
                  if (step == FileSessionStore.CommitStep.ROW_WRITTEN) {
                    throw new IllegalStateException("dies between the row and the pointer");
                  }
                })
            .build();
    assertThatThrownBy(() -> save(failing, withParentId(row("s7", "sess-1", at(7)), "s5")))
        .hasMessageContaining("dies between");
    assertThat(pointedAt()).isEqualTo("s5");

    // More recent than the pointer's s5, older than the committed s7: it must not take the pointer.
    save(store, withParentId(row("s6", "sess-1", at(6)), "s5"));

    assertThat(pointedAt()).isEqualTo("s7");
    assertThat(pendingPointer()).doesNotExist();
    assertThat(latestIn(storeInBoot("boot-1"))).isEqualTo("s7");
  }

  @Test
  void betweenASavesRowAndItsPointerThePointerNamesARowThatExistsAsGenkitGoExpects()
      throws IOException {
    List<String> pointedDuringSaves = new ArrayList<>();
    FileSessionStore store =
        FileSessionStore.builder(dir)
            .bootId("boot-1")
            .onCommitStep(
                step -> {
                  if (step == FileSessionStore.CommitStep.ROW_WRITTEN
                      && Files.exists(pointer(), LinkOption.NOFOLLOW_LINKS)) {
                    assertThat(pendingPointer()).exists();
                    pointedDuringSaves.add(pointedAtUnchecked());
                  }
                })
            .build();

    saveFiveRowsKeepingThePointerAfterTheSecond(store);

    assertThat(pointedDuringSaves).containsExactly("s1", "s2", "s3", "s4");
    assertThat(pointedDuringSaves)
        .allSatisfy(id -> assertThat(store.getSnapshot(context, id)).isNotNull());
    assertThat(pointedAt()).isEqualTo("s5");
    assertThat(pendingPointer()).doesNotExist();
  }

  @Test
  void aSaveThatCannotReadWhetherTheFolderIsVerifiedFailsBeforeItsRow() throws IOException {
    FileSessionStore trusting = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(trusting);
    // Another store of the same boot, which has not read the record yet, meets a read error on it
    // (a directory in its place stands for one), and cannot write the pointer either.
    FileSessionStore other = storeInBoot("boot-1");
    Path record = dir.resolve("global/.pointers/.verified-boots");
    Files.delete(record);
    Files.createDirectories(record.resolve("in-the-way"));
    Files.createDirectories(AtomicFiles.nextOf(pointer()).resolve("in-the-way"));

    // The save must fail, not take the folder for unverified and go on. The directory planted at
    // the new pointer's name also makes the trusting store's reads scan, so what is checked is that
    // no row s6 was written.
    assertThatThrownBy(() -> save(other, withParentId(row("s6", "sess-1", at(6)), "s5")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INTERNAL));

    assertThat(trusting.getSnapshot(context, "s6")).isNull();
    assertThat(latestIn(trusting)).isEqualTo("s5");
  }

  @Test
  void theVerificationLeavesNoNewPointerBesideAnOldOne() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(store);
    // Left by saves that died: one between its row and its pointer, one before a first row.
    Files.write(pendingPointer(), namingS2);
    Files.write(pendingPointer("sess-ghost"), namingS2);

    assertThat(latestIn(storeInBoot("boot-2"))).isEqualTo("s5");

    assertThat(pointedAt()).isEqualTo("s5");
    assertThat(pendingPointer()).doesNotExist();
    assertThat(pendingPointer("sess-ghost")).doesNotExist();
  }

  @Test
  void aFolderThatCannotBeVerifiedIsTriedAgainAfterAMinuteNotOnEveryRead() throws IOException {
    save(storeInBoot("boot-1"), row("s1", "sess-1", at(1)));
    Files.delete(pointer());
    Path inTheWay = Files.createDirectories(AtomicFiles.nextOf(pointer()).resolve("in-the-way"));
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    FileSessionStore rebooted =
        FileSessionStore.builder(dir).bootId("boot-2").clock(now::get).build();
    Path record = dir.resolve("global/.pointers/.verified-boots");

    assertThat(latestIn(rebooted)).isEqualTo("s1");
    assertThat(Files.readAllLines(record)).containsExactly("boot-1");

    Files.delete(inTheWay);
    Files.delete(AtomicFiles.nextOf(pointer()));
    assertThat(latestIn(rebooted)).isEqualTo("s1");
    assertThat(Files.readAllLines(record)).as("not tried again at once").containsExactly("boot-1");

    now.set(now.get().plus(FileSessionStore.VERIFICATION_RETRY));
    assertThat(latestIn(rebooted)).isEqualTo("s1");
    assertThat(Files.readAllLines(record)).containsExactly("boot-1", "boot-2");
  }

  @Test
  void aPointerNamingARowNeverWrittenSendsReadsAndBackdatedSavesToTheScan() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(store);
    // A whole pointer, written in this boot, naming a row that does not exist, created after every
    // row that does (a Genkit Go writer killed between its pointer and its row leaves such a one,
    // though without the checksum Baton needs to read it).
    SessionPointer neverWritten = new SessionPointer("s9", at(9), at(9));
    Files.write(pointer(), neverWritten.toFileContent());

    assertThat(latestIn(store)).isEqualTo("s5");
    assertThat(pointedAt()).isEqualTo("s5");

    Files.write(pointer(), neverWritten.toFileContent());
    // Created before the row the pointer names, yet after every committed row: the latest.
    save(store, withParentId(row("s6", "sess-1", at(6)), "s5"));

    assertThat(pointedAt()).isEqualTo("s6");
    assertThat(latestIn(store)).isEqualTo("s6");
  }

  @Test
  void aPointerWriteCutShortBetweenItsTwoStepsNeverLetsABackdatedSaveTakeThePointer()
      throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(store);
    // What a save killed between deleting the old pointer and renaming the new one into place
    // leaves: no pointer, and the new one beside it.
    Files.delete(pointer());
    Files.write(AtomicFiles.nextOf(pointer()), namingS2);

    // Without the leftover, a missing pointer in a verified folder means a session without rows,
    // and this row, created before s5, would become the pointer's.
    save(store, withParentId(row("s3-late", "sess-1", at(3)), "s2"));

    assertThat(pointedAt()).isEqualTo("s5");
    assertThat(latestIn(store)).isEqualTo("s5");
    assertThat(AtomicFiles.nextOf(pointer())).doesNotExist();
  }

  @Test
  void aSymbolicLinkPlantedForAPointerIsReplacedNotWrittenThroughNorRead() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    save(store, row("s1", "sess-1", at(1)));
    Path outside = Files.writeString(dir.resolveSibling(dir.getFileName() + "-outside"), "mine");
    Files.delete(pointer());
    Files.createSymbolicLink(pointer(), outside);

    assertThat(latestIn(store)).isEqualTo("s1");
    save(store, withParentId(row("s2", "sess-1", at(2)), "s1"));

    assertThat(outside).hasContent("mine");
    assertThat(Files.isSymbolicLink(pointer())).isFalse();
    assertThat(pointedAt()).isEqualTo("s2");
    assertThat(latestIn(store)).isEqualTo("s2");
    // A link to a whole pointer elsewhere is not read as this session's either.
    Files.write(outside, new SessionPointer("s1", at(1), at(1)).toFileContent());
    Files.delete(pointer());
    Files.createSymbolicLink(pointer(), outside);
    assertThat(latestIn(store)).isEqualTo("s2");
    Files.delete(outside);
  }

  @Test
  void anInterruptedVerificationFailsTheReadAndLeavesTheFolderUnverified() throws IOException {
    saveFiveRowsKeepingThePointerAfterTheSecond(storeInBoot("boot-1"));
    FileSessionStore rebooted = storeInBoot("boot-2");

    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> rebooted.getLatestSnapshot(context, "sess-1"))
          .isInstanceOfSatisfying(
              BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    } finally {
      Thread.interrupted();
    }

    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1");
    assertThat(latestIn(rebooted)).isEqualTo("s5");
    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1", "boot-2");
  }

  @Test
  void everySessionOfTheFolderIsVerifiedInOnePass() throws IOException {
    FileSessionStore store = storeInBoot("boot-1");
    for (int i = 1; i <= 3; i++) {
      save(store, row("a" + i, "sess-a", at(i)));
      save(store, row("b" + i, "sess-b", at(i)));
    }
    Files.delete(pointer("sess-a"));
    Files.write(pointer("sess-b"), new byte[0]);

    // A read of a third session verifies the whole folder.
    assertThat(storeInBoot("boot-2").getLatestSnapshot(context, "sess-c")).isNull();

    assertThat(pointedAt("sess-a")).isEqualTo("a3");
    assertThat(pointedAt("sess-b")).isEqualTo("b3");
  }

  @Test
  void aRowFileTheVerificationCannotReadLeavesTheFolderUnverifiedAndItsNewPointerInPlace()
      throws IOException {
    byte[] namingS2 = saveFiveRowsKeepingThePointerAfterTheSecond(storeInBoot("boot-1"));
    // A save of s5 killed after its row, before its pointer: the pointer names an older row.
    byte[] namingS5 = Files.readAllBytes(pointer());
    Files.write(pointer(), namingS2);
    Files.write(pendingPointer(), namingS5);
    Path s5 = dir.resolve("global/s5.json");
    Files.setPosixFilePermissions(s5, Set.of());
    // Root reads it regardless; run as root under
    // `capsh --drop=cap_dac_override,cap_dac_read_search -- -c '...'` to run this test.
    assumeFalse(Files.isReadable(s5), "the user reads files whatever their permissions (root)");
    try {
      // Skipping the file, the pass would find s4 the latest, drop the new pointer, and record the
      // boot, after which every read of this boot would trust the pointer and miss s5.
      storeInBoot("boot-2").getLatestSnapshot(context, "sess-other");
    } finally {
      Files.setPosixFilePermissions(s5, Set.of(PosixFilePermission.OWNER_READ));
    }

    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1");
    assertThat(pendingPointer()).exists();
    assertThat(latestIn(storeInBoot("boot-3"))).isEqualTo("s5");
  }

  @Test
  void theVerificationKeepsTheNewPointerOfASessionWhoseRowsAreAllDamaged() throws IOException {
    save(storeInBoot("boot-1"), row("s1", "sess-1", at(1)));
    Path s1 = dir.resolve("global/s1.json");
    String whole = Files.readString(s1);
    // Cut short after the session ID: the file still names its session.
    Files.writeString(s1, whole.substring(0, whole.indexOf("sess-1") + 8));
    byte[] naming = Files.readAllBytes(pointer());
    Files.write(pendingPointer(), naming);

    storeInBoot("boot-2").getLatestSnapshot(context, "sess-other");

    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1", "boot-2");
    assertThat(pendingPointer()).as("no pass found the session without rows").exists();
  }

  /**
   * A store of a new boot whose verification of the folder failed, so that it saves as in an
   * unverified folder for the next minute; nothing it needed is left in the way.
   */
  private FileSessionStore storeThatCouldNotVerify() throws IOException {
    byte[] current = Files.readAllBytes(pointer());
    Files.delete(pointer());
    Path inTheWay = Files.createDirectories(pendingPointer().resolve("in-the-way"));
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    FileSessionStore store =
        FileSessionStore.builder(dir).bootId("boot-2").clock(() -> now).build();
    store.getLatestSnapshot(context, "sess-1");
    Files.delete(inTheWay);
    Files.delete(pendingPointer());
    Files.write(pointer(), current);
    assertThat(Files.readAllLines(dir.resolve("global/.pointers/.verified-boots")))
        .containsExactly("boot-1");
    return store;
  }

  @Test
  void aSaveInAnUnverifiedFolderScansWhenANewPointerIsPending() throws IOException {
    FileSessionStore first = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(first);
    byte[] namingS5 = Files.readAllBytes(pointer());
    save(first, withParentId(row("s7", "sess-1", at(7)), "s5"));
    byte[] namingS7 = Files.readAllBytes(pointer());
    FileSessionStore unverified = storeThatCouldNotVerify();
    // The save of s7 was killed after its row, before its pointer.
    Files.write(pointer(), namingS5);
    Files.write(pendingPointer(), namingS7);

    // Created after s5, before s7: taking the pointer, it would hide s7 from any store that trusts
    // the pointers (with the fallback boot ID, every other process).
    save(unverified, withParentId(row("s6", "sess-1", at(6)), "s5"));

    assertThat(pointedAt()).isEqualTo("s7");
    assertThat(pendingPointer()).doesNotExist();
  }

  @Test
  void aSaveInAnUnverifiedFolderFailsBeforeItsRowWhenItsPointerCannotBeWritten()
      throws IOException {
    FileSessionStore first = storeInBoot("boot-1");
    saveFiveRowsKeepingThePointerAfterTheSecond(first);
    FileSessionStore unverified = storeThatCouldNotVerify();
    Files.createDirectories(pendingPointer().resolve("in-the-way"));

    assertThatThrownBy(() -> save(unverified, withParentId(row("s6", "sess-1", at(6)), "s5")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INTERNAL));

    assertThat(first.getSnapshot(context, "s6")).isNull();
  }

  @Test
  void afterTheMinuteOneThreadRetriesAFailedVerificationWhileTheOthersScan() throws Exception {
    save(storeInBoot("boot-1"), row("s1", "sess-1", at(1)));
    Files.delete(pointer());
    Files.createDirectories(pendingPointer().resolve("in-the-way"));
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    FileSessionStore store = FileSessionStore.builder(dir).bootId("boot-2").clock(now::get).build();
    assertThat(store.getLatestSnapshot(context, "sess-none")).isNull();
    now.set(now.get().plus(FileSessionStore.VERIFICATION_RETRY));

    // Two reads after the minute while the folder's lock is held elsewhere: the one that claims
    // the retry waits for the lock; the other must not queue behind it to run the pass again.
    CountDownLatch oneDone = new CountDownLatch(1);
    ExecutorService readers = Executors.newFixedThreadPool(2);
    try {
      List<Future<SessionSnapshot>> reads = new ArrayList<>();
      boolean answeredMeanwhile =
          ProcessLock.hold(
              dir.resolve("global"),
              () -> {
                for (int i = 0; i < 2; i++) {
                  reads.add(
                      readers.submit(
                          () -> {
                            try {
                              return store.getLatestSnapshot(context, "sess-none");
                            } finally {
                              oneDone.countDown();
                            }
                          }));
                }
                try {
                  // Only a guard against the deadlock the bug is: both readers would wait here.
                  return oneDone.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(answeredMeanwhile).isTrue();
      for (Future<SessionSnapshot> read : reads) {
        assertThat(read.get()).isNull();
      }
    } finally {
      readers.shutdownNow();
    }
  }
}
