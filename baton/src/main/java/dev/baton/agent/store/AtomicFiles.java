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
 * absent, writes that a concurrent reader sees either entirely or not at all, and cheap in-place
 * overwrites for hints.
 */
final class AtomicFiles {
  private static final Logger log = LoggerFactory.getLogger(AtomicFiles.class);

  /** The suffix of temporary files; a reader must never take such a file for a row. */
  static final String TEMP_SUFFIX = ".tmp";

  private static final Set<StandardOpenOption> NEW_FILE =
      Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private static final Set<StandardOpenOption> OVERWRITE =
      Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  private static final int BLOCK = 512;
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
   * Replaces {@code target} with {@code content} atomically and durably: the bytes go to a
   * temporary file {@code <name>.<random>.tmp} in the same directory (so the rename cannot cross
   * file systems), are forced to the device, so a crash cannot leave a renamed but empty file, and
   * the file is renamed over the target. The temporary file is deleted if anything fails before the
   * rename. Nothing here locks: of two concurrent writers the last rename wins, so callers that
   * read-modify-write serialise themselves (FileSessionStore holds a {@link ProcessLock}).
   */
  static void write(Path target, byte[] content) throws IOException {
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
        channel.force(true);
      }
      Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      renamed = true;
    } finally {
      if (!renamed) {
        deleteQuietly(temp);
      }
    }
  }

  /**
   * Overwrites a small file in place, without a temporary file: the content is padded with spaces
   * (insignificant in JSON) to a whole number of {@value #BLOCK}-byte blocks and never to less than
   * the file's current length, so the file is never truncated and old bytes never trail new ones.
   * Not durable, and a reader racing the write may see a mix of old and new bytes: only for hints a
   * reader checks and can rebuild. A rename over an existing file would be atomic, but ext4 then
   * forces the new file to disk first ({@code auto_da_alloc}), which costs as much as an fsync.
   */
  static void overwrite(Path target, byte[] content) throws IOException {
    try (FileChannel channel = FileChannel.open(target, OVERWRITE, ownerOnlyFile(target))) {
      long length = Math.max(channel.size(), (content.length + BLOCK - 1) / BLOCK * (long) BLOCK);
      ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(length));
      buffer.put(content);
      while (buffer.hasRemaining()) {
        buffer.put((byte) ' ');
      }
      buffer.flip();
      long position = 0;
      while (buffer.hasRemaining()) {
        position += channel.write(buffer, position);
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
