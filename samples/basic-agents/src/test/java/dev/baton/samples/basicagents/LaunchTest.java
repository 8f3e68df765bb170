package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.Json;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sample as users start it, in a JVM of its own: on the class path, and on the module path,
 * where Baton's module descriptors (what they export, what they open to Jackson) must hold up. In
 * both the coordinator delegates to its sub-agents and answers. And as {@code genkit start} runs
 * it.
 */
class LaunchTest {
  private static final Path CLASSES = Path.of("target", "classes");
  private static final String MODULE = "dev.baton.samples.basicagents";
  private static final String MAIN = BasicAgents.class.getName();

  @Test
  void theSampleDelegatesOnTheClassPath() throws Exception {
    String output = launch(List.of("-cp", path(), MAIN, "coordinator"));
    assertDelegatedAndAnswered(output);
  }

  @Test
  void theSampleDelegatesOnTheModulePath() throws Exception {
    String output =
        launch(
            List.of(
                "--module-path",
                path(),
                // The logging provider is found through the service loader, not required.
                "--add-modules",
                "org.slf4j.nop",
                "-m",
                MODULE + "/" + MAIN,
                "coordinator"));
    assertDelegatedAndAnswered(output);
    assertThat(output).doesNotContain("Exception");
  }

  /**
   * Under {@code genkit start} the sample is a runtime while its question waits for an answer: the
   * CLI and the Developer UI run its flows before anyone picks an orchestrator, even when its input
   * stays open and silent, as a script's does.
   */
  @Test
  void underGenkitStartTheAskFlowRunsWhileTheQuestionWaitsForAnAnswer(@TempDir Path project)
      throws Exception {
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    Path log = project.resolve("out.log");
    ProcessBuilder builder =
        new ProcessBuilder(java(), "-Dstdout.encoding=UTF-8", "-cp", path(), MAIN)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    withoutProviderOrDatabase(builder);
    builder.environment().put("GENKIT_ENV", "dev");
    builder.environment().put("GENKIT_REFLECTION_PORT", "0");
    Process process = builder.start();
    try {
      Path runtimes = project.resolve(".genkit/runtimes");
      Path file =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> onlyFile(runtimes), found -> found != null);
      URI server =
          URI.create(Json.parse(Files.readString(file)).path("reflectionServerUrl").asString());

      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(server.resolve("/api/runAction"))
                      .header("Content-Type", "application/json")
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"key\":\"/flow/ask\",\"input\":\"Explain binary search\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      assertThat(Json.parse(response.body()).path("result").asString())
          .startsWith("Here is what the team found.");
      String output =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () -> Files.readString(log, StandardCharsets.UTF_8), o -> o.contains("? [1] "));
      assertThat(output).as("the question still waits").doesNotContain("Type a request");
    } finally {
      process.destroyForcibly();
    }
  }

  private static @Nullable Path onlyFile(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (var files = Files.list(dir)) {
      return files.findFirst().orElse(null);
    }
  }

  private static void assertDelegatedAndAnswered(String output) {
    assertThat(output)
        .contains("Model: scripted demo model (no provider configured)")
        .contains("  → researcher: Find the key facts about: Explain binary search")
        .contains("  ← researcher finished")
        .contains("coordinator> Here is what the team found.");
  }

  /** The sample's classes and its runtime dependencies. */
  private static String path() throws IOException {
    String dependencies =
        Files.readString(Path.of("target", "runtime-path.txt"), StandardCharsets.UTF_8).strip();
    return CLASSES.toAbsolutePath() + File.pathSeparator + dependencies;
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String launch(List<String> arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Dstdout.encoding=UTF-8");
    command.addAll(arguments);
    // Output goes to a file: a read of the pipe could block past any timeout if the child hung.
    Path log = Files.createTempFile("baton-launch", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    withoutProviderOrDatabase(builder);
    Process process = builder.start();
    try {
      process
          .getOutputStream()
          .write("Explain binary search\n/quit\n".getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().close();
      boolean exited = process.waitFor(30, TimeUnit.SECONDS);
      String output = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(exited).as(output).isTrue();
      assertThat(process.exitValue()).as(output).isZero();
      return output;
    } finally {
      process.destroyForcibly();
      Files.deleteIfExists(log);
    }
  }

  /**
   * No provider, no Developer UI, no database: the sample plays every agent with its scripted demo
   * model and keeps its sessions in memory.
   */
  private static void withoutProviderOrDatabase(ProcessBuilder builder) {
    builder
        .environment()
        .keySet()
        .removeIf(
            name ->
                name.startsWith("GEMINI_")
                    || name.startsWith("GOOGLE_")
                    || name.startsWith("OPENAI_")
                    || name.startsWith("ANTHROPIC_")
                    || name.startsWith("GENKIT_")
                    || name.startsWith("BATON_"));
  }
}
