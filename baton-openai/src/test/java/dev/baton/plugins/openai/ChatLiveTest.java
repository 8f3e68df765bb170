package dev.baton.plugins.openai;

import dev.baton.Baton;
import dev.baton.testing.LiveModelCheck;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Calls a real server: OpenAI, or whatever {@code OPENAI_BASE_URL} names. Runs only when {@code
 * OPENAI_API_KEY} is set and never under CI; {@code OPENAI_LIVE_MODEL} picks the model (default
 * {@code gpt-4o-mini}).
 */
@EnabledIfEnvironmentVariable(named = "OPENAI_API_KEY", matches = ".+")
@DisabledIfEnvironmentVariable(named = "CI", matches = ".+")
class ChatLiveTest {
  private static final String MODEL =
      "openai/" + Objects.requireNonNullElse(System.getenv("OPENAI_LIVE_MODEL"), "gpt-4o-mini");

  @Test
  void answersAndRunsAToolRound() {
    LiveModelCheck.answersAndRunsAToolRound(
        Baton.builder().plugin(new OpenAICompatible()).build(), MODEL);
  }
}
