package dev.baton.plugins.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Tool;
import dev.baton.core.Json;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfEnvironmentVariable;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tools.jackson.databind.JsonNode;

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
    Baton baton = Baton.builder().plugin(new OpenAICompatible()).build();
    AtomicInteger calls = new AtomicInteger();
    Tool<JsonNode, JsonNode> weather =
        Tool.createRaw(
            "getWeather",
            "Current weather for a city",
            Json.parse(
                "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                    + "\"required\":[\"city\"]}"),
            null,
            (ctx, input) -> {
              calls.incrementAndGet();
              return Json.parse("{\"tempC\": 21.5, \"sky\": \"sunny\"}");
            });

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model(MODEL)
                .prompt("Use the tool to get the weather in Paris, then answer in one sentence.")
                .tools(weather)
                .onChunk(chunk -> {})
                .build());

    assertThat(calls.get()).isPositive();
    assertThat(response.text()).isNotBlank();
    assertThat(response.totalUsage().inputTokens()).isPositive();
  }
}
