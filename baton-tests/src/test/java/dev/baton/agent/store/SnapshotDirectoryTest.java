package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotDirectoryTest {
  @TempDir Path dir;

  @Test
  void aRowFileThatCannotBeReadFailsTheStrictHeaderReadAndIsSkippedByTheOther() throws IOException {
    // A directory opens but fails the first read, as a file does on an I/O error.
    Path unreadable = Files.createDirectory(dir.resolve("s1.json"));

    assertThatThrownBy(
            () ->
                SnapshotDirectory.readHeaderOrThrow(
                    unreadable, SnapshotDirectory.HeaderFields.RANK))
        .isInstanceOf(IOException.class);
    assertThat(SnapshotDirectory.readHeaderAt(unreadable, SnapshotDirectory.HeaderFields.RANK))
        .isNull();
    assertThat(
            SnapshotDirectory.readHeaderOrThrow(
                dir.resolve("missing.json"), SnapshotDirectory.HeaderFields.RANK))
        .isNull();
  }
}
