package dev.baton.benchmarks;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * What {@link FileStoreCommitBenchmark} and {@link FileStoreCommitInterleaved} commit: a small row
 * of a session, and the floor a file store's commit cannot beat, the same bytes written to a new
 * file, forced to the device and renamed into place.
 */
final class FileCommits {
  private static final SessionState STATE =
      SessionState.empty()
          .withSessionId("session-1")
          .withMessages(List.of(Message.user("Hello!"), Message.model("Hi, how can I help?")));

  private FileCommits() {}

  /** A completed row of {@code session-1}, created now, holding a two-message conversation. */
  static SessionSnapshot row(String id) {
    return SessionSnapshot.completed(id, "session-1", null, Instant.now(), null, STATE);
  }

  /**
   * Compiles the code of a store commit and of the floor by running each {@code commits} times in a
   * folder under {@code /dev/shm}, a tmpfs, where a commit waits for no device and so takes
   * microseconds; without it, a commit that takes milliseconds on a busy disk runs a few hundred
   * times in JMH's warm-up and is measured half interpreted. Where there is no {@code /dev/shm},
   * the system's temporary folder serves, and takes longer.
   */
  static void compile(ActionContext context, byte[] bytes, int commits) throws IOException {
    Path shm = Path.of("/dev/shm");
    Path dir =
        Files.isDirectory(shm)
            ? Files.createTempDirectory(shm, "baton-warm")
            : Files.createTempDirectory("baton-warm");
    try {
      FileSessionStore store = FileSessionStore.builder(dir).syncDirectories(false).build();
      Path bare = Files.createDirectories(dir.resolve("bare"));
      for (int i = 0; i < commits; i++) {
        String id = UUID.randomUUID().toString();
        SessionSnapshot row = row(id);
        store.saveSnapshot(context, id, existing -> row);
        fsyncAndRename(bare, bytes, false);
      }
    } finally {
      delete(dir);
    }
  }

  /** Deletes a folder and everything in it. */
  static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  /**
   * Writes {@code bytes} to a new temporary file in {@code folder}, forces it to the device,
   * renames it to a new name, and then forces the folder too when {@code syncDirectory}: one
   * durable write.
   */
  static Path fsyncAndRename(Path folder, byte[] bytes, boolean syncDirectory) throws IOException {
    Path target = folder.resolve(UUID.randomUUID() + ".json");
    Path temp = folder.resolve(target.getFileName() + ".tmp");
    try (FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(bytes));
      channel.force(true);
    }
    Path moved = Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    if (syncDirectory) {
      try (FileChannel folderChannel = FileChannel.open(folder, StandardOpenOption.READ)) {
        folderChannel.force(true);
      }
    }
    return moved;
  }
}
