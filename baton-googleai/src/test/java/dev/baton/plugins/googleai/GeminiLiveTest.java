package dev.baton.plugins.googleai;

import dev.baton.Baton;
import dev.baton.testing.LiveModelCheck;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Calls the real Gemini API. Runs only when {@code GEMINI_API_KEY} is set and never under CI;
 * {@code GEMINI_LIVE_MODEL} picks the model (default {@code gemini-2.5-flash}).
 */
@EnabledIfEnvironmentVariable(named = "GEMINI_API_KEY", matches = ".+")
@DisabledIfEnvironmentVariable(named = "CI", matches = ".+")
class GeminiLiveTest {
  private static final String MODEL =
      "googleai/"
          + Objects.requireNonNullElse(System.getenv("GEMINI_LIVE_MODEL"), "gemini-2.5-flash");

  @Test
  void answersAndRunsAToolRound() {
    LiveModelCheck.answersAndRunsAToolRound(Baton.builder().plugin(new GoogleAI()).build(), MODEL);
  }
}
