package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * a commit survive a power loss; the store does it by default.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FileStoreCommitBenchmark {
  @Param({"true", "false"})
  public boolean syncDirectories;

  private Path dir;
  private FileSessionStore store;
  private ActionContext context;
  private SessionState state;
  private byte[] bytes;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("baton-commit");
    store = FileSessionStore.builder(dir).syncDirectories(syncDirectories).build();
    context = Baton.builder().build().context();
    state =
        new SessionState(
            "session-1",
            List.of(Message.user("Hello!"), Message.model("Hi, how can I help?")),
            null,
            List.of(),
            null);
    bytes =
        dev.baton.core.Json.writePretty(row(UUID.randomUUID().toString()))
            .getBytes(StandardCharsets.UTF_8);
    Files.createDirectories(dir.resolve("raw"));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  private SessionSnapshot row(String id) {
    Instant now = Instant.now();
    return SessionSnapshot.completed(id, "session-1", null, now, null, state);
  }

  @Benchmark
  public SessionSnapshot storeCommit() {
    String id = UUID.randomUUID().toString();
    SessionSnapshot row = row(id);
    return store.saveSnapshot(context, id, existing -> row);
  }

  @Benchmark
  public Path fsyncAndRename() throws IOException {
    Path folder = dir.resolve("raw");
    Path target = folder.resolve(UUID.randomUUID() + ".json");
    Path temp = folder.resolve(target.getFileName() + ".tmp");
    try (FileChannel channel =
        FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(bytes));
      channel.force(true);
    }
    Path moved = Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
    if (syncDirectories) {
      try (FileChannel folderChannel = FileChannel.open(folder, StandardOpenOption.READ)) {
        folderChannel.force(true);
      }
    }
    return moved;
  }
}
