package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.ai.Message;
import dev.baton.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real Genkit CLI ({@code genkit-cli@1.43.0}, installed with {@code npm ci} from the lock file
 * in {@code src/test/genkit-cli}) against {@link DevApp}: {@code genkit start --noui
 * --non-interactive -- java ...} discovers the runtime; {@code genkit flow:run} runs a flow and a
 * streamed flow streams; an agent turn runs through {@code runAction} with {@code init}, and a
 * second turn resumes its snapshot; the CLI's telemetry server stores the traces of those runs with
 * the expected span names and {@code genkit:*} attributes; what the runtime served (actions, agent
 * chunks and outputs, run responses) passes the Genkit tools' own zod schemas ({@code
 * src/test/genkit-cli/validate.js}); and the runtime file is gone once the runtime stops.
 *
 * <p>Needs Node.js and npm: skipped with a message without them, except under CI ({@code CI=true}),
 * where their absence fails the test.
 */
class GenkitCliTest {
  private static final Path FIXTURE = Path.of("src", "test", "genkit-cli");
  private static final Path CLI = Path.of("target", "genkit-cli").toAbsolutePath();
  private static final Pattern TRACE_ID = Pattern.compile("Trace ID: ([0-9a-f]{32})");
  private static final Pattern TELEMETRY =
      Pattern.compile("Telemetry API running on (http://\\S+)");

  private final List<String> startOutput = new CopyOnWriteArrayList<>();
  private Process start;

  @BeforeAll
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  static void installTheCli() throws Exception {
    requireNode();
    Files.createDirectories(CLI);
    String stamp =
        digest(FIXTURE.resolve("package.json")) + digest(FIXTURE.resolve("package-lock.json"));
    Path stampFile = CLI.resolve("installed.stamp");
    if (Files.isRegularFile(CLI.resolve("node_modules/.bin/genkit"))
        && Files.isRegularFile(stampFile)
        && Files.readString(stampFile).equals(stamp)) {
      return;
    }
    for (String file : List.of("package.json", "package-lock.json")) {
      Files.copy(FIXTURE.resolve(file), CLI.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    Result installed =
        run(
            CLI,
            Duration.ofMinutes(4),
            List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"));
    assertThat(installed.exitCode()).as("npm ci:%n%s", installed.output()).isZero();
    Files.writeString(stampFile, stamp);
  }

  @AfterEach
  void stopTheCli() {
    if (start != null && start.isAlive()) {
      start.descendants().forEach(ProcessHandle::destroy);
      start.destroy();
    }
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void genkitStartDiscoversRunsAndTracesTheJavaRuntime() throws Exception {
    deleteRecursively(CLI.resolve(".genkit"));
    start = startCli();

    // Discovery: the runtime writes its file, and genkit start health-checks it and notifies it.
    Path runtimeFile =
        await().atMost(Duration.ofSeconds(60)).until(this::runtimeFile, f -> f != null);
    JsonNode runtime = Json.parse(Files.readString(runtimeFile));
    ReflectionClient reflection =
        new ReflectionClient(URI.create(runtime.path("reflectionServerUrl").asString()));
    await().atMost(Duration.ofSeconds(30)).until(() -> output().contains("Genkit CLI connected"));
    URI telemetry = URI.create(find(TELEMETRY, output()));

    // flow:run runs a flow.
    Result echo = cli("flow:run", "echo", "\"bob\"");
    assertThat(echo.output()).contains("Result:").contains("echo: bob");
    String echoTrace = find(TRACE_ID, echo.output());

    // A streamed flow streams.
    Result count = cli("flow:run", "count", "3", "-s");
    assertThat(count.output())
        .containsSubsequence("\"count\": 0", "\"count\": 1", "\"count\": 2", "done: 3");
    String countTrace = find(TRACE_ID, count.output());

    // An agent turn through runAction with init, then a second turn that resumes its snapshot.
    HttpResponse<String> first =
        reflection.post("/api/runAction?stream=true", agentTurn("ping", Json.object()));
    String[] lines = first.body().split("\n");
    JsonNode firstOutput = Json.parse(lines[lines.length - 1]).path("result");
    assertThat(firstOutput.path("message").path("content").path(0).path("text").asString())
        .isEqualTo("echo: ping (turn 1)");
    String snapshotId = firstOutput.path("snapshotId").asString();
    String firstTrace = first.headers().firstValue("X-Genkit-Trace-Id").orElseThrow();
    HttpResponse<String> second =
        reflection.post(
            "/api/runAction", agentTurn("pong", Json.object().put("snapshotId", snapshotId)));
    assertThat(
            reflection
                .json(second)
                .path("result")
                .path("message")
                .path("content")
                .path(0)
                .path("text")
                .asString())
        .isEqualTo("echo: pong (turn 2)");

    // What the runtime served passes the Genkit tools' own schemas.
    ObjectNode payloads = Json.object();
    payloads.set("actions", reflection.json(reflection.get("/api/actions")));
    var chunks = payloads.putArray("chunks");
    for (int i = 0; i < lines.length - 1; i++) {
      chunks.add(Json.parse(lines[i]));
    }
    payloads.putArray("outputs").add(firstOutput).add(reflection.json(second).path("result"));
    payloads
        .putArray("responses")
        .add(Json.parse(lines[lines.length - 1]))
        .add(reflection.json(second));
    Path payloadFile = CLI.resolve("payloads.json");
    Files.writeString(payloadFile, Json.write(payloads));
    // Beside the installed packages, where node resolves the script's require calls.
    Files.copy(
        FIXTURE.resolve("validate.js"),
        CLI.resolve("validate.js"),
        StandardCopyOption.REPLACE_EXISTING);
    Result validated =
        run(CLI, Duration.ofSeconds(60), List.of("node", "validate.js", payloadFile.toString()));
    assertThat(validated.exitCode()).as(validated.output()).isZero();

    // The telemetry server of genkit start holds the traces, with Genkit's span names and
    // attributes.
    JsonNode echoSpans = trace(telemetry, echoTrace, 1);
    JsonNode echoRoot = span(echoSpans, "echo");
    assertThat(attributes(echoRoot))
        .containsEntry("genkit:type", "action")
        .containsEntry("genkit:metadata:subtype", "flow")
        .containsEntry("genkit:key", "/flow/echo")
        .containsEntry("genkit:metadata:context", "{}")
        .containsEntry("genkit:path", "/{echo,t:flow}")
        .containsEntry("genkit:state", "success")
        .containsEntry("genkit:input", "\"bob\"");
    assertThat(attributes(span(trace(telemetry, countTrace, 1), "count")))
        .containsEntry("genkit:output", "\"done: 3\"");
    JsonNode agentSpans = trace(telemetry, firstTrace, 4);
    JsonNode agentRoot = span(agentSpans, "serverAgent");
    JsonNode turn = span(agentSpans, "runTurn-1");
    JsonNode model = span(agentSpans, "echoModel");
    assertThat(attributes(agentRoot))
        .containsEntry("genkit:metadata:subtype", "agent")
        .containsEntry("genkit:key", "/agent/serverAgent")
        .containsEntry("genkit:metadata:context", "{}")
        .containsEntry("genkit:isRoot", true)
        .containsEntry("genkit:path", "/{serverAgent,t:action}")
        .containsEntry("genkit:metadata:agent:sessionId", firstOutput.path("sessionId").asString())
        .containsEntry("gen_ai.operation.name", "invoke_agent")
        .containsEntry("gen_ai.agent.name", "serverAgent")
        .containsEntry("genkit:init", "{}");
    assertThat(attributes(turn))
        .containsEntry("genkit:type", "flowStep")
        .containsEntry("genkit:metadata:agent:snapshotId", snapshotId);
    assertThat(turn.path("parentSpanId").asString()).isEqualTo(agentRoot.path("spanId").asString());
    assertThat(span(agentSpans, "generate").path("attributes").path("genkit:type").asString())
        .isEqualTo("util");
    assertThat(attributes(model))
        .containsEntry("genkit:metadata:subtype", "model")
        .containsEntry("genkit:key", "/model/echoModel")
        // The path Genkit JS writes for the same turn.
        .containsEntry(
            "genkit:path",
            "/{serverAgent,t:action}/{runTurn-1,t:flowStep}/{generate,t:util}"
                + "/{echoModel,t:action,s:model}")
        .containsEntry("gen_ai.operation.name", "chat")
        .containsEntry("gen_ai.request.model", "echoModel");

    // Stopping the runtime (SIGTERM) removes its runtime file; genkit start then exits with it, as
    // cleanly as with a Genkit JS runtime: a runtime that exits with any status but 0 makes the CLI
    // print "app process exited with code <n>" with a stack trace, and exit 1.
    ProcessHandle java = ProcessHandle.of(runtime.path("pid").asLong()).orElseThrow();
    java.destroy();
    await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(runtimeFile));
    assertThat(start.waitFor(30, TimeUnit.SECONDS)).as(output()).isTrue();
    assertThat(start.exitValue()).as(output()).isZero();
    assertThat(output()).doesNotContain("exited with code");
  }

  private Process startCli() throws IOException {
    List<String> command =
        new ArrayList<>(List.of(genkit(), "start", "--noui", "--non-interactive", "--"));
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(DevApp.class.getName());
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(CLI.toFile()).redirectErrorStream(true);
    cleanEnvironment(builder.environment());
    Process process = builder.start();
    Thread.ofVirtual()
        .start(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  startOutput.add(line);
                }
              } catch (IOException ignored) {
                // The process ended.
              }
            });
    return process;
  }

  private Result cli(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(genkit(), "--non-interactive"));
    command.addAll(List.of(arguments));
    Result result = run(CLI, Duration.ofSeconds(60), command);
    assertThat(result.exitCode()).as(result.output()).isZero();
    return result;
  }

  private @org.jspecify.annotations.Nullable Path runtimeFile() throws IOException {
    Path dir = CLI.resolve(".genkit/runtimes");
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (var files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".json")).findFirst().orElse(null);
    }
  }

  /** The spans of a trace once the telemetry server has at least {@code spans} of them, ended. */
  private static JsonNode trace(URI telemetry, String traceId, int spans) {
    ReflectionClient client = new ReflectionClient(telemetry);
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              HttpResponse<String> response = client.get("/api/traces/" + traceId);
              if (response.statusCode() != 200 || response.body().isBlank()) {
                return null;
              }
              JsonNode all = Json.parse(response.body()).path("spans");
              boolean complete =
                  all.size() >= spans
                      && all.valueStream().allMatch(s -> s.path("endTime").asDouble() > 0);
              return complete ? all : null;
            },
            found -> found != null);
  }

  private static JsonNode span(JsonNode spans, String name) {
    return spans
        .valueStream()
        .filter(s -> s.path("displayName").asString().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> attributes(JsonNode span) {
    return Json.convert(span.path("attributes"), Map.class);
  }

  private static ObjectNode agentTurn(String text, ObjectNode init) {
    ObjectNode body = Json.object().put("key", "/agent/serverAgent");
    body.putObject("input").set("message", Json.toTree(Message.user(text)));
    body.set("init", init);
    return body;
  }

  private String output() {
    return String.join("\n", startOutput);
  }

  private static String find(Pattern pattern, String text) {
    Matcher matcher = pattern.matcher(text);
    assertThat(matcher.find()).as("%s in:%n%s", pattern, text).isTrue();
    return matcher.group(1);
  }

  private static String genkit() {
    return CLI.resolve("node_modules/.bin/genkit").toString();
  }

  /** The CLI sets what the runtime needs; nothing of the test's own environment may change it. */
  private static void cleanEnvironment(Map<String, String> env) {
    env.keySet().removeIf(name -> name.startsWith("GENKIT_") || name.startsWith("OTEL_"));
  }

  private static void requireNode() {
    String missing = null;
    for (List<String> probe : List.of(List.of("node", "--version"), List.of("npm", "--version"))) {
      try {
        if (run(Path.of("."), Duration.ofSeconds(30), probe).exitCode() != 0) {
          missing = probe.get(0);
        }
      } catch (Exception e) {
        missing = probe.get(0);
      }
    }
    if (missing == null) {
      return;
    }
    String message =
        "the Genkit CLI test needs Node.js and npm on the PATH, and "
            + missing
            + " is missing; install Node.js 20 or newer to run it";
    if ("true".equals(System.getenv("CI"))) {
      throw new AssertionError(message + " (CI requires it)");
    }
    Assumptions.abort(message);
  }

  private record Result(int exitCode, String output) {}

  private static Result run(Path directory, Duration timeout, List<String> command)
      throws Exception {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    cleanEnvironment(builder.environment());
    Process process = builder.start();
    process.getOutputStream().close();
    StringBuilder output = new StringBuilder();
    Thread reader =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    output.append(
                        new String(
                            process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                  } catch (IOException ignored) {
                    // The process was destroyed.
                  }
                });
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      reader.join(Duration.ofSeconds(5));
      throw new AssertionError(
          String.join(" ", command) + " did not finish in " + timeout + ":\n" + output);
    }
    reader.join(Duration.ofSeconds(10));
    return new Result(process.exitValue(), output.toString());
  }

  private static String digest(Path file) throws Exception {
    return HexFormat.of()
        .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path path :
          paths
              .sorted((a, b) -> b.getNameCount() - a.getNameCount())
              .collect(Collectors.toList())) {
        Files.deleteIfExists(path);
      }
    }
  }
}
