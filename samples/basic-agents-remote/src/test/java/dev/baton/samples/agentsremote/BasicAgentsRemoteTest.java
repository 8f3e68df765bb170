package dev.baton.samples.agentsremote;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BasicAgentsRemoteTest {

  @Test
  void theDemoDelegatesEachPartInTheBackgroundOverHttpAndCombinesTheAnswers() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    byte[] input =
        "Why are tides high and why do storms form?\nAnd what about wind?\n/quit\n"
            .getBytes(StandardCharsets.UTF_8);

    int exit =
        BasicAgentsRemote.run(
            new ByteArrayInputStream(input),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            Map.of());

    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    assertThat(text)
        .contains("Started the researcher's own Baton server at http://127.0.0.1:")
        .contains("  -> researcher, in the background: Why are tides high")
        .contains("  -> researcher, in the background: why do storms form?")
        .containsPattern("  \\.\\. task researcher:[0-9a-f-]+ pending")
        .containsPattern("  <- task researcher:[0-9a-f-]+ completed")
        .contains("orchestrator> Here is what the researcher found:")
        .contains("- Findings on \"Why are tides high\"")
        .contains("- Findings on \"why do storms form?\"")
        .contains("- Findings on \"And what about wind?\"");
  }

  @Test
  void inA2aModeTheDemoDelegatesEachPartInTheBackgroundOverA2a() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    byte[] input =
        "Why are tides high and why do storms form?\n/quit\n".getBytes(StandardCharsets.UTF_8);

    int exit =
        BasicAgentsRemote.run(
            new ByteArrayInputStream(input),
            new PrintStream(captured, true, StandardCharsets.UTF_8),
            Map.of("BATON_PROTOCOL", "a2a"));

    String text = captured.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    assertThat(text)
        .containsPattern(
            "an A2A researcher whose card is at http://127\\.0\\.0\\.1:[0-9]+/a2a/researcher/")
        .containsPattern("  \\.\\. task researcher:[0-9a-f-]+ pending")
        .containsPattern("  <- task researcher:[0-9a-f-]+ completed")
        .contains("- Findings on \"Why are tides high\"")
        .contains("- Findings on \"why do storms form?\"");
  }
}
