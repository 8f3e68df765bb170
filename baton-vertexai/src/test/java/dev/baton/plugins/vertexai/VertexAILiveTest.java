package dev.baton.plugins.vertexai;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.Baton;
import dev.baton.testing.LiveModelCheck;
import java.io.IOException;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Calls the real Vertex AI with Application Default Credentials. Runs only when {@code
 * GOOGLE_CLOUD_PROJECT} is set and Application Default Credentials load, and never under CI; {@code
 * VERTEXAI_LIVE_MODEL} picks the Gemini model (default {@code gemini-2.5-flash}) and {@code
 * VERTEXAI_LIVE_CLAUDE} a Claude model, whose test runs only when it is set (Claude needs enabling
 * in the project's Model Garden).
 */
@EnabledIfEnvironmentVariable(named = "GOOGLE_CLOUD_PROJECT", matches = ".+")
@DisabledIfEnvironmentVariable(named = "CI", matches = ".+")
class VertexAILiveTest {
  @BeforeAll
  static void applicationDefaultCredentialsLoad() {
    try {
      GoogleCredentials.getApplicationDefault();
    } catch (IOException e) {
      assumeTrue(false, "no Application Default Credentials: " + e.getMessage());
    }
  }

  @Test
  void geminiAnswersAndRunsAToolRound() {
    String model =
        Objects.requireNonNullElse(System.getenv("VERTEXAI_LIVE_MODEL"), "gemini-2.5-flash");
    LiveModelCheck.answersAndRunsAToolRound(
        Baton.builder().plugin(new VertexAI()).build(), "vertexai/" + model);
  }

  @Test
  @EnabledIfEnvironmentVariable(named = "VERTEXAI_LIVE_CLAUDE", matches = ".+")
  void claudeAnswersAndRunsAToolRound() {
    LiveModelCheck.answersAndRunsAToolRound(
        Baton.builder().plugin(new VertexAI()).build(),
        "vertexai/" + System.getenv("VERTEXAI_LIVE_CLAUDE"));
  }
}
