package dev.baton.samples.basicagents;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The third choice: the lead's coder asks before it writes a file, the terminal asks the user, and
 * the work goes on with the answer.
 */
class WorkshopTest {
  @TempDir Path workspace;

  @Test
  void anApprovedWriteIsWrittenAndTheLeadReportsIt() throws Exception {
    String text = run("3\nA program that prints hello\ny\n/quit\n");

    Path written = workspace.resolve("src/Main.java");
    assertThat(text)
        .contains("or 3) the lead, whose coder asks before it writes a file? [1] 3\n")
        .contains("The coder writes into " + workspace.toAbsolutePath() + ".")
        .contains("  → file_coder: Write src/Main.java: A program that prints hello")
        .contains("  ← file_coder stopped for input")
        .contains("file_coder wants to write src/Main.java: approve? [y/n] y\n")
        .contains("  ✎ wrote " + written.toAbsolutePath())
        .contains("lead> The coder reports: Wrote src/Main.java (");
    assertThat(text.indexOf("approve? [y/n]")).isLessThan(text.indexOf("  ✎ wrote"));
    assertThat(written).exists();
    assertThat(Files.readString(written)).contains("// A sketch for: Write src/Main.java");
  }

  @Test
  void aRefusedWriteIsNotWrittenAndTheWorkGoesOn() throws Exception {
    String text = run("3\nA program that prints hello\nmaybe\nn\n/quit\n");

    assertThat(text)
        .contains("file_coder wants to write src/Main.java: approve? [y/n] maybe\n")
        .contains("Please answer y or n.")
        .contains("file_coder wants to write src/Main.java: approve? [y/n] n\n")
        .contains(
            "lead> The coder reports: I did not write src/Main.java: the user did not approve it.")
        .doesNotContain("✎ wrote")
        .contains("Session ");
    assertThat(workspace.resolve("src/Main.java")).doesNotExist();
  }

  @Test
  void theLeadIsChosenByName() throws Exception {
    String text = run(new String[] {"lead"}, "A program that prints hello\ny\n/quit\n");

    assertThat(text)
        .doesNotContain("Talk to 1)")
        .contains("lead> The coder reports: Wrote src/Main.java (");
  }

  private String run(String input) throws Exception {
    return run(new String[0], input);
  }

  /** Runs the chat on piped input, with the coder writing into the test's workspace. */
  private String run(String[] args, String input) throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int exit =
        BasicAgents.run(
            args,
            new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            Map.of("BATON_WORKSPACE", workspace.toString()),
            false);
    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    return text;
  }
}
