package dev.baton.samples.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The root README's Spring Boot application compiles against the starter, with the imports the
 * README leaves out. (basic-agents' ReadmeTest compiles the README's other snippets.)
 */
class ReadmeTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  @Test
  void theSpringBootApplicationCompiles(@TempDir Path out)
      throws IOException, InterruptedException {
    String readme = Files.readString(Path.of("../../README.md"));
    Matcher block = JAVA_BLOCK.matcher(readme);
    List<String> applications =
        block
            .results()
            .map(result -> result.group(1))
            .filter(snippet -> snippet.contains("@SpringBootApplication"))
            .toList();
    assertThat(applications).as("the README's Spring Boot application").hasSize(1);
    String source =
        """
        import dev.baton.Baton;
        import dev.baton.agent.Agent;
        import dev.baton.agent.AgentOptions;
        import dev.baton.agent.SessionStore;
        import dev.baton.ai.InlinePrompt;
        import dev.baton.middleware.agents.Agents;
        import org.springframework.boot.SpringApplication;
        import org.springframework.boot.autoconfigure.SpringBootApplication;
        import org.springframework.context.annotation.Bean;

        """
            + applications.getFirst();
    Path file = Files.writeString(out.resolve("App.java"), source);

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

    assertThat(javac.waitFor()).as("javac says:%n%s", diagnostics).isZero();
  }
}
