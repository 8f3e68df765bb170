package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.core.Json;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A runtime in a JVM of its own, as {@code genkit start} runs it: started from a subdirectory of
 * the project, it writes its runtime file under the project root the CLI would find; stopped with
 * SIGTERM, which is all the CLI ever sends, it removes the file itself and exits with status 0.
 */
class RuntimeProcessTest {
  @TempDir Path project;

  @Test
  void sigtermRemovesTheRuntimeFileAndExitsCleanly() throws Exception {
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    Path workingDirectory = Files.createDirectories(project.resolve("app"));
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                DevApp.class.getName())
            .directory(workingDirectory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(project.resolve("out.log").toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("GENKIT_"));
    builder.environment().put("GENKIT_ENV", "dev");
    builder.environment().put("GENKIT_REFLECTION_PORT", "0");
    Process runtimeProcess = builder.start();
    try {
      Path runtimes = project.resolve(".genkit/runtimes");
      Path file =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> onlyFile(runtimes), found -> found != null);
      JsonNode runtime = Json.parse(Files.readString(file));
      assertThat(runtime.path("pid").asLong()).isEqualTo(runtimeProcess.pid());
      ReflectionClient client =
          new ReflectionClient(URI.create(runtime.path("reflectionServerUrl").asString()));
      assertThat(client.get("/api/__health?id=" + runtime.path("id").asString()).statusCode())
          .isEqualTo(200);

      runtimeProcess.destroy();
      assertThat(runtimeProcess.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(file).doesNotExist();
      // As a Genkit JS runtime exits on SIGTERM; the JVM's own handling would exit with 143.
      assertThat(runtimeProcess.exitValue()).isZero();
    } finally {
      runtimeProcess.destroyForcibly();
    }
  }

  private static Path onlyFile(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (var files = Files.list(dir)) {
      List<Path> found = files.toList();
      return found.isEmpty() ? null : found.get(0);
    }
  }
}
