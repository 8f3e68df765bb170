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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java snippets compile against the current API, so the first code a user copies
 * works. A snippet that starts with its imports is a whole program: it compiles as a file of its
 * own, imports and all, and runs. The others read top to bottom as one method; only what the README
 * leaves to the reader is declared for them here: a tool and the record its structured output is
 * read into. The Spring Boot snippets need Spring: the spring-boot-agents sample compiles them.
 */
class ReadmeTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern PUBLIC_CLASS = Pattern.compile("public class (\\w+)");

  @Test
  void everyJavaSnippetCompiles(@TempDir Path out) throws IOException, InterruptedException {
    List<String> snippets = snippets().stream().filter(s -> !isProgram(s)).toList();
    assertThat(snippets).as("the README's Java snippets").hasSizeGreaterThanOrEqualTo(3);
    StringBuilder methods = new StringBuilder();
    for (int i = 0; i < snippets.size(); i++) {
      methods.append("  void snippet").append(i).append("() throws Exception {\n");
      methods.append(snippets.get(i)).append("  }\n");
    }
    String source =
        """
        import com.zaxxer.hikari.HikariDataSource;
        import dev.baton.Baton;
        import dev.baton.agent.*;
        import dev.baton.agent.store.*;
        import dev.baton.ai.*;
        import dev.baton.devtools.DevTools;
        import dev.baton.mcp.*;
        import dev.baton.middleware.*;
        import dev.baton.middleware.agents.*;
        import dev.baton.middleware.budget.*;
        import dev.baton.middleware.compression.*;
        import dev.baton.otel.BatonTelemetry;
        import dev.baton.plugins.googleai.GoogleAI;
        import dev.baton.core.ActionContext;
        import dev.baton.core.Json;
        import dev.baton.server.*;
        import dev.baton.store.postgres.PostgresSessionStore;
        import java.net.URI;
        import java.time.Duration;
        import java.util.List;
        import java.util.Map;
        import tools.jackson.databind.PropertyNamingStrategies;

        class Snippets {
          record Weather(String summary) {}

          interface Users {
            boolean isValid(String token);

            String idOf(String token);
          }

          Baton baton;
          Baton otherBaton;
          Agent researcher;
          Tool<?, ?> weatherTool;
          Users users;

          String token() {
            return "";
          }

        %s}
        """
            .formatted(methods);

    assertCompiles(Files.writeString(out.resolve("Snippets.java"), source), out);
  }

  @Test
  void theProgramForYourOwnProjectCompilesWithItsOwnImportsAndRunsWithoutAKey(@TempDir Path out)
      throws Exception {
    List<String> programs = snippets().stream().filter(ReadmeTest::isProgram).toList();
    assertThat(programs).as("whole programs in the README").hasSize(1);
    String program = programs.getFirst();
    Matcher name = PUBLIC_CLASS.matcher(program);
    assertThat(name.find()).as("a public class in:%n%s", program).isTrue();
    assertCompiles(Files.writeString(out.resolve(name.group(1) + ".java"), program), out);

    Path log = out.resolve("run.log");
    Process run =
        new ProcessBuilder(
                java("java"),
                "-cp",
                out + File.pathSeparator + System.getProperty("java.class.path"),
                name.group(1))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean exited = run.waitFor(60, TimeUnit.SECONDS);
    run.destroyForcibly();
    String output = Files.readString(log, StandardCharsets.UTF_8);

    assertThat(exited).as(output).isTrue();
    assertThat(run.exitValue()).as(output).isZero();
    assertThat(output).isEqualTo("You said: Hello\n");
  }

  private static List<String> snippets() throws IOException {
    String readme = Files.readString(Path.of("../../README.md"));
    List<String> snippets = new ArrayList<>();
    Matcher block = JAVA_BLOCK.matcher(readme);
    while (block.find()) {
      if (!block.group(1).contains("@SpringBootApplication")) {
        snippets.add(block.group(1));
      }
    }
    return snippets;
  }

  private static boolean isProgram(String snippet) {
    return snippet.startsWith("import ");
  }

  private static void assertCompiles(Path file, Path out) throws IOException, InterruptedException {
    Process javac =
        new ProcessBuilder(
                java("javac"),
                "-proc:none",
                "-d",
                out.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                file.toString())
            .redirectErrorStream(true)
            .start();
    String diagnostics = new String(javac.getInputStream().readAllBytes());
    boolean compiled = javac.waitFor() == 0;

    assertThat(compiled).as("javac says:%n%s", diagnostics).isTrue();
  }

  private static String java(String tool) {
    return Path.of(System.getProperty("java.home"), "bin", tool).toString();
  }
}
