package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.ai.Tool;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.mcp.Mcp;
import dev.baton.mcp.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * One MCP tool call, not a JMH benchmark: the TypeScript SDK's server ({@code
 * benchmarks/peers/mcp-ts/server.mjs}, one tool that echoes its text) called over stdio and over
 * streamable HTTP by three clients in the same run: Baton's {@code McpClient} (the tool looked up
 * in a Baton and run as Baton runs a model's tool call), the MCP Java SDK's own sync client under
 * it, and the TypeScript SDK's client ({@code client.mjs}, a Node process that times its own
 * calls). Each client makes its warm-up calls, then the measured ones, one after the other;
 * reported is the mean wall time of a measured call, the median over the rounds. The rounds
 * alternate the clients, so a change in the machine's load falls on all of them alike.
 *
 * <p>Baton's column minus the TypeScript SDK's is what a call through Baton costs above the
 * reference SDK's own on the same transport and server; Baton's minus the Java SDK's is Baton's own
 * layer (the tool action, the mapping of the result to parts).
 *
 * <p>Run with {@code ./benchmarks/run-mcp}, which installs the Node peers with {@code npm ci};
 * arguments: {@code [calls, default 2000] [warm-up calls, default 2000] [rounds, default 3]}.
 */
public final class McpToolRound {
  private static final JsonNode ECHO = Json.object().put("text", "hello");

  private McpToolRound() {}

  /** The median time of a call on one transport, per client, in microseconds. */
  record Figures(String transport, double baton, double javaSdk, double tsSdk) {
    String row() {
      return String.format(
          Locale.ROOT,
          "| %s | %.0f | %.0f | %.0f | %+.0f | %+.0f |",
          transport,
          baton,
          javaSdk,
          tsSdk,
          baton - tsSdk,
          baton - javaSdk);
    }
  }

  public static void main(String[] args) throws Exception {
    int calls = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int warmups = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Path peers = peers();
    double[] before = loadAverage();
    List<Figures> figures = run(peers, calls, warmups, rounds);
    System.out.println(table(figures, calls, warmups, rounds));
    System.out.println(
        "Load before: "
            + Arrays.toString(before)
            + "; after: "
            + Arrays.toString(loadAverage())
            + " ("
            + Runtime.getRuntime().availableProcessors()
            + " cores).");
  }

  /** Runs the rounds on stdio, then on streamable HTTP. */
  static List<Figures> run(Path peers, int calls, int warmups, int rounds) throws Exception {
    install(peers);
    String server = peers.resolve("server.mjs").toAbsolutePath().toString();
    List<Figures> figures = new ArrayList<>();
    figures.add(
        rounds(
            "stdio",
            rounds,
            () -> Mcp.client("bench").stdio("node", server, "stdio").build(),
            () -> stdioTransport(server),
            peers,
            List.of("stdio"),
            calls,
            warmups));
    try (HttpServer http = HttpServer.start(peers)) {
      String url = http.url().toString();
      figures.add(
          rounds(
              "streamable HTTP",
              rounds,
              () -> Mcp.client("bench").http(http.url()).build(),
              () -> HttpClientStreamableHttpTransport.builder(url).jsonMapper(mapper()).build(),
              peers,
              List.of("http", url),
              calls,
              warmups));
    }
    return figures;
  }

  private static Figures rounds(
      String transport,
      int rounds,
      Supplier<McpClient> baton,
      Supplier<McpClientTransport> javaSdk,
      Path peers,
      List<String> tsArgs,
      int calls,
      int warmups)
      throws Exception {
    double[] batonMicros = new double[rounds];
    double[] javaMicros = new double[rounds];
    double[] tsMicros = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      batonMicros[round] = throughBaton(baton.get(), calls, warmups);
      javaMicros[round] = throughJavaSdk(javaSdk.get(), calls, warmups);
      tsMicros[round] = throughTsSdk(peers, tsArgs, calls, warmups);
    }
    return new Figures(transport, median(batonMicros), median(javaMicros), median(tsMicros));
  }

  /** The echo tool resolved by name in a Baton with the client as its plugin, as an agent's is. */
  private static double throughBaton(McpClient client, int calls, int warmups) {
    try (Baton baton = Baton.builder().plugin(client).build()) {
      Tool<?, ?> echo = Tool.lookup(baton.registry(), "bench/echo");
      Runnable call = () -> echo.runJson(baton.context(), ECHO, StreamCallback.discard());
      String first = echo.runJson(baton.context(), ECHO, StreamCallback.discard()).toString();
      if (!first.contains("hello")) {
        throw new IllegalStateException("Baton's echo answered " + first);
      }
      return time(call, calls, warmups);
    }
  }

  private static double throughJavaSdk(McpClientTransport transport, int calls, int warmups) {
    try (McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(transport).build()) {
      client.initialize();
      McpSchema.CallToolRequest request =
          McpSchema.CallToolRequest.builder("echo").arguments(Map.of("text", "hello")).build();
      McpSchema.CallToolResult first = client.callTool(request);
      if (!(first.content().getFirst() instanceof McpSchema.TextContent text)
          || !text.text().equals("hello")) {
        throw new IllegalStateException("the Java SDK's echo answered " + first);
      }
      return time(() -> client.callTool(request), calls, warmups);
    }
  }

  /** Runs the TypeScript SDK's client in a Node process of its own and reads what it measured. */
  private static double throughTsSdk(Path peers, List<String> args, int calls, int warmups)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("node", "client.mjs"));
    command.addAll(args);
    command.addAll(List.of(String.valueOf(calls), String.valueOf(warmups)));
    Path err = Files.createTempFile("mcp-ts-client", ".err");
    Process node =
        new ProcessBuilder(command).directory(peers.toFile()).redirectError(err.toFile()).start();
    String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!node.waitFor(10, TimeUnit.MINUTES) || node.exitValue() != 0) {
      throw new IllegalStateException(
          "the TypeScript client failed: "
              + out
              + Files.readString(err).lines().limit(20).toList());
    }
    Files.delete(err);
    return Json.parse(out.strip()).get("micros").asDouble();
  }

  /** The mean wall time of one of {@code calls} calls, after {@code warmups} untimed ones. */
  private static double time(Runnable call, int calls, int warmups) {
    for (int i = 1; i < warmups; i++) {
      call.run();
    }
    long start = System.nanoTime();
    for (int i = 0; i < calls; i++) {
      call.run();
    }
    return (System.nanoTime() - start) / 1000.0 / calls;
  }

  static String table(List<Figures> figures, int calls, int warmups, int rounds) {
    StringBuilder table =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "MCP tool call (echo) against the TypeScript SDK 1.32.2's server: %,d calls after"
                    + " %,d warm-ups, median of %d rounds, µs per call%n%n",
                calls,
                warmups,
                rounds));
    table
        .append("| transport | Baton | MCP Java SDK | TypeScript SDK | Baton − TS SDK")
        .append(" | Baton − Java SDK |\n|---|---|---|---|---|---|\n");
    figures.forEach(f -> table.append(f.row()).append('\n'));
    return table.toString();
  }

  /** The peers' folder, from the repository's root (the scripts) or from {@code benchmarks}. */
  static Path peers() {
    Path fromRoot = Path.of("benchmarks", "peers", "mcp-ts");
    return Files.isDirectory(fromRoot) ? fromRoot : Path.of("peers", "mcp-ts");
  }

  /** Installs the locked packages with {@code npm ci} when they are missing. */
  private static void install(Path peers) throws IOException, InterruptedException {
    if (Files.isDirectory(peers.resolve("node_modules/@modelcontextprotocol/sdk"))) {
      return;
    }
    Process npm =
        new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
            .directory(peers.toFile())
            .redirectOutput(ProcessBuilder.Redirect.INHERIT)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    if (!npm.waitFor(10, TimeUnit.MINUTES) || npm.exitValue() != 0) {
      throw new IllegalStateException("npm ci failed in " + peers);
    }
  }

  private static StdioClientTransport stdioTransport(String server) {
    return new StdioClientTransport(
        ServerParameters.builder("node").args(server, "stdio").build(), mapper());
  }

  private static JacksonMcpJsonMapper mapper() {
    return new JacksonMcpJsonMapper(Json.mapper());
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  private static double[] loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return new double[] {
        Double.parseDouble(fields[0]), Double.parseDouble(fields[1]), Double.parseDouble(fields[2])
      };
    } catch (IOException | RuntimeException e) {
      return new double[0];
    }
  }

  /** The server on streamable HTTP, in a Node process of its own. */
  private record HttpServer(Process process, URI url) implements AutoCloseable {
    static HttpServer start(Path peers) throws IOException {
      Process node =
          new ProcessBuilder("node", "server.mjs", "http")
              .directory(peers.toFile())
              .redirectErrorStream(true)
              .start();
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
      for (String line; (line = lines.readLine()) != null; ) {
        if (line.startsWith("LISTENING ")) {
          Thread.ofVirtual().start(() -> drain(lines));
          int port = Integer.parseInt(line.substring("LISTENING ".length()).strip());
          return new HttpServer(node, URI.create("http://127.0.0.1:" + port + "/mcp"));
        }
      }
      throw new IOException("the TypeScript server ended before listening");
    }

    private static void drain(BufferedReader lines) {
      try {
        lines.transferTo(java.io.Writer.nullWriter());
      } catch (IOException e) {
        // the server ended
      }
    }

    @Override
    public void close() {
      process.destroy();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
