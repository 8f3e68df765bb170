package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.benchmarks.springbaton.BatonBootApp;
import dev.baton.benchmarks.springplain.PlainBootApp;
import dev.baton.core.Json;
import dev.baton.server.BatonHandler;
import dev.baton.server.BatonServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the Spring Boot starter costs, not a JMH benchmark; two measurements in one run:
 *
 * <ul>
 *   <li><b>A served one-shot turn</b>: the same agent (one model call that answers at once, a new
 *       session per turn, its snapshot in an in-memory store) served by {@code BatonHandler} on
 *       Jetty and by the starter on Spring Boot's Tomcat, in this JVM, called over loopback by one
 *       JDK HttpClient, one turn after another. Each server gets its warm-up turns, then the rounds
 *       alternate the servers; reported is the mean wall time of a turn, the median over the
 *       rounds.
 *   <li><b>The start of an application</b>: {@link BatonBootApp} (the starter, one agent, one
 *       controller) against {@link PlainBootApp} (Spring MVC on Tomcat, one controller, the
 *       starter's jars left off the class path), each in fresh JVMs, alternating; reported is the
 *       median over the starts of the time from the JVM's start until the application was ready.
 * </ul>
 *
 * <p>Run with {@code ./benchmarks/run-spring}; arguments: {@code [turns per round, default 2000]
 * [warm-up turns, default 5000] [rounds, default 5] [starts of each application, default 10]}.
 */
public final class SpringAdapterRound {
  private static final String TURN =
      "{\"data\":{\"message\":{\"role\":\"user\",\"content\":[{\"text\":\"Hello\"}]}}}";

  private SpringAdapterRound() {}

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int starts = args.length > 3 ? Integer.parseInt(args[3]) : 10;
    System.out.printf(
        Locale.ROOT,
        "Load before: %s (%d cores)%n",
        loadAverage(),
        Runtime.getRuntime().availableProcessors());
    double[] turn = turns(calls, warmups, rounds);
    long[] startup = startups(starts);
    System.out.printf(Locale.ROOT, "%nLoad after: %s%n%n", loadAverage());
    System.out.printf(
        Locale.ROOT,
        "| one-shot turn, µs (median of %d rounds of %d) | BatonHandler on Jetty | starter on"
            + " Tomcat | starter / handler |%n|---|---|---|---|%n| | %.0f | %.0f | %.2f |%n%n",
        rounds,
        calls,
        turn[0],
        turn[1],
        turn[1] / turn[0]);
    System.out.printf(
        Locale.ROOT,
        "| start until ready, ms (median of %d fresh JVMs) | plain Boot app | Boot app with Baton |"
            + " with / plain |%n|---|---|---|---|%n| | %d | %d | %.2f |%n",
        starts,
        startup[0],
        startup[1],
        (double) startup[1] / startup[0]);
  }

  /** The median mean turn time through BatonHandler and through the starter, in µs. */
  static double[] turns(int calls, int warmups, int rounds) throws Exception {
    Baton baton = Baton.builder().experimental().build();
    BatonBootApp.defineAgent(baton, InMemorySessionStore.create());
    HttpClient http = HttpClient.newHttpClient();
    try (BatonServer jetty =
            BatonServer.start(BatonHandler.builder(baton).allAgents().build(), "127.0.0.1", 0);
        ConfigurableApplicationContext boot = BootStartup.run(BatonBootApp.class)) {
      int port = ((WebServerApplicationContext) boot).getWebServer().getPort();
      URI handler = jetty.uri().resolve("/agents/" + BatonBootApp.AGENT);
      URI starter = URI.create("http://127.0.0.1:" + port + "/baton/agents/" + BatonBootApp.AGENT);
      timeTurns(http, handler, warmups);
      timeTurns(http, starter, warmups);
      List<Double> viaHandler = new ArrayList<>();
      List<Double> viaStarter = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        viaHandler.add(timeTurns(http, handler, calls));
        viaStarter.add(timeTurns(http, starter, calls));
        System.out.printf(
            Locale.ROOT,
            "turn round %d: handler %.0f µs, starter %.0f µs%n",
            round + 1,
            viaHandler.getLast(),
            viaStarter.getLast());
      }
      baton.close();
      return new double[] {median(viaHandler), median(viaStarter)};
    }
  }

  /** Runs {@code calls} turns one after another; the mean time of one, in µs. */
  private static double timeTurns(HttpClient http, URI agent, int calls) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(agent)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(TURN))
            .build();
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (i == 0) {
        check(agent, response);
      }
    }
    return (System.nanoTime() - start) / 1_000.0 / calls;
  }

  /** Fails rather than time a turn that did not do what it should. */
  private static void check(URI agent, HttpResponse<String> response) {
    String text =
        response.statusCode() == 200
            ? Json.parse(response.body())
                .path("result")
                .path("message")
                .path("content")
                .path(0)
                .path("text")
                .asString()
            : "";
    if (!text.equals("Sure, here is a short answer.")) {
      throw new IllegalStateException(
          agent + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  /** The median start of the plain application and of the one with Baton, in ms. */
  static long[] startups(int starts) throws IOException, InterruptedException {
    String classPath = System.getProperty("java.class.path");
    // The plain application's class path lacks only the starter and its auto-configuration.
    String withoutStarter =
        Arrays.stream(classPath.split(File.pathSeparator))
            .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("baton-spring-"))
            .collect(Collectors.joining(File.pathSeparator));
    List<Long> plain = new ArrayList<>();
    List<Long> withBaton = new ArrayList<>();
    for (int i = 0; i < starts; i++) {
      plain.add(start(withoutStarter, PlainBootApp.class));
      withBaton.add(start(classPath, BatonBootApp.class));
      System.out.printf(
          Locale.ROOT,
          "start %d: plain %d ms, with Baton %d ms%n",
          i + 1,
          plain.getLast(),
          withBaton.getLast());
    }
    return new long[] {medianOf(plain), medianOf(withBaton)};
  }

  /** Starts {@code application} in a fresh JVM; the milliseconds it says it took to be ready. */
  private static long start(String classPath, Class<?> application)
      throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath,
                application.getName(),
                "--exit-when-ready")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String line;
    try (BufferedReader out =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      line = out.lines().filter(l -> l.startsWith("{\"startupMillis\"")).findFirst().orElse(null);
    }
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || line == null) {
      process.destroyForcibly();
      throw new IllegalStateException(application.getSimpleName() + " did not start and exit");
    }
    return Json.parse(line).path("startupMillis").asLong();
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static long medianOf(List<Long> values) {
    return Math.round(median(values.stream().map(Long::doubleValue).toList()));
  }

  private static String loadAverage() {
    return String.format(
        Locale.ROOT,
        "%.2f",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
