package dev.baton.agent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileNamesTest {
  private static final FileSystem FILES = FileSystems.getDefault();

  @TempDir Path dir;

  private static void assumeUtf8FileNames() {
    try {
      Path.of("é😀");
    } catch (InvalidPathException e) {
      assumeTrue(false, "this JVM cannot name files in UTF-8");
    }
  }

  @Test
  void theLimitCountsUtf8BytesNotCharacters() {
    assumeUtf8FileNames();
    String twoByteChars = "é".repeat(FileNames.MAX_NAME_BYTES / 2);
    String fourByteChars = "😀".repeat(FileNames.MAX_NAME_BYTES / 4);

    assertThat(FileNames.primary(FILES, twoByteChars)).isEqualTo(twoByteChars);
    assertThat(FileNames.primary(FILES, twoByteChars + "é")).matches("~[0-9a-f]{64}");
    assertThat(FileNames.primary(FILES, fourByteChars)).isEqualTo(fourByteChars);
    assertThat(FileNames.primary(FILES, fourByteChars + "😀")).matches("~[0-9a-f]{64}");
  }

  @Test
  void onlyANonAsciiIdThatIsItsOwnNameHasAnAlternate() {
    assumeUtf8FileNames();

    assertThat(FileNames.alternate(FILES, "snap-1")).isNull();
    assertThat(FileNames.alternate(FILES, "x".repeat(1000))).isNull();
    assertThat(FileNames.alternate(FILES, "é".repeat(200))).isNull();
    assertThat(FileNames.alternate(FILES, "snäp")).matches("~[0-9a-f]{64}");
  }

  @Test
  void hashedNamesDifferByIdAndStayStable() {
    String a = FileNames.primary(FILES, "z".repeat(300));
    String b = FileNames.primary(FILES, "z".repeat(301));

    assertThat(a).isNotEqualTo(b).isEqualTo(FileNames.primary(FILES, "z".repeat(300)));
    assertThat(FileNames.primary(FILES, a)).isNotEqualTo(a).matches("~[0-9a-f]{64}");
  }

  @Test
  void aPrefixSegmentResolvesToTheFolderThatExists() throws Exception {
    assumeUtf8FileNames();
    String alternate = FileNames.alternate(FILES, "tenánt");
    Files.createDirectory(dir.resolve(alternate));

    assertThat(FileNames.resolveDirectory(dir, "tenánt")).isEqualTo(dir.resolve(alternate));
    assertThat(FileNames.resolveDirectory(dir, "other")).isEqualTo(dir.resolve("other"));
    Files.createDirectory(dir.resolve("tenánt"));
    assertThat(FileNames.resolveDirectory(dir, "tenánt")).isEqualTo(dir.resolve("tenánt"));
  }
}
