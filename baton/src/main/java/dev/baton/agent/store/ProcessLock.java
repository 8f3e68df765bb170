package dev.baton.agent.store;

import dev.baton.core.BatonException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * An exclusive lock on a snapshot directory shared by every process that opens the folder, so that
 * one store's read-modify-write cannot interleave with another's: without it a worker's heartbeat,
 * read before another process's abort and renamed after it, would quietly undo the abort.
 *
 * <p>The operating system arbitrates between processes. Within one JVM the same file lock cannot be
 * held twice, so a second store instance over the same folder waits for the first to let go.
 */
final class ProcessLock {
  private static final String LOCK_FILE = ".lock";
  private static final long RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private ProcessLock() {}

  /** Runs {@code body} holding the directory's lock. */
  static <T> T hold(Path directory, Supplier<T> body) {
    try {
      AtomicFiles.createPrivateDirectories(directory);
      try (FileChannel channel =
              FileChannel.open(
                  directory.resolve(LOCK_FILE),
                  StandardOpenOption.CREATE,
                  StandardOpenOption.WRITE);
          FileLock lock = acquire(channel)) {
        return body.get();
      }
    } catch (IOException e) {
      throw BatonException.internal("cannot lock snapshot directory " + directory, e);
    }
  }

  private static FileLock acquire(FileChannel channel) throws IOException {
    while (true) {
      try {
        return channel.lock();
      } catch (OverlappingFileLockException heldInThisJvm) {
        // Another store instance of this JVM holds it; the OS lock only waits for other processes.
        LockSupport.parkNanos(RETRY_NANOS);
      }
    }
  }
}
