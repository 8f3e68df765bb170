package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
  @TempDir Path dir;

  private long tempFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(AtomicFiles.TEMP_SUFFIX)).count();
    }
  }

  @Test
  void writeReplacesTheTargetAndLeavesNoTempFile() throws IOException {
    Path target = dir.resolve("row.json");

    AtomicFiles.write(target, bytes("first"), AtomicFiles.Sync.CONTENT_AND_NAME);
    AtomicFiles.write(target, bytes("second"), AtomicFiles.Sync.NONE);

    assertThat(target).hasContent("second");
    assertThat(tempFiles()).isZero();
  }

  @Test
  void failedWriteDeletesItsTempFileAndKeepsTheTarget() throws IOException {
    Path target = dir.resolve("occupied");
    Files.createDirectories(target.resolve("child"));

    assertThatThrownBy(() -> AtomicFiles.write(target, bytes("x"), AtomicFiles.Sync.CONTENT))
        .isInstanceOf(IOException.class);

    assertThat(target.resolve("child")).isDirectory();
    assertThat(tempFiles()).isZero();
  }

  @Test
  void replaceWithoutFlushLeavesTheNewBytesAndNothingBeside() throws IOException {
    Path pointer = dir.resolve("sess-1.json");
    AtomicFiles.replaceWithoutFlush(pointer, bytes("a much longer first pointer"));
    // A leftover of a replacement cut short is not in the way.
    Files.writeString(AtomicFiles.nextOf(pointer), "left by a kill");

    AtomicFiles.replaceWithoutFlush(pointer, bytes("second"));

    assertThat(pointer).hasContent("second");
    assertThat(AtomicFiles.nextOf(pointer)).doesNotExist();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(pointer);
    }
  }

  @Test
  void aLeftoverNextFileIsWrittenOverNeverDeletedBeforeTheNewBytesAreIn() throws IOException {
    Path pointer = dir.resolve("sess-1.json");
    // What a replacement cut short between deleting the target and renaming leaves: the next file
    // alone, the only sign that the target existed. Deleting it before a new one is written would
    // leave neither, if that replacement were cut short too.
    Path next = Files.writeString(AtomicFiles.nextOf(pointer), "left by a kill");
    // A second name for the leftover's file: it sees the new bytes only if they went into it.
    Path sameFile = Files.createLink(dir.resolve("same-file"), next);

    AtomicFiles.replaceWithoutFlush(pointer, bytes("second"));

    assertThat(pointer).hasContent("second");
    assertThat(sameFile).hasContent("second");
  }

  @Test
  void aSymbolicLinkIsReplacedNeverWrittenThroughNorReadThrough() throws IOException {
    Path elsewhere = Files.writeString(dir.resolve("elsewhere"), "theirs");
    Path pointer = Files.createSymbolicLink(dir.resolve("sess-1.json"), elsewhere);

    assertThatThrownBy(() -> AtomicFiles.readIfExistsNoFollow(pointer))
        .isInstanceOf(IOException.class);
    AtomicFiles.replaceWithoutFlush(pointer, bytes("ours"));

    assertThat(Files.isSymbolicLink(pointer)).isFalse();
    assertThat(AtomicFiles.readIfExistsNoFollow(pointer)).isEqualTo(bytes("ours"));
    assertThat(elsewhere).hasContent("theirs");
  }

  @Test
  void writtenFilesAreReadableByTheOwnerOnly() throws IOException {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Path target = dir.resolve("row.json");

    AtomicFiles.write(target, bytes("secret"), AtomicFiles.Sync.CONTENT_AND_NAME);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-------");
  }

  @Test
  void aTempFileIsStaleOnlyOnceItIsAMinuteOld() throws IOException {
    Path temp = Files.writeString(dir.resolve("row.json.x1.tmp"), "{");
    Path row = Files.writeString(dir.resolve("row.json"), "{}");
    Instant now = Instant.now();

    assertThat(AtomicFiles.isStaleTemp(temp, now)).isFalse();
    Files.setLastModifiedTime(temp, FileTime.from(now.minus(AtomicFiles.STALE_TEMP_AGE)));
    Files.setLastModifiedTime(row, FileTime.from(now.minus(Duration.ofHours(1))));
    assertThat(AtomicFiles.isStaleTemp(temp, now)).isTrue();
    assertThat(AtomicFiles.isStaleTemp(row, now)).isFalse();
    assertThat(AtomicFiles.isStaleTemp(dir.resolve("gone.tmp"), now)).isFalse();
  }

  @Test
  void readOfMissingFileIsNull() throws IOException {
    assertThat(AtomicFiles.readIfExists(dir.resolve("missing"))).isNull();
  }

  @Test
  void createPrivateDirectoriesCreatesParentsAndToleratesExisting() throws IOException {
    Path nested = dir.resolve("a/b/c");

    AtomicFiles.createPrivateDirectories(nested);
    AtomicFiles.createPrivateDirectories(nested);

    assertThat(nested).isDirectory();
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    for (Path created : List.of(dir.resolve("a"), dir.resolve("a/b"), nested)) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created)))
          .isEqualTo("rwx------");
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
