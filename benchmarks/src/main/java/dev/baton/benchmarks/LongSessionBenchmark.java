package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
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

/**
 * Turn number {@code turn} of one long session of a server-managed prompt agent, snapshot included.
 * Every invocation branches from the same snapshot, so the history it carries stays the same size;
 * compare turn 10 with turn 200 to see whether a turn's cost grows with the history.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LongSessionBenchmark {
  /**
   * {@code memory} and {@code file} are the bundled stores; {@code forgetful} keeps only the
   * session's seed turns and forgets what the measured turns write, which takes the store's own
   * growth (and the garbage collection of every row ever written) out of the figure.
   */
  @Param({"memory", "file", "forgetful"})
  public String store;

  @Param({"off", "spans", "content"})
  public String tracing;

  @Param({"10", "200"})
  public int turn;

  private Path dir;
  private Agent agent;
  private ForgetfulStore forgetful;
  private AgentInit resumeAt;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    defineAgent();
    AgentOutput previous = firstTurn();
    for (int i = 2; i < turn; i++) {
      previous = nextTurn(i, previous);
    }
    resumeAt = AgentInit.ofSnapshot(previous.snapshotId());
    forgetful.forgetFromNowOn();
  }

  /** Defines the agent on the {@code store} and {@code tracing} chosen; runs no turn. */
  void defineAgent() throws IOException {
    Baton baton = Fixtures.baton(tracing);
    Fixtures.chatModel(baton, "bench");
    dir = Files.createTempDirectory("baton-bench");
    InMemorySessionStore memory = InMemorySessionStore.create();
    forgetful = new ForgetfulStore(memory);
    SessionStore sessions =
        switch (store) {
          case "file" -> FileSessionStore.builder(dir).build();
          case "forgetful" -> forgetful;
          default -> memory;
        };
    agent =
        baton.defineAgent(
            "chat",
            InlinePrompt.builder().model("bench").system("You are a helpful assistant.").build(),
            AgentOptions.builder().sessionStore(sessions).build());
  }

  /** The session's first turn. */
  AgentOutput firstTurn() {
    return agent.runText("Hello!");
  }

  /** Turn {@code number} of the session, resumed from the snapshot of the turn before it. */
  AgentOutput nextTurn(int number, AgentOutput previous) {
    return agent.runText(
        "Tell me more, part " + number + ".", AgentInit.ofSnapshot(previous.snapshotId()));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  @Benchmark
  public AgentOutput turnOfLongSession() {
    return agent.runText("And then?", resumeAt);
  }
}
