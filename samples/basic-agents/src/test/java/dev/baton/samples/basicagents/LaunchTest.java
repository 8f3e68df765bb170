package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sample as users start it, in a JVM of its own: on the class path, and on the module path,
 * where Baton's module descriptors (what they export, what they open to Jackson) must hold up. In
 * both the coordinator delegates to its sub-agents and answers.
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

  private static String launch(List<String> arguments) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dstdout.encoding=UTF-8");
    command.addAll(arguments);
    // Output goes to a file: a read of the pipe could block past any timeout if the child hung.
    Path log = Files.createTempFile("baton-launch", ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    // No provider, no Developer UI, no database: the sample plays every agent with its scripted
    // demo model and keeps its sessions in memory.
    builder
        .environment()
        .keySet()
        .removeIf(
            name ->
                name.startsWith("GEMINI_")
                    || name.startsWith("GOOGLE_")
                    || name.startsWith("OPENAI_")
                    || name.startsWith("GENKIT_")
                    || name.startsWith("BATON_"));
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
}
