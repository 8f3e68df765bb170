package dev.baton.benchmarks;

import dev.baton.agent.AgentOutput;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * Baton's scenario program for {@code benchmarks/run-protocols}: {@code Scenarios <scenario>
 * <protocol>} runs one scenario in this fresh JVM and prints one JSON line on stdout, as the peers'
 * programs do (benchmarks/README.md has the contract). Where JMH measures code it has compiled
 * fully, this measures what a fresh process pays: class loading, the interpreter, the JIT at work.
 *
 * <p>The scenarios are the JMH benchmarks' own set-ups, tracing off, in-memory stores: {@code
 * toolRound} ({@link GenerateBenchmark}), {@code oneShotTurn} ({@link AgentTurnBenchmark}), {@code
 * delegation} ({@link DelegationBenchmark}) on the {@code cold} and {@code 20k} protocols, and
 * {@code longSession} ({@link LongSessionBenchmark}, 200 turns of one session) on {@code long}.
 */
public final class Scenarios {
  private static final int LONG_SESSION_TURNS = 200;

  private static final ClassLoadingMXBean CLASS_LOADING = ManagementFactory.getClassLoadingMXBean();
  private static final RuntimeMXBean RUNTIME = ManagementFactory.getRuntimeMXBean();

  // Allocation is counted over every thread: a delegation's sub-agent may run on another one.
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Scenarios() {}

  /** Warm-up calls (the first one timed on its own), then measured calls. */
  private record Protocol(String name, int warmups, int calls) {
    static Protocol named(String name) {
      return switch (name) {
        case "cold" -> new Protocol(name, 200, 2_000);
        case "20k" -> new Protocol(name, 22_000, 20_000);
        default -> throw usage("no protocol " + name + " for this scenario");
      };
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw usage("two arguments expected");
    }
    String scenario = args[0];
    String protocol = args[1];
    Map<String, Object> result =
        switch (scenario) {
          case "toolRound" -> repeated(scenario, protocol, Scenarios::toolRound);
          case "oneShotTurn" -> repeated(scenario, protocol, Scenarios::oneShotTurn);
          case "delegation" -> repeated(scenario, protocol, Scenarios::delegation);
          case "longSession" -> {
            if (!protocol.equals("long")) {
              throw usage("longSession runs the long protocol only");
            }
            yield longSession();
          }
          default -> throw usage("no scenario " + scenario);
        };
    System.out.println(Json.write(result));
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(
        problem
            + "; usage: Scenarios <toolRound|oneShotTurn|delegation> <cold|20k>"
            + " or Scenarios longSession long");
  }

  /**
   * A scenario's call, the check that its first result is what the scenario should give, and what
   * to clean up after the run.
   */
  private record Call<T>(Callable<T> once, Consumer<T> check, AutoCloseable cleanUp) {
    Call(Callable<T> once, Consumer<T> check) {
      this(once, check, () -> {});
    }
  }

  private static Call<GenerateResponse> toolRound() {
    GenerateBenchmark benchmark = new GenerateBenchmark();
    benchmark.tracing = "off";
    benchmark.setUp();
    return new Call<>(
        benchmark::toolRound,
        response -> {
          expect(response.text().equals("It is 18 degrees in Paris."), response.text());
          expect(
              response.history().stream().anyMatch(m -> m.role() == Role.TOOL),
              "no tool response in " + response.history());
        });
  }

  private static Call<AgentOutput> oneShotTurn() throws Exception {
    AgentTurnBenchmark benchmark = new AgentTurnBenchmark();
    benchmark.store = "memory";
    benchmark.tracing = "off";
    benchmark.setUp();
    return new Call<>(
        benchmark::oneShotTurn,
        output -> {
          expect(!output.isFailed() && output.snapshotId() != null, "turn " + output);
          expect(output.text().equals("Sure, here is a short answer."), output.text());
        },
        benchmark::tearDown);
  }

  private static Call<AgentOutput> delegation() {
    DelegationBenchmark benchmark = new DelegationBenchmark();
    benchmark.tracing = "off";
    benchmark.defineAgents();
    return new Call<>(benchmark::synchronousDelegation, DelegationBenchmark::checkDelegated);
  }

  /**
   * Runs a protocol on a scenario: its set-up (the Baton instance and its definitions), then
   * warm-ups, the first timed alone, then measured calls.
   */
  private static <T> Map<String, Object> repeated(
      String scenario, String protocolName, Callable<Call<T>> setUp) throws Exception {
    Protocol protocol = Protocol.named(protocolName);
    long start = System.nanoTime();
    Call<T> call = setUp.call();
    long setup = System.nanoTime() - start;
    int classesBefore = CLASS_LOADING.getLoadedClassCount();
    start = System.nanoTime();
    T first = call.once().call();
    long firstCall = System.nanoTime() - start;
    long startup = RUNTIME.getUptime();
    int firstCallClasses = CLASS_LOADING.getLoadedClassCount() - classesBefore;
    call.check().accept(first);
    for (int i = 1; i < protocol.warmups(); i++) {
      call.once().call();
    }
    long bytesBefore = THREADS.getTotalThreadAllocatedBytes();
    start = System.nanoTime();
    for (int i = 0; i < protocol.calls(); i++) {
      call.once().call();
    }
    long measured = System.nanoTime() - start;
    long bytes = THREADS.getTotalThreadAllocatedBytes() - bytesBefore;
    int classes = CLASS_LOADING.getLoadedClassCount();
    call.cleanUp().close();
    Map<String, Object> result = header(scenario, protocol.name());
    result.put("warmups", protocol.warmups());
    result.put("calls", protocol.calls());
    result.put("micros", micros(measured / (double) protocol.calls()));
    result.put("bytesPerCall", bytes / protocol.calls());
    result.put("setupMicros", micros(setup));
    return withStart(result, classes, startup, firstCall, firstCallClasses);
  }

  /**
   * One session of 200 turns, each resumed from the snapshot of the turn before, with nothing run
   * before it: turn 10 is still cold, turn 200 carries the longest history.
   */
  private static Map<String, Object> longSession() throws Exception {
    long setupStart = System.nanoTime();
    LongSessionBenchmark benchmark = new LongSessionBenchmark();
    benchmark.store = "memory";
    benchmark.tracing = "off";
    benchmark.defineAgent();
    long setup = System.nanoTime() - setupStart;
    long[] turns = new long[LONG_SESSION_TURNS];
    int classesBefore = CLASS_LOADING.getLoadedClassCount();
    long bytesBefore = THREADS.getTotalThreadAllocatedBytes();
    long start = System.nanoTime();
    AgentOutput previous = benchmark.firstTurn();
    turns[0] = System.nanoTime() - start;
    long startup = RUNTIME.getUptime();
    int firstCallClasses = CLASS_LOADING.getLoadedClassCount() - classesBefore;
    String session = previous.sessionId();
    for (int turn = 2; turn <= LONG_SESSION_TURNS; turn++) {
      start = System.nanoTime();
      previous = benchmark.nextTurn(turn, previous);
      turns[turn - 1] = System.nanoTime() - start;
      if (previous.isFailed() || !Objects.equals(previous.sessionId(), session)) {
        expect(false, "turn " + turn + " of session " + session + ": " + previous);
      }
    }
    long bytes = THREADS.getTotalThreadAllocatedBytes() - bytesBefore;
    int classes = CLASS_LOADING.getLoadedClassCount();
    benchmark.tearDown();
    long sessionNanos = 0;
    for (long turn : turns) {
      sessionNanos += turn;
    }
    Map<String, Object> result = header("longSession", "long");
    result.put("turns", LONG_SESSION_TURNS);
    result.put("turn10Micros", micros(turns[9]));
    result.put("turn200Micros", micros(turns[LONG_SESSION_TURNS - 1]));
    result.put("sessionMicros", micros(sessionNanos));
    result.put("bytesPerCall", bytes / LONG_SESSION_TURNS);
    result.put("setupMicros", micros(setup));
    return withStart(result, classes, startup, turns[0], firstCallClasses);
  }

  private static Map<String, Object> header(String scenario, String protocol) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("impl", "baton");
    result.put("scenario", scenario);
    result.put("protocol", protocol);
    // A run of the same program with a JDK AOT cache is another column of the table.
    if (RUNTIME.getInputArguments().stream()
        .anyMatch(argument -> argument.startsWith("-XX:AOTCache="))) {
      result.put("aot", true);
    }
    return result;
  }

  /**
   * What the process paid to start: {@code classes} loaded when the run ended (before this program
   * built its report), {@code startupMillis} from the JVM's start until the first call returned,
   * and the first call's time and classes.
   */
  private static Map<String, Object> withStart(
      Map<String, Object> result,
      int classes,
      long startupMillis,
      long firstCallNanos,
      int firstCallClasses) {
    result.put("classesLoaded", classes);
    result.put("startupMillis", startupMillis);
    result.put("firstCallMicros", micros(firstCallNanos));
    result.put("firstCallClassesLoaded", firstCallClasses);
    return result;
  }

  /** Microseconds to one decimal. */
  private static double micros(double nanos) {
    return Math.round(nanos / 100.0) / 10.0;
  }

  /** A scenario that did not do what it should would measure the wrong thing. */
  private static void expect(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("the scenario did not run as it should: " + what);
    }
  }
}
