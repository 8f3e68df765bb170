package dev.baton.agent.store;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The file or directory name of each {@linkplain SafeIds safe} ID, so that every ID the store
 * accepts has a file, whatever its length and whatever the JVM's file-name encoding.
 *
 * <p>An ID is its own name when this JVM can name a file by it and its UTF-8 form is at most
 * {@value #MAX_NAME_BYTES} bytes: the name Genkit Go's file store and earlier versions of this one
 * give it. Any other ID (a long one, or a non-ASCII one under an ASCII file-name encoding such as
 * {@code LANG=C}) is named {@code ~<SHA-256 of its UTF-8 form, in lowercase hex>}. Nothing needs to
 * turn a name back into an ID: a row file holds its own snapshot ID, and a pointer is checked
 * against the row it names. An ID that itself has that form is hashed as well, so a literal name
 * can never be another ID's hashed one.
 *
 * <p>Whether a non-ASCII ID can be named depends on the JVM's locale, so two processes sharing a
 * folder may disagree on its name. For such an ID there is therefore an {@linkplain #alternate
 * alternate} name, the hashed one, that readers try after the literal one and writers remove after
 * writing the literal one: a folder written under {@code LANG=C} loads unchanged once the locale is
 * UTF-8. (The reverse cannot hold: a JVM that cannot name a file cannot open it.)
 *
 * <p>Stateless and thread-safe.
 */
final class FileNames {
  /**
   * The longest literal name, in UTF-8 bytes: what leaves room, within the 255-byte limit of common
   * file systems, for {@code .json} and the suffix of a temporary file.
   */
  static final int MAX_NAME_BYTES = 232;

  private static final String HASHED_MARK = "~";
  private static final Pattern HASHED = Pattern.compile("~[0-9a-f]{64}");

  private FileNames() {}

  /** The name an ID is written under in a directory of {@code fileSystem}. */
  static String primary(FileSystem fileSystem, String id) {
    return isLiteral(fileSystem, id) ? id : hashed(id);
  }

  /**
   * The other name another JVM may have written the ID under, or null when there is none: the
   * hashed name of a non-ASCII ID this JVM writes literally.
   */
  static @Nullable String alternate(FileSystem fileSystem, String id) {
    return !isAscii(id) && isLiteral(fileSystem, id) ? hashed(id) : null;
  }

  /**
   * The directory a prefix segment names under {@code parent}: its primary name, or its alternate
   * name when only a directory of that name exists.
   */
  static Path resolveDirectory(Path parent, String segment) {
    Path primary = parent.resolve(primary(parent.getFileSystem(), segment));
    String alternate = alternate(parent.getFileSystem(), segment);
    if (alternate == null || Files.isDirectory(primary)) {
      return primary;
    }
    Path other = parent.resolve(alternate);
    return Files.isDirectory(other) ? other : primary;
  }

  private static boolean isLiteral(FileSystem fileSystem, String id) {
    if (utf8Length(id) > MAX_NAME_BYTES || HASHED.matcher(id).matches()) {
      return false;
    }
    try {
      fileSystem.getPath(id);
      return true;
    } catch (InvalidPathException unnamable) {
      return false;
    }
  }

  private static String hashed(String id) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
      return HASHED_MARK + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  private static boolean isAscii(String id) {
    return id.chars().allMatch(c -> c < 0x80);
  }

  /** The UTF-8 length of a well-formed string. */
  private static int utf8Length(String id) {
    int bytes = 0;
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c)) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }
}
