package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
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

/** A one-shot turn of a server-managed prompt agent in a new session, snapshot included. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class AgentTurnBenchmark {
  @Param({"memory", "file"})
  public String store;

  @Param({"off", "spans", "content"})
  public String tracing;

  private Path dir;
  private Agent agent;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Baton baton = Fixtures.baton(tracing);
    Fixtures.chatModel(baton, "bench");
    dir = Files.createTempDirectory("baton-bench");
    SessionStore sessions =
        store.equals("file")
            ? FileSessionStore.builder(dir).build()
            : InMemorySessionStore.create();
    agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("bench").system("You are a helpful assistant.").build(),
            AgentOptions.builder().sessionStore(sessions).build());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Benchmark
  public AgentOutput oneShotTurn() {
    return agent.runText("Hello!");
  }
}
