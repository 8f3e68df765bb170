package dev.baton.agent.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file operations of the file store: private directories, reads that treat a missing file as
 * absent, writes that a concurrent reader sees either entirely or not at all (one kind forced to
 * the device, one kind that no file system flushes on its own), and the removal of temporary files
 * a killed writer left behind.
 *
 * <p>Forcing a directory to the device is done where the file system has POSIX permissions (the JDK
 * cannot open a directory on Windows, where NTFS journals names anyway) and skipped elsewhere.
 */
final class AtomicFiles {
  private static final Logger log = LoggerFactory.getLogger(AtomicFiles.class);

  /** The suffix of temporary files; a reader must never take such a file for a row. */
  static final String TEMP_SUFFIX = ".tmp";

  /**
   * How old a temporary file must be before it counts as left behind. A write takes milliseconds;
   * the margin covers writers that take no folder lock (Genkit Go's store) and clocks that differ
   * between the hosts sharing a network folder.
   */
  static final Duration STALE_TEMP_AGE = Duration.ofMinutes(1);

  /** The suffix of the file {@link #replaceWithoutFlush} writes before renaming it into place. */
  static final String NEXT_SUFFIX = ".next";

  /** How much of a write survives a crash. */
  enum Sync {
    /** Nothing is forced: after a power loss the file may be old, new, or empty. */
    NONE,
    /** The bytes are forced before the rename: the file is old or new, never torn or empty. */
    CONTENT,
    /** The bytes before the rename and the directory after it: a committed file stays. */
    CONTENT_AND_NAME
  }

  private static final Set<StandardOpenOption> NEW_FILE =
      Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
  private static final Set<OpenOption> NEXT_FILE =
      Set.of(
          StandardOpenOption.CREATE,
          StandardOpenOption.WRITE,
          StandardOpenOption.TRUNCATE_EXISTING,
          LinkOption.NOFOLLOW_LINKS);
  private static final FileAttribute<?>[] OWNER_ONLY_FILE = {
    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))
  };
  private static final FileAttribute<?> OWNER_ONLY_DIRECTORY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  private AtomicFiles() {}

  /**
   * Creates a directory and any missing parents, readable only by the owner (mode 0700) where the
   * file system has POSIX permissions, forcing the parent of each directory it creates to the
   * device, so that a row later written inside does not vanish with its folder at a power loss
   * (best effort: a parent this process may not read, such as a shared {@code /tmp}, is logged and
   * skipped). Directories that exist are left as they are.
   */
  static void createPrivateDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      createPrivateDirectories(parent);
    }
    try {
      if (isPosix(dir)) {
        Files.createDirectory(dir, OWNER_ONLY_DIRECTORY);
      } else {
        Files.createDirectory(dir);
      }
    } catch (FileAlreadyExistsException createdMeanwhile) {
      if (Files.isDirectory(dir)) {
        return;
      }
      throw createdMeanwhile;
    }
    try {
      syncDirectory(parent);
    } catch (IOException e) {
      log.debug("could not force directory {} to the device", parent, e);
    }
  }

  /**
   * Replaces {@code target} with {@code content} atomically: the bytes go to a temporary file
   * {@code <name>.<random>.tmp} in the same directory (so the rename cannot cross file systems),
   * which is then renamed over the target. The temporary file is deleted if anything fails before
   * the rename. Nothing here locks: of two concurrent writers the last rename wins, so callers that
   * read-modify-write serialise themselves (FileSessionStore holds a {@link ProcessLock}).
   *
   * @param sync what to force to the device: {@link Sync#CONTENT_AND_NAME} is worth its cost for
   *     data, {@link Sync#NONE} for records that can be rebuilt
   */
  static void write(Path target, byte[] content, Sync sync) throws IOException {
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
        if (sync != Sync.NONE) {
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
    if (sync == Sync.CONTENT_AND_NAME) {
      // The rename lives in the directory: until it is forced, a power loss may undo it.
      syncDirectory(temp.getParent());
    }
  }

  /**
   * Replaces {@code target} with {@code content} without forcing anything to the device and without
   * renaming over an existing file: the bytes go to {@link #nextOf next of the target}, a new file,
   * or a leftover of a replacement cut short, truncated and written over; the target is then
   * deleted, and the next file renamed to its free name. A reader sees the old file, no file, or
   * the new one, never a mix of two. Renaming over a file, or truncating one and writing it again,
   * makes ext4 write the new file out at once ({@code auto_da_alloc}), and the next journal commit,
   * that of the caller's next fsync, wait for it: a write of a hint would cost as much as a write
   * of data. A rename to a free name starts no such write. A symbolic link in the target's place is
   * deleted, never written through.
   *
   * <p>Only one writer at a time may replace a given file (the caller holds a lock). If this is cut
   * short (a failure, or a kill of the process) after the target is deleted, the target is missing
   * and its next file is left: {@link #nextOf} names it, so the caller can tell a file that is gone
   * for that reason from one that never was. At every step the target or its next file exists, once
   * either did: a later replacement writes over a leftover next file rather than deleting it, and a
   * symbolic link in its place fails the write.
   */
  static void replaceWithoutFlush(Path target, byte[] content) throws IOException {
    writeNext(target, content);
    promoteNext(target);
  }

  /**
   * The first step of {@link #replaceWithoutFlush}: writes {@code content} to the {@link #nextOf
   * next file} of {@code target}, leaving the target as it is.
   */
  static void writeNext(Path target, byte[] content) throws IOException {
    Path next = nextOf(target);
    // A next file left by a replacement cut short is written over, never deleted first: when the
    // target is gone it is the only sign that the file existed, and a failure or a kill between a
    // deletion and a new file would erase that sign.
    try (FileChannel channel = FileChannel.open(next, NEXT_FILE, ownerOnlyFile(target))) {
      ByteBuffer buffer = ByteBuffer.wrap(content);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
    }
  }

  /**
   * The second step of {@link #replaceWithoutFlush}: deletes {@code target} and renames its {@link
   * #nextOf next file}, written by {@link #writeNext}, to the free name.
   */
  static void promoteNext(Path target) throws IOException {
    Files.deleteIfExists(target);
    Files.move(nextOf(target), target, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Where {@link #replaceWithoutFlush} writes the new bytes of {@code target}: {@code <name>.next}.
   */
  static Path nextOf(Path target) {
    return target.resolveSibling(target.getFileName() + NEXT_SUFFIX);
  }

  /** Forces a directory's entries to the device, where the file system allows (see above). */
  private static void syncDirectory(@Nullable Path dir) throws IOException {
    if (dir == null || !isPosix(dir)) {
      return;
    }
    try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
      channel.force(true);
    }
  }

  /**
   * Whether a file is a temporary file that a writer left behind: named {@code *.tmp} and last
   * modified at least {@link #STALE_TEMP_AGE} before {@code now}. A file that vanished or cannot be
   * examined is not.
   */
  static boolean isStaleTemp(Path file, Instant now) {
    if (!file.getFileName().toString().endsWith(TEMP_SUFFIX)) {
      return false;
    }
    try {
      Instant modified = Files.getLastModifiedTime(file, LinkOption.NOFOLLOW_LINKS).toInstant();
      return Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
          && !modified.plus(STALE_TEMP_AGE).isAfter(now);
    } catch (IOException e) {
      return false;
    }
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /** Mode 0600 where the file system has POSIX permissions, as temporary files get. */
  private static FileAttribute<?>[] ownerOnlyFile(Path file) {
    return isPosix(file) ? OWNER_ONLY_FILE : new FileAttribute<?>[0];
  }

  /** The file's bytes, or null when it does not exist. */
  static byte @Nullable [] readIfExists(Path file) throws IOException {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * The bytes of {@code file} itself, or null when it does not exist: a symbolic link is not
   * followed but fails the read, so a link planted in a folder cannot make it read a file
   * elsewhere.
   */
  static byte @Nullable [] readIfExistsNoFollow(Path file) throws IOException {
    try (InputStream in =
        Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      return in.readAllBytes();
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
