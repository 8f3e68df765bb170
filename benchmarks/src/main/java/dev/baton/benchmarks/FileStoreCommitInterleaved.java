package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.UUID;

/**
 * {@link FileStoreCommitBenchmark}'s comparison made robust to a busy machine, where the cost of an
 * fsync swings by several times within a minute and JMH's forks, run one after the other, see
 * different disks: each round runs every variant once, in turn, so that they share the load. The
 * variants, with and without forcing the folder after the rename ({@code syncDirectories}):
 *
 * <ul>
 *   <li>{@code fsync+rename}: the floor, as in the JMH benchmark;
 *   <li>{@code fsync+rename, then pointer}: the floor, then an unforced session pointer renamed
 *       over the old one, which ext4 starts writing out at once ({@code auto_da_alloc}) and the
 *       next journal commit waits for: what the store once did;
 *   <li>{@code free-name pointer, then fsync+rename}: the pointer first, written beside the old
 *       one, which is deleted, and renamed to the free name, which starts no write-out: the same
 *       file operations as the store's pointer now, which renames its new pointer into place after
 *       the row rather than before;
 *   <li>{@code store commit}: {@code FileSessionStore.saveSnapshot} of a new row, by the store on
 *       the class path (build this class against an older store to compare the two).
 * </ul>
 *
 * <p>Before measuring, the code is compiled (see {@link FileCommits#compile}). Arguments: the
 * rounds (400 by default) and the warm-up commits (20,000).
 *
 * <pre>{@code
 * ./benchmarks/run-scenario FileStoreCommitInterleaved 400 20000
 * }</pre>
 */
public final class FileStoreCommitInterleaved {
  private static final String[] VARIANTS = {
    "fsync+rename",
    "fsync+rename, then pointer",
    "free-name pointer, then fsync+rename",
    "store commit"
  };

  private FileStoreCommitInterleaved() {}

  public static void main(String[] args) throws IOException {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
    ActionContext context = Baton.builder().build().context();
    byte[] bytes =
        Json.writePretty(FileCommits.row(UUID.randomUUID().toString()))
            .getBytes(StandardCharsets.UTF_8);
    FileCommits.compile(context, bytes, warmUp);
    System.out.printf(
        "%-16s  %-36s  %10s  %10s  %13s  %11s%n",
        "syncDirectories", "variant", "median µs", "mean µs", "median ratio", "mean ratio");
    for (boolean syncDirectories : new boolean[] {true, false}) {
      Path dir = Files.createTempDirectory("baton-commit");
      try {
        long[][] nanos = run(dir, context, bytes, syncDirectories, rounds);
        double[] medians = new double[VARIANTS.length];
        double[] means = new double[VARIANTS.length];
        for (int v = 0; v < VARIANTS.length; v++) {
          long[] sorted = nanos[v].clone();
          Arrays.sort(sorted);
          medians[v] = sorted[sorted.length / 2] / 1e3;
          means[v] = Arrays.stream(sorted).average().orElse(0) / 1e3;
        }
        for (int v = 0; v < VARIANTS.length; v++) {
          System.out.printf(
              "%-16s  %-36s  %10.0f  %10.0f  %13.2f  %11.2f%n",
              syncDirectories,
              VARIANTS[v],
              medians[v],
              means[v],
              medians[v] / medians[0],
              means[v] / means[0]);
        }
      } finally {
        FileCommits.delete(dir);
      }
    }
  }

  /** Runs every variant {@code rounds} times in {@code dir}, in turn; the nanoseconds of each. */
  private static long[][] run(
      Path dir, ActionContext context, byte[] bytes, boolean syncDirectories, int rounds)
      throws IOException {
    FileSessionStore store = FileSessionStore.builder(dir).syncDirectories(syncDirectories).build();
    Path bare = Files.createDirectories(dir.resolve("bare"));
    Path pointerAfter = Files.createDirectories(dir.resolve("pointer-after"));
    Path pointerBefore = Files.createDirectories(dir.resolve("pointer-before"));
    long[][] nanos = new long[VARIANTS.length][rounds];
    for (int round = 0; round < rounds; round++) {
      // Rotated, so that no variant always runs right after the same one.
      for (int i = 0; i < VARIANTS.length; i++) {
        int v = (round + i) % VARIANTS.length;
        long start = System.nanoTime();
        switch (v) {
          case 0 -> FileCommits.fsyncAndRename(bare, bytes, syncDirectories);
          case 1 -> {
            FileCommits.fsyncAndRename(pointerAfter, bytes, syncDirectories);
            renamePointer(pointerAfter);
          }
          case 2 -> {
            replacePointer(pointerBefore);
            FileCommits.fsyncAndRename(pointerBefore, bytes, syncDirectories);
          }
          default -> {
            String id = UUID.randomUUID().toString();
            SessionSnapshot row = FileCommits.row(id);
            store.saveSnapshot(context, id, existing -> row);
          }
        }
        nanos[v][round] = System.nanoTime() - start;
      }
    }
    return nanos;
  }

  /**
   * A session pointer as the store once wrote it: a new file, unforced, renamed over the old one.
   */
  private static void renamePointer(Path folder) throws IOException {
    Path pointer = folder.resolve("session-1.pointer.json");
    Path temp = folder.resolve("session-1.pointer.json." + UUID.randomUUID() + ".tmp");
    Files.writeString(temp, "{\"currentSnapshotId\":\"" + UUID.randomUUID() + "\"}");
    Files.move(temp, pointer, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /**
   * A session pointer as the store writes it now: a new file beside the old one, which is deleted,
   * renamed to the free name; nothing forced.
   */
  private static void replacePointer(Path folder) throws IOException {
    Path pointer = folder.resolve("session-1.pointer.json");
    Path next = folder.resolve("session-1.pointer.json.next");
    Files.writeString(next, "{\"currentSnapshotId\":\"" + UUID.randomUUID() + "\"}");
    Files.deleteIfExists(pointer);
    Files.move(next, pointer, StandardCopyOption.ATOMIC_MOVE);
  }
}
