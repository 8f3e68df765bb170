package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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

    AtomicFiles.write(target, bytes("first"), true);
    AtomicFiles.write(target, bytes("second"), false);

    assertThat(target).hasContent("second");
    assertThat(tempFiles()).isZero();
  }

  @Test
  void failedWriteDeletesItsTempFileAndKeepsTheTarget() throws IOException {
    Path target = dir.resolve("occupied");
    Files.createDirectories(target.resolve("child"));

    assertThatThrownBy(() -> AtomicFiles.write(target, bytes("x"), true))
        .isInstanceOf(IOException.class);

    assertThat(target.resolve("child")).isDirectory();
    assertThat(tempFiles()).isZero();
  }

  @Test
  void writtenFilesAreReadableByTheOwnerOnly() throws IOException {
    assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
    Path target = dir.resolve("row.json");

    AtomicFiles.write(target, bytes("secret"), true);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target)))
        .isEqualTo("rw-------");
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
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
