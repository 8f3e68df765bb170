package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

/**
 * The file store's verification of a folder's session pointers, which the first latest-snapshot
 * lookup in a folder runs once per boot: it reads the header of every row and points each session
 * at its latest one. The folder holds rows of about 52 KB each (a conversation of 200 short
 * messages), spread over 100 sessions; it is written once, with plain file writes, and kept for
 * later runs. Each round deletes the folder's record of verified boots, opens a new store, and
 * times its first lookup (the verification, then the lookup through the pointer) in wall-clock and
 * in the calling thread's CPU time, which a busy machine stretches less, and the next lookup of
 * another session. The rows are read from the page cache after the first round.
 *
 * <p>Arguments: the folder (under {@code target/} by default), the rows (10,000) and the rounds
 * (3).
 *
 * <pre>{@code
 * ./benchmarks/run-scenario FileStoreVerification target/verify-data 10000 3
 * }</pre>
 */
public final class FileStoreVerification {
  private static final int SESSIONS = 100;

  private FileStoreVerification() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/verify-data");
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path folder = dir.resolve(FileSessionStore.DEFAULT_PREFIX);
    if (!Files.isDirectory(folder)) {
      writeRows(folder, rows);
    }
    ActionContext context = Baton.builder().build().context();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.printf(
        "%-6s  %14s  %13s  %15s%n", "round", "first ms wall", "first ms CPU", "next lookup ms");
    for (int round = 1; round <= rounds; round++) {
      // Every boot recorded so far is forgotten, so the new store verifies the folder again.
      Files.deleteIfExists(folder.resolve(".pointers/.verified-boots"));
      FileSessionStore store = FileSessionStore.builder(dir).build();
      long cpu = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      SessionSnapshot latest = store.getLatestSnapshot(context, "sess-7");
      long first = System.nanoTime() - start;
      cpu = threads.getCurrentThreadCpuTime() - cpu;
      start = System.nanoTime();
      store.getLatestSnapshot(context, "sess-8");
      long next = System.nanoTime() - start;
      if (latest == null) {
        throw new IllegalStateException("sess-7 has rows, yet none was found");
      }
      System.out.printf(
          "%-6d  %14.0f  %13.0f  %15.1f%n", round, first / 1e6, cpu / 1e6, next / 1e6);
    }
  }

  /** {@code rows} rows of about 52 KB, created a second apart, of {@value #SESSIONS} sessions. */
  private static void writeRows(Path folder, int rows) throws IOException {
    Files.createDirectories(folder);
    StringBuilder messages = new StringBuilder();
    for (int m = 0; m < 200; m++) {
      messages
          .append(m == 0 ? "" : ",\n")
          .append("      { \"role\" : \"")
          .append(m % 2 == 0 ? "user" : "model")
          .append("\", \"content\" : [ { \"text\" : \"")
          .append("word ".repeat(40))
          .append("\" } ] }");
    }
    Instant base = Instant.parse("2026-01-01T00:00:00Z");
    for (int i = 0; i < rows; i++) {
      String id = String.format("row-%06d", i);
      String row =
          "{\n  \"snapshotId\" : \""
              + id
              + "\",\n  \"sessionId\" : \"sess-"
              + (i % SESSIONS)
              + "\",\n  \"createdAt\" : \""
              + base.plusSeconds(i)
              + "\",\n  \"status\" : \"completed\",\n  \"state\" : {\n    \"messages\" : [\n"
              + messages
              + "\n    ]\n  }\n}\n";
      Files.writeString(folder.resolve(id + ".json"), row);
    }
  }
}
