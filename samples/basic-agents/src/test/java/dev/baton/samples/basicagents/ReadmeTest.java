package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java snippets compile against the current API, read top to bottom as one method, so
 * the first code a user copies works. Only what the README leaves to the reader is declared here: a
 * tool and the record its structured output is read into.
 */
class ReadmeTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void everyJavaSnippetCompiles(@TempDir Path out) throws IOException, InterruptedException {
    String readme = Files.readString(Path.of("../../README.md"));
    List<String> snippets = new ArrayList<>();
    Matcher block = JAVA_BLOCK.matcher(readme);
    while (block.find()) {
      snippets.add(block.group(1));
    }
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
        import dev.baton.middleware.*;
        import dev.baton.otel.BatonTelemetry;
        import dev.baton.plugins.googleai.GoogleAI;
        import dev.baton.core.ActionContext;
        import dev.baton.server.*;
        import dev.baton.store.postgres.PostgresSessionStore;
        import java.net.URI;
        import java.util.Map;

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
    Path file = Files.writeString(out.resolve("Snippets.java"), source);
    Process javac =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "javac").toString(),
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
}
