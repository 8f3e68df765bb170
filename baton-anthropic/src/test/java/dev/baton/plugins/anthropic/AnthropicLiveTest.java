package dev.baton.plugins.anthropic;

import dev.baton.Baton;
import dev.baton.testing.LiveModelCheck;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * Calls the real Messages API. Runs only when {@code ANTHROPIC_API_KEY} is set and never under CI;
 * {@code ANTHROPIC_LIVE_MODEL} picks the model (default {@code claude-haiku-4-5}).
 */
@EnabledIfEnvironmentVariable(named = "ANTHROPIC_API_KEY", matches = ".+")
@DisabledIfEnvironmentVariable(named = "CI", matches = ".+")
class AnthropicLiveTest {
  private static final String MODEL =
      "anthropic/"
          + Objects.requireNonNullElse(System.getenv("ANTHROPIC_LIVE_MODEL"), "claude-haiku-4-5");

  @Test
  void answersAndRunsAToolRound() {
    LiveModelCheck.answersAndRunsAToolRound(Baton.builder().plugin(new Anthropic()).build(), MODEL);
  }
}
