package dev.baton.benchmarks;

import dev.baton.Baton;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Json;
import dev.baton.server.BatonHandler;
import dev.baton.server.BatonServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * A load scenario, not a JMH benchmark: 1,000 concurrent streamed agent turns on loopback against a
 * model that waits 100 ms, served by Baton and, in the same run, by Genkit JS 1.42 (express, the
 * fixture in {@code baton-server/src/test/js}). Each turn is its own connection, started at once;
 * the client is the JDK's {@code HttpClient} on virtual threads. Reported per server: turns per
 * second (turns over the wall time from the first request to the last answer), p50 and p99 latency,
 * errors (a non-200 answer, an error frame, or a stream without a result), and lost snapshots (a
 * turn's snapshot that its server's getSnapshot does not find completed afterwards). A warm-up
 * round of the same size runs first and is not reported.
 *
 * <p>Run with {@code ./benchmarks/run-server-load} (which installs the JS fixture with {@code npm
 * ci}); arguments: {@code [turns] [model delay ms]}.
 */
public final class ServerLoadBenchmark {
  private static final Path JS_FIXTURE = Path.of("baton-server/src/test/js");

  private ServerLoadBenchmark() {}

  /** What one round measured. */
  record Result(
      String server, int turns, double seconds, long p50Ms, long p99Ms, int errors, int lost) {
    String row() {
      return String.format(
          Locale.ROOT,
          "| %s | %d | %.0f | %d | %d | %d | %d |",
          server,
          turns,
          turns / seconds,
          p50Ms,
          p99Ms,
          errors,
          lost);
    }
  }

  public static void main(String[] args) throws Exception {
    int turns = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int delayMs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    List<Result> results = new ArrayList<>();
    try (BatonServer baton = batonServer(delayMs)) {
      URI url = baton.uri().resolve("/agents/researcher");
      round("Baton (warm-up)", url, turns);
      results.add(round("Baton", url, turns));
    }
    if (Files.isDirectory(JS_FIXTURE.resolve("node_modules"))) {
      Process node =
          new ProcessBuilder("node", "server.cjs", "--delay-ms", String.valueOf(delayMs))
              .directory(JS_FIXTURE.toFile())
              .redirectErrorStream(true)
              .start();
      try {
        URI url = URI.create("http://127.0.0.1:" + listening(node) + "/agents/researcher");
        round("Genkit JS (warm-up)", url, turns);
        results.add(round("Genkit JS 1.42", url, turns));
      } finally {
        node.destroy();
        node.waitFor(10, TimeUnit.SECONDS);
      }
    } else {
      System.out.println("Skipping Genkit JS: run npm ci in " + JS_FIXTURE + " first.");
    }
    System.out.printf(
        "%n%d concurrent streamed turns, model delay %d ms, %d cores%n%n",
        turns, delayMs, Runtime.getRuntime().availableProcessors());
    System.out.println("| server | turns | turns/s | p50 ms | p99 ms | errors | lost snapshots |");
    System.out.println("|---|---|---|---|---|---|---|");
    results.forEach(r -> System.out.println(r.row()));
  }

  /** A Baton server of one agent, "researcher", on a model that waits, then streams its answer. */
  static BatonServer batonServer(int delayMs) {
    Baton baton = Baton.builder().experimental().build();
    baton.defineModel(
        "scripted",
        ModelInfo.of("scripted", ModelInfo.Supports.TEXT_ONLY),
        (ctx, request, stream) -> {
          String text = request.messages().get(request.messages().size() - 1).text();
          try {
            Thread.sleep(delayMs);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          stream.onChunk(ModelResponseChunk.text("researched: "));
          stream.onChunk(ModelResponseChunk.text(text));
          return ModelResponse.of(Message.model("researched: " + text), FinishReason.STOP);
        });
    baton.defineAgent(
        "researcher",
        InlinePrompt.builder()
            .model("scripted")
            .system("Research the question and answer in a sentence.")
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    return BatonServer.start(BatonHandler.builder(baton).allAgents().build(), "127.0.0.1", 0);
  }

  /** Sends {@code turns} streamed turns at once and checks every snapshot afterwards. */
  static Result round(String name, URI url, int turns) throws InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30))
            .executor(Executors.newVirtualThreadPerTaskExecutor())
            .build();
    ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> snapshots = new ConcurrentLinkedQueue<>();
    AtomicInteger errors = new AtomicInteger();
    Map<String, Integer> failures = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    long began;
    long ended;
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < turns; i++) {
        String body =
            "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"question "
                + i
                + "\"}]}}, \"init\": {}}";
        threads.execute(
            () -> {
              try {
                start.await();
                long t0 = System.nanoTime();
                String snapshot = turn(client, url, body);
                latencies.add(System.nanoTime() - t0);
                snapshots.add(snapshot);
              } catch (Exception e) {
                errors.incrementAndGet();
                String kind = e.getClass().getSimpleName() + ": " + e.getMessage();
                failures.merge(
                    kind.length() > 160 ? kind.substring(0, 160) : kind, 1, Integer::sum);
              }
            });
      }
      began = System.nanoTime();
      start.countDown();
    }
    ended = System.nanoTime();
    int lost = lostSnapshots(client, url, snapshots);
    List<Long> sorted = new ArrayList<>(latencies);
    Collections.sort(sorted);
    Result result =
        new Result(
            name,
            turns,
            (ended - began) / 1e9,
            percentile(sorted, 50),
            percentile(sorted, 99),
            errors.get(),
            lost);
    System.out.println(result.row());
    failures.forEach((kind, count) -> System.out.println("  " + count + " x " + kind));
    client.close();
    return result;
  }

  /** One streamed turn; returns its snapshot ID, or throws when it did not end in a result. */
  private static String turn(HttpClient client, URI url, String body)
      throws IOException, InterruptedException {
    HttpResponse<InputStream> response =
        client.send(
            HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(120))
                .header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (response.statusCode() != 200) {
        throw new IOException("HTTP " + response.statusCode());
      }
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.startsWith("data: ") && line.contains("\"result\"")) {
          JsonNode result = Json.parse(line.substring(6)).path("result");
          if (result.path("finishReason").asString("").equals("stop")
              && result.path("snapshotId").isString()) {
            return result.path("snapshotId").stringValue();
          }
          throw new IOException("a failed turn: " + result);
        }
        if (line.startsWith("error:") || line.startsWith("data: {\"error\"")) {
          throw new IOException(line);
        }
      }
      throw new IOException("the stream ended without a result");
    }
  }

  /** How many of the turns' snapshots their server does not find completed. */
  private static int lostSnapshots(HttpClient client, URI url, ConcurrentLinkedQueue<String> ids)
      throws InterruptedException {
    AtomicInteger lost = new AtomicInteger();
    URI getSnapshot = URI.create(url + "/getSnapshot");
    List<CompletableFuture<?>> reads = new ArrayList<>();
    for (String id : ids) {
      reads.add(
          client
              .sendAsync(
                  HttpRequest.newBuilder(getSnapshot)
                      .header("Content-Type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"data\": {\"snapshotId\": \"" + id + "\"}}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .thenAccept(
                  response -> {
                    if (response.statusCode() != 200
                        || !Json.parse(response.body())
                            .at("/result/status")
                            .asString("")
                            .equals("completed")) {
                      lost.incrementAndGet();
                    }
                  })
              .exceptionally(
                  e -> {
                    lost.incrementAndGet();
                    return null;
                  }));
    }
    CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).join();
    return lost.get();
  }

  private static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return -1;
    }
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return TimeUnit.NANOSECONDS.toMillis(sorted.get(Math.max(0, index)));
  }

  private static int listening(Process node) throws IOException {
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.startsWith("LISTENING ")) {
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    lines.transferTo(java.io.Writer.nullWriter());
                  } catch (IOException ignored) {
                    // the server ended
                  }
                });
        return Integer.parseInt(line.substring(10).strip());
      }
    }
    throw new IOException("the JS server ended before listening");
  }
}
