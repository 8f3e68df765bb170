package dev.baton.benchmarks.peers.langchain4j;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agentic.Agent;
import dev.langchain4j.agentic.AgenticServices;
import dev.langchain4j.agentic.supervisor.SupervisorAgent;
import dev.langchain4j.agentic.supervisor.SupervisorResponseStrategy;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * LangChain4j's side of the scenario benchmarks. {@code Scenarios <scenario> <protocol>} runs one
 * scenario in this fresh JVM and prints one JSON line on stdout, as benchmarks/peers/README.md
 * describes; benchmarks/peers/langchain4j/run builds and starts it.
 */
public final class Scenarios {
  private static final String IMPL = "langchain4j";
  private static final int LONG_SESSION_TURNS = 200;

  private static final RuntimeMXBean RUNTIME = ManagementFactory.getRuntimeMXBean();
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Scenarios() {}

  /** How many calls warm the JVM up and how many are measured after them. */
  private record Protocol(int warmups, int calls) {
    static Protocol named(String name) {
      return switch (name) {
        case "cold" -> new Protocol(200, 2_000);
        case "20k" -> new Protocol(22_000, 20_000);
        default -> throw new IllegalArgumentException("unknown protocol " + name);
      };
    }
  }

  /** A scenario's call, and the answer its first run must give. */
  private record Call(Supplier<String> call, String expected) {}

  /** The assistant of GenerateBenchmark: a system text, a user prompt and the lookup tool. */
  public interface Assistant {
    @SystemMessage("Be brief.")
    String chat(String prompt);
  }

  /** The output of GenerateBenchmark's lookup tool. */
  public record Weather(String city, int celsius) {}

  /** GenerateBenchmark's lookup tool. */
  public static final class WeatherTools {
    @Tool("Weather by city")
    public Weather lookup(@P("city") String city) {
      return new Weather(city, 18);
    }
  }

  /** DelegationBenchmark's sub-agent. */
  public interface Researcher {
    @Agent(name = "researcher", description = "Finds facts.")
    @SystemMessage("You research.")
    @UserMessage("{{task}}")
    String research(@V("task") String task);
  }

  /** The chat agent of LongSessionBenchmark. */
  public interface ChatAgent {
    @SystemMessage("You are a helpful assistant.")
    String chat(String text);
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println(
          "usage: Scenarios <toolRound|oneShotTurn|delegation|longSession> <cold|20k|long>");
      System.exit(2);
    }
    String scenario = args[0];
    String protocol = args[1];
    if (scenario.equals("longSession") != protocol.equals("long")) {
      System.err.println(scenario + " does not run the " + protocol + " protocol");
      System.exit(2);
    }
    Map<String, Object> result =
        switch (scenario) {
          case "toolRound" -> repeated(scenario, protocol, Scenarios::toolRound);
          case "delegation" -> repeated(scenario, protocol, Scenarios::delegation);
          case "longSession" -> longSession(scenario, protocol);
          // LangChain4j has no server-managed agent turn with a snapshot; see the README.
          case "oneShotTurn" -> unsupported(scenario, protocol);
          default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        };
    System.out.println(json(result));
  }

  /** GenerateBenchmark.toolRound: one AiServices call with one tool round, model, tool, model. */
  private static Call toolRound() {
    Assistant assistant =
        AiServices.builder(Assistant.class)
            .chatModel(CannedModels.tool())
            .tools(new WeatherTools())
            .build();
    return new Call(() -> assistant.chat("Weather in Paris?"), CannedModels.TOOL_ANSWER);
  }

  /**
   * DelegationBenchmark.synchronousDelegation: a supervisor whose planner delegates once to the
   * researcher and then answers, three model calls in all. SUMMARY returns the planner's final
   * answer, as Baton's orchestrator returns its own last answer.
   */
  private static Call delegation() {
    Researcher researcher =
        AgenticServices.agentBuilder(Researcher.class).chatModel(CannedModels.chat()).build();
    SupervisorAgent orchestrator =
        AgenticServices.supervisorBuilder()
            .chatModel(CannedModels.planner())
            .subAgents(researcher)
            .responseStrategy(SupervisorResponseStrategy.SUMMARY)
            .build();
    return new Call(
        () -> orchestrator.invoke("What is the capital of France?"),
        CannedModels.DELEGATION_ANSWER);
  }

  /**
   * One session of 200 turns: each turn is one call of an assistant whose chat memory keeps the
   * whole history in an in-memory store, the closest LangChain4j has to Baton's session of
   * snapshots.
   */
  private static Map<String, Object> longSession(String scenario, String protocol) {
    long setupStart = System.nanoTime();
    // Room for the whole session, system message included: Baton's session forgets nothing.
    ChatMemory memory =
        MessageWindowChatMemory.builder()
            .id("session")
            .maxMessages(2 * LONG_SESSION_TURNS + 1)
            .chatMemoryStore(new InMemoryChatMemoryStore())
            .build();
    ChatAgent agent =
        AiServices.builder(ChatAgent.class)
            .chatModel(CannedModels.chat())
            .chatMemory(memory)
            .build();
    long setup = System.nanoTime() - setupStart;
    long[] turns = new long[LONG_SESSION_TURNS];
    long startup = 0;
    int classesBefore = loadedClasses();
    int firstCallClasses = 0;
    long bytesBefore = allocatedBytes();
    for (int turn = 1; turn <= LONG_SESSION_TURNS; turn++) {
      String text = turn == 1 ? "Hello!" : "Tell me more, part " + turn + ".";
      long start = System.nanoTime();
      String answer = agent.chat(text);
      turns[turn - 1] = System.nanoTime() - start;
      if (turn == 1) {
        startup = RUNTIME.getUptime();
        firstCallClasses = loadedClasses() - classesBefore;
      }
      expect(answer, CannedModels.CHAT_ANSWER);
    }
    long bytes = allocatedBytes() - bytesBefore;
    int classes = loadedClasses();
    if (memory.messages().size() != 2 * LONG_SESSION_TURNS + 1) {
      throw new IllegalStateException(
          "the session did not keep its history: " + memory.messages().size() + " messages");
    }
    long session = 0;
    for (long turn : turns) {
      session += turn;
    }
    Map<String, Object> result = header(scenario, protocol);
    result.put("turns", LONG_SESSION_TURNS);
    result.put("turn10Micros", micros(turns[9]));
    result.put("turn200Micros", micros(turns[LONG_SESSION_TURNS - 1]));
    result.put("sessionMicros", micros(session));
    result.put("bytesPerCall", bytes / LONG_SESSION_TURNS);
    result.put("setupMicros", micros(setup));
    return withStart(result, classes, startup, turns[0], firstCallClasses);
  }

  /**
   * Runs a protocol on a scenario: its set-up (the services and their models), then warm-ups, the
   * first timed alone, then the measured calls together.
   */
  private static Map<String, Object> repeated(
      String scenario, String protocolName, Supplier<Call> setUp) {
    Protocol protocol = Protocol.named(protocolName);
    long start = System.nanoTime();
    Call scenarioCall = setUp.get();
    Supplier<String> call = scenarioCall.call();
    long setup = System.nanoTime() - start;
    int classesBefore = loadedClasses();
    start = System.nanoTime();
    String first = call.get();
    long firstCall = System.nanoTime() - start;
    long startup = RUNTIME.getUptime();
    int firstCallClasses = loadedClasses() - classesBefore;
    expect(first, scenarioCall.expected());
    for (int i = 1; i < protocol.warmups(); i++) {
      call.get();
    }
    long bytesBefore = allocatedBytes();
    start = System.nanoTime();
    for (int i = 0; i < protocol.calls(); i++) {
      call.get();
    }
    long measured = System.nanoTime() - start;
    long bytes = allocatedBytes() - bytesBefore;
    int classes = loadedClasses();
    Map<String, Object> result = header(scenario, protocolName);
    result.put("warmups", protocol.warmups());
    result.put("calls", protocol.calls());
    result.put("micros", micros(measured / (double) protocol.calls()));
    result.put("bytesPerCall", bytes / protocol.calls());
    result.put("setupMicros", micros(setup));
    return withStart(result, classes, startup, firstCall, firstCallClasses);
  }

  /**
   * What the process paid to start, as Baton's scenario program reports it: {@code classes} loaded
   * when the run ended, {@code startupMillis} from the JVM's start until the first call returned,
   * and the first call's time and the classes it loaded.
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

  /**
   * Heap bytes allocated by every thread so far. LangChain4j runs these scenarios on the calling
   * thread, but counting all threads keeps the figure honest should a call hand work to another.
   */
  private static long allocatedBytes() {
    return THREADS.getTotalThreadAllocatedBytes();
  }

  private static int loadedClasses() {
    return ManagementFactory.getClassLoadingMXBean().getLoadedClassCount();
  }

  /** A scenario that did not run as it should would measure the wrong thing. */
  private static void expect(String answer, String expected) {
    if (!expected.equals(answer)) {
      throw new IllegalStateException(
          "the scenario did not run as it should: answered " + answer + ", not " + expected);
    }
  }

  private static Map<String, Object> unsupported(String scenario, String protocol) {
    Map<String, Object> result = header(scenario, protocol);
    result.put("unsupported", true);
    return result;
  }

  private static Map<String, Object> header(String scenario, String protocol) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("impl", IMPL);
    result.put("scenario", scenario);
    result.put("protocol", protocol);
    return result;
  }

  private static double micros(double nanos) {
    return Math.round(nanos / 100.0) / 10.0;
  }

  /** The result as one JSON line; its keys are plain names and its string values need no escape. */
  private static String json(Map<String, Object> result) {
    StringBuilder line = new StringBuilder("{");
    result.forEach(
        (key, value) -> {
          if (line.length() > 1) {
            line.append(',');
          }
          line.append('"').append(key).append("\":");
          line.append(
              value instanceof String text
                  ? '"' + text + '"'
                  : String.format(Locale.ROOT, "%s", value));
        });
    return line.append('}').toString();
  }
}
