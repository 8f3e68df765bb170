package dev.baton.agent.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file operations of the file store: private directories, reads that treat a missing file as
 * absent, and writes that a concurrent reader sees either entirely or not at all.
 */
final class AtomicFiles {
  private static final Logger log = LoggerFactory.getLogger(AtomicFiles.class);

  /** The suffix of temporary files; a reader must never take such a file for a row. */
  static final String TEMP_SUFFIX = ".tmp";

  private static final Set<StandardOpenOption> NEW_FILE =
      Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private static final FileAttribute<?>[] OWNER_ONLY_FILE = {
    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
  };

  private AtomicFiles() {}

  /**
   * Creates a directory and any missing parents, readable only by the owner (mode 0700) where the
   * file system has POSIX permissions. Directories that exist are left as they are.
   */
  static void createPrivateDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      FileAttribute<?> ownerOnly =
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
      Files.createDirectories(dir, ownerOnly);
    } else {
      Files.createDirectories(dir);
    }
  }

  /**
   * Replaces {@code target} with {@code content} atomically: the bytes go to a temporary file
   * {@code <name>.<random>.tmp} in the same directory (so the rename cannot cross file systems),
   * which is then renamed over the target. The temporary file is deleted if anything fails before
   * the rename. Nothing here locks: of two concurrent writers the last rename wins, so callers that
   * read-modify-write serialise themselves (FileSessionStore holds a {@link ProcessLock}).
   *
   * @param durable whether to force the bytes to the device before the rename, so a crash cannot
   *     leave a renamed but empty file; worth its cost for data, not for hints that can be rebuilt
   */
  static void write(Path target, byte[] content, boolean durable) throws IOException {
    String random = Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    Path temp = target.resolveSibling(target.getFileName() + "." + random + TEMP_SUFFIX);
    // Created and written through one channel: a commit pays for one open, not two. Opened before
    // the try, so a name clash never deletes a file this call did not create.
    FileChannel channel = FileChannel.open(temp, NEW_FILE, ownerOnlyFile(target));
    boolean renamed = false;
    try {
      try (channel) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        if (durable) {
          channel.force(true);
        }
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      renamed = true;
    } finally {
      if (!renamed) {
        deleteQuietly(temp);
      }
    }
  }

  /** Mode 0600 where the file system has POSIX permissions, as temporary files get. */
  private static FileAttribute<?>[] ownerOnlyFile(Path file) {
    return file.getFileSystem().supportedFileAttributeViews().contains("posix")
        ? OWNER_ONLY_FILE
        : new FileAttribute<?>[0];
  }

  /** The file's bytes, or null when it does not exist. */
  static byte @Nullable [] readIfExists(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** Deletes a file if it exists, logging rather than throwing on failure. */
  static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.warn("could not delete {}", file, e);
    }
  }
}
