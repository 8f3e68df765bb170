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
import org.springframework.boot.jetty.JettyWebServer;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * What the Spring Boot starter costs, not a JMH benchmark; two measurements in one run:
 *
 * <ul>
 *   <li><b>A served one-shot turn</b>: the same agent (one model call that answers at once, a new
 *       session per turn, its snapshot in an in-memory store) served by {@code BatonHandler} on
 *       Jetty, by the starter on Spring Boot's Jetty and by the starter on Spring Boot's Tomcat, in
 *       this JVM, called over loopback by one JDK HttpClient, one turn after another. Each server
 *       gets its warm-up turns, then each round runs the three servers, in an order that rotates
 *       from round to round; reported is the mean wall time of a turn, the median over the rounds.
 *       The starter on Jetty against the handler is the adapter's own cost; the starter on Tomcat
 *       against it on Jetty is the container's.
 *   <li><b>The start of an application</b>: {@link BatonBootApp} (the starter, one agent, one
 *       controller) against {@link PlainBootApp} (Spring MVC on Tomcat, one controller, the
 *       starter's jars left off the class path), each in fresh JVMs on Tomcat (Boot's Jetty jars
 *       left off both class paths), alternating; reported are the medians over the starts of the
 *       time from the JVM's start until the application was ready, and of the CPU time the process
 *       spent until then.
 * </ul>
 *
 * <p>Run with {@code ./benchmarks/run-spring}; arguments: {@code [turns per round, default 2000]
 * [warm-up turns, default 5000] [rounds, default 5] [starts of each application, default 10]}.
 */
public final class SpringAdapterRound {
  /** Boot's Jetty and Tomcat auto-configurations: a context leaves out one of them. */
  private static final String JETTY_SERVER =
      "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration";

  private static final String TOMCAT_SERVER =
      "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration";

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
    Turns turn = turns(calls, warmups, rounds);
    Startups startup = startups(starts);
    System.out.printf(Locale.ROOT, "%nLoad after: %s%n%n", loadAverage());
    System.out.printf(
        Locale.ROOT,
        "| one-shot turn, µs (median of %d rounds of %d) | BatonHandler on Jetty | starter on"
            + " Jetty | starter on Tomcat | adapter: starter on Jetty / handler | container:"
            + " Tomcat / Jetty |%n|---|---|---|---|---|---|%n| | %.0f | %.0f | %.0f | %.2f |"
            + " %.2f |%n%n",
        rounds,
        calls,
        turn.handler(),
        turn.starterOnJetty(),
        turn.starterOnTomcat(),
        turn.starterOnJetty() / turn.handler(),
        turn.starterOnTomcat() / turn.starterOnJetty());
    System.out.printf(
        Locale.ROOT,
        "| start until ready (median of %d fresh JVMs) | plain Boot app | Boot app with Baton |"
            + " with / plain |%n|---|---|---|---|%n",
        starts);
    System.out.print(row("wall ms", startup.plainWall(), startup.batonWall()));
    System.out.print(row("CPU ms", startup.plainCpu(), startup.batonCpu()));
  }

  private static String row(String figure, List<Long> plain, List<Long> withBaton) {
    long a = medianOf(plain);
    long b = medianOf(withBaton);
    return String.format(Locale.ROOT, "| %s | %d | %d | %.2f |%n", figure, a, b, (double) b / a);
  }

  /** Each start's wall and CPU milliseconds, of the plain application and of Baton's. */
  record Startups(
      List<Long> plainWall, List<Long> plainCpu, List<Long> batonWall, List<Long> batonCpu) {}

  /** The median mean time of a turn through each server, in µs. */
  record Turns(double handler, double starterOnJetty, double starterOnTomcat) {}

  /** Times the turn through BatonHandler and through the starter on Jetty and on Tomcat. */
  static Turns turns(int calls, int warmups, int rounds) throws Exception {
    Baton baton = Baton.builder().experimental().build();
    BatonBootApp.defineAgent(baton, InMemorySessionStore.create());
    HttpClient http = HttpClient.newHttpClient();
    try (BatonServer jetty =
            BatonServer.start(BatonHandler.builder(baton).allAgents().build(), "127.0.0.1", 0);
        ConfigurableApplicationContext bootJetty = startOn(TOMCAT_SERVER, JettyWebServer.class);
        ConfigurableApplicationContext bootTomcat = startOn(JETTY_SERVER, TomcatWebServer.class)) {
      List<URI> servers =
          List.of(
              jetty.uri().resolve("/agents/" + BatonBootApp.AGENT),
              starterUri(bootJetty),
              starterUri(bootTomcat));
      for (URI server : servers) {
        timeTurns(http, server, warmups);
      }
      List<List<Double>> times = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
      for (int round = 0; round < rounds; round++) {
        // Rotates who goes first, so that no server always runs right after another's turns.
        for (int i = 0; i < servers.size(); i++) {
          int server = (round + i) % servers.size();
          times.get(server).add(timeTurns(http, servers.get(server), calls));
        }
        System.out.printf(
            Locale.ROOT,
            "turn round %d: handler %.0f µs, starter on Jetty %.0f µs, starter on Tomcat %.0f µs%n",
            round + 1,
            times.get(0).getLast(),
            times.get(1).getLast(),
            times.get(2).getLast());
      }
      baton.close();
      return new Turns(median(times.get(0)), median(times.get(1)), median(times.get(2)));
    }
  }

  /**
   * Starts {@link BatonBootApp} in this JVM without {@code excludedServer}'s auto-configuration,
   * and fails unless it runs on an {@code expected} web server: a row must be the container it is
   * labelled with.
   */
  private static ConfigurableApplicationContext startOn(
      String excludedServer, Class<? extends WebServer> expected) {
    ConfigurableApplicationContext boot =
        BootStartup.run(BatonBootApp.class, "--spring.autoconfigure.exclude=" + excludedServer);
    WebServer server = ((WebServerApplicationContext) boot).getWebServer();
    if (!expected.isInstance(server)) {
      boot.close();
      throw new IllegalStateException(
          "expected " + expected.getSimpleName() + ", the application runs " + server.getClass());
    }
    return boot;
  }

  private static URI starterUri(ConfigurableApplicationContext boot) {
    int port = ((WebServerApplicationContext) boot).getWebServer().getPort();
    return URI.create("http://127.0.0.1:" + port + "/baton/agents/" + BatonBootApp.AGENT);
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

  /** Starts the plain application and the one with Baton, in turn, {@code starts} times each. */
  static Startups startups(int starts) throws IOException, InterruptedException {
    // Both applications run on Tomcat: Boot's Jetty auto-configuration is left off both class
    // paths. The plain application's lacks only the starter and its auto-configuration besides.
    String onTomcat = withoutJars(System.getProperty("java.class.path"), "spring-boot-jetty");
    String withoutStarter = withoutJars(onTomcat, "baton-spring-");
    Startups startups =
        new Startups(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (int i = 0; i < starts; i++) {
      JsonNode plain = start(withoutStarter, PlainBootApp.class);
      JsonNode withBaton = start(onTomcat, BatonBootApp.class);
      startups.plainWall().add(plain.path("startupMillis").asLong());
      startups.plainCpu().add(plain.path("cpuMillis").asLong());
      startups.batonWall().add(withBaton.path("startupMillis").asLong());
      startups.batonCpu().add(withBaton.path("cpuMillis").asLong());
      System.out.printf(
          Locale.ROOT,
          "start %d: plain %d ms (CPU %d ms), with Baton %d ms (CPU %d ms)%n",
          i + 1,
          startups.plainWall().getLast(),
          startups.plainCpu().getLast(),
          startups.batonWall().getLast(),
          startups.batonCpu().getLast());
    }
    return startups;
  }

  /** {@code classPath} without the jars whose file name starts with {@code prefix}. */
  private static String withoutJars(String classPath, String prefix) {
    return Arrays.stream(classPath.split(File.pathSeparator))
        .filter(entry -> !Path.of(entry).getFileName().toString().startsWith(prefix))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** Starts {@code application} in a fresh JVM; the figures it printed once ready. */
  private static JsonNode start(String classPath, Class<?> application)
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
    return Json.parse(line);
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
