package dev.baton.agent.store;

import dev.baton.core.BatonException;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.FileLockInterruptionException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An exclusive lock on a snapshot directory shared by every process that opens the folder, so that
 * one store's read-modify-write cannot interleave with another's: without it a worker's heartbeat,
 * read before another process's abort and renamed after it, would quietly undo the abort.
 *
 * <p>The operating system arbitrates between processes, with a lock on the folder's {@code .lock}
 * file. It holds such a lock for the whole process, so threads of one JVM (several store instances
 * over one folder) first queue on an in-process lock of the folder and only its holder takes the OS
 * lock. The in-process locks are keyed by the folder's real path, so two spellings of one folder (a
 * symbolic link, a relative path) share one; a lock exists only while some thread holds or awaits
 * it. That registry is the one piece of static state here: it mirrors the OS lock, which is itself
 * per process.
 *
 * <p>Thread-safe. Not reentrant: {@code body} must not hold the same folder again.
 */
final class ProcessLock {
  private static final String LOCK_FILE = ".lock";

  /** The folders some thread of this JVM holds or waits for, by real path. */
  private static final ConcurrentHashMap<Path, InProcessLock> LOCKS = new ConcurrentHashMap<>();

  /** A folder's in-process lock and how many threads hold or await it, guarded by the map. */
  private static final class InProcessLock {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }

  private ProcessLock() {}

  /**
   * Runs {@code body} holding the directory's lock, creating the directory (mode 0700) if missing.
   * Waits, without a bound, for a thread of this JVM or another process that holds it, unless the
   * thread is interrupted.
   *
   * @throws BatonException {@code CANCELLED} when the thread is interrupted before it holds the
   *     lock; {@code INTERNAL} (not public) when the folder cannot be created or locked; the
   *     message names no path, the cause does
   */
  static <T> T hold(Path directory, Supplier<T> body) {
    Path key;
    try {
      AtomicFiles.createPrivateDirectories(directory);
      key = directory.toRealPath();
    } catch (IOException e) {
      throw cannotLock(e);
    }
    InProcessLock inProcess = LOCKS.compute(key, (k, held) -> enter(held));
    try {
      inProcess.lock.lockInterruptibly();
    } catch (InterruptedException e) {
      leave(key);
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
    try (FileChannel channel =
            FileChannel.open(
                key.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.lock()) {
      return body.get();
    } catch (ClosedByInterruptException | FileLockInterruptionException e) {
      // The JDK closes a channel that an interrupt reaches: the thread was interrupted.
      throw BatonException.from(new InterruptedException("waiting for a snapshot folder's lock"));
    } catch (IOException e) {
      throw cannotLock(e);
    } finally {
      inProcess.lock.unlock();
      leave(key);
    }
  }

  private static void leave(Path key) {
    LOCKS.computeIfPresent(key, (k, held) -> --held.users == 0 ? null : held);
  }

  private static InProcessLock enter(@Nullable InProcessLock held) {
    InProcessLock lock = held == null ? new InProcessLock() : held;
    lock.users++;
    return lock;
  }

  private static BatonException cannotLock(IOException e) {
    return BatonException.internal("cannot lock a snapshot directory", e);
  }
}
