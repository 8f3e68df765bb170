package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;

/**
 * The check a model plugin's live test runs against the provider's real API: one streamed generate
 * call that must use {@link WeatherTool} and then answer.
 *
 * <p>A live test needs a key and must never run under CI, so the plugin's test class carries the
 * conditions and calls this helper:
 *
 * <pre>{@code
 * @EnabledIfEnvironmentVariable(named = "ACME_API_KEY", matches = ".+")
 * @DisabledIfEnvironmentVariable(named = "CI", matches = ".+")
 * class AcmeLiveTest {
 *   @Test
 *   void answersAndRunsAToolRound() {
 *     LiveModelCheck.answersAndRunsAToolRound(
 *         Baton.builder().plugin(new Acme()).build(), "acme/rocket-1");
 *   }
 * }
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class LiveModelCheck {
  private LiveModelCheck() {}

  /**
   * Asks {@code model} in {@code baton}, streaming, to get the weather in Paris with the tool and
   * then answer in one sentence; checks that the tool ran, that the answer has text and that the
   * usage counts input tokens.
   */
  public static void answersAndRunsAToolRound(Baton baton, String model) {
    WeatherTool weather = new WeatherTool();

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model(model)
                .prompt("Use the tool to get the weather in Paris, then answer in one sentence.")
                .tools(weather.tool())
                .onChunk(chunk -> {})
                .build());

    assertThat(weather.cities()).isNotEmpty();
    assertThat(response.text()).isNotBlank();
    assertThat(response.totalUsage().inputTokens()).isPositive();
  }
}
