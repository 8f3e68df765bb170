package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A file-store commit of a small snapshot, next to the floor it cannot beat: writing the same
 * number of bytes to a temp file, fsyncing it and renaming it into place. Both run with and without
 * forcing the folder to the device after the rename ({@code syncDirectories}), which is what makes
 * a commit survive a power loss; the store does it by default. On a busy machine, where the cost of
 * an fsync swings from one fork to the next, {@link FileStoreCommitInterleaved} compares the two
 * more fairly. Each fork first compiles both on a tmpfs (see {@link FileCommits#compile}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FileStoreCommitBenchmark {
  /** Commits of each kind run before JMH's warm-up, to compile them (see FileCommits#compile). */
  private static final int WARM_UP_COMMITS = 20_000;

  @Param({"true", "false"})
  public boolean syncDirectories;

  private Path dir;
  private FileSessionStore store;
  private ActionContext context;
  private byte[] bytes;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("baton-commit");
    store = FileSessionStore.builder(dir).syncDirectories(syncDirectories).build();
    context = Baton.builder().build().context();
    bytes =
        dev.baton.core.Json.writePretty(FileCommits.row(UUID.randomUUID().toString()))
            .getBytes(StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("raw"));
    FileCommits.compile(context, bytes, WARM_UP_COMMITS);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    FileCommits.delete(dir);
  }

  @Benchmark
  public SessionSnapshot storeCommit() {
    String id = UUID.randomUUID().toString();
    SessionSnapshot row = FileCommits.row(id);
    return store.saveSnapshot(context, id, existing -> row);
  }

  @Benchmark
  public Path fsyncAndRename() throws IOException {
    return FileCommits.fsyncAndRename(dir.resolve("raw"), bytes, syncDirectories);
  }
}
