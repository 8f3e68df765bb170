package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

class ConformanceSuiteTest {
  private final ByteArrayOutputStream report = new ByteArrayOutputStream();
  private final PrintStream reportStream = new PrintStream(report, true, StandardCharsets.UTF_8);

  @Test
  void aMissingSuiteIsSkippedWithALineThatSaysSoAndWhere(@TempDir Path dir) {
    Path expected = dir.resolve("agent.yaml");

    assertThatThrownBy(() -> ConformanceSuite.load("agent.yaml", dir, false, reportStream))
        .isInstanceOf(TestAbortedException.class)
        .hasMessageContaining("not found at " + expected);
    assertThat(report.toString(StandardCharsets.UTF_8))
        .startsWith("Skipped: Genkit conformance suite agent.yaml not found at " + expected)
        .contains("-Dbaton.conformance.dir");
  }

  @Test
  void aMissingSuiteFailsWhenRequired(@TempDir Path dir) {
    assertThatThrownBy(() -> ConformanceSuite.load("agent.yaml", dir, true, reportStream))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("not found at " + dir.resolve("agent.yaml"));
    assertThat(report.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void aPresentSuiteLoadsWithoutAWord(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("agent.yaml"), "tests:\n  - name: first\n  - name: second\n");

    ConformanceSuite suite = ConformanceSuite.load("agent.yaml", dir, false, reportStream);

    assertThat(suite.tests())
        .extracting(test -> test.path("name").asString())
        .containsExactly("first", "second");
    assertThat(report.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
