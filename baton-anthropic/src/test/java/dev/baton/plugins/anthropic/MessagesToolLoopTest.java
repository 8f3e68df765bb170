package dev.baton.plugins.anthropic;

import static dev.baton.plugins.anthropic.AnthropicFixtures.MODEL;
import static dev.baton.plugins.anthropic.AnthropicFixtures.baton;
import static dev.baton.plugins.anthropic.AnthropicFixtures.body;
import static dev.baton.plugins.anthropic.AnthropicFixtures.message;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.Json;
import dev.baton.middleware.budget.Budget;
import dev.baton.middleware.budget.BudgetExceededException;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.WeatherTool;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A generate call with extended thinking and a tool round, end to end through the plugin and a
 * replaying server: the thinking blocks go back with their signatures unchanged, as the API
 * requires.
 */
class MessagesToolLoopTest {
  private static final String SIGNATURE =
      "EuYBCkQYAiJAgCs1le6/Pol5Z4/JMomVOouGrWdhYNsH3ukzUECbB6iWrSQtsQuRHJID6lWV";
  private static final String REDACTED = "EmwKAhgBEgy3va3pzix/LafPsn4aDFITZWO0rqi1";

  @AutoClose private final FakeHttpServer server = FakeHttpServer.start();
  private final WeatherTool weather = new WeatherTool();

  @Test
  void sendsThinkingAndRedactedThinkingBackUnchangedWithTheToolResult() {
    server.reply(
        message(
            """
            [{"type": "thinking", "thinking": "I should look the weather up.",
              "signature": "%s"},
             {"type": "redacted_thinking", "data": "%s"},
             {"type": "tool_use", "id": "toolu_01", "name": "getWeather",
              "input": {"city": "Paris"}}]"""
                .formatted(SIGNATURE, REDACTED),
            "tool_use",
            "{\"input_tokens\": 400, \"cache_read_input_tokens\": 50, \"output_tokens\": 120}"),
        message(
            "[{\"type\": \"text\", \"text\": \"It is 21.5 °C and sunny in Paris.\"}]",
            "end_turn",
            "{\"input_tokens\": 600, \"output_tokens\": 15}"));

    GenerateResponse response =
        baton(server)
            .generate(
                GenerateOptions.builder()
                    .model(MODEL)
                    .prompt("What is the weather in Paris?")
                    .tools(weather.tool())
                    .config(Map.of("thinking", Map.of("budgetTokens", 2048)))
                    .build());

    assertThat(response.text()).isEqualTo("It is 21.5 °C and sunny in Paris.");
    assertThat(weather.cities()).containsExactly("Paris");
    assertThat(body(server, 0).path("thinking"))
        .isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 2048}"));
    assertThat(body(server, 1).path("messages"))
        .isEqualTo(
            Json.parse(
                """
                [{"role": "user", "content": [{"type": "text",
                                               "text": "What is the weather in Paris?"}]},
                 {"role": "assistant", "content": [
                   {"type": "thinking", "thinking": "I should look the weather up.",
                    "signature": "%s"},
                   {"type": "redacted_thinking", "data": "%s"},
                   {"type": "tool_use", "id": "toolu_01", "name": "getWeather",
                    "input": {"city": "Paris"}}]},
                 {"role": "user", "content": [
                   {"type": "tool_result", "tool_use_id": "toolu_01",
                    "content": "{\\"tempC\\":21.5,\\"sky\\":\\"sunny\\"}"}]}]
                """
                    .formatted(SIGNATURE, REDACTED)));
    assertThat(Json.toTree(response.totalUsage()))
        .isEqualTo(
            Json.parse(
                """
                {"inputTokens": 1050, "outputTokens": 135, "totalTokens": 1185,
                 "cachedContentTokens": 50}
                """));
  }

  @Test
  void aBudgetCountsCachedInputTokens() {
    // 100 uncached input tokens alone stay under the limit; with the cache's they exceed it.
    server.reply(
        message(
            """
            [{"type": "tool_use", "id": "toolu_01", "name": "getWeather",
              "input": {"city": "Paris"}}]""",
            "tool_use",
            """
            {"input_tokens": 100, "cache_creation_input_tokens": 700,
             "cache_read_input_tokens": 300, "output_tokens": 20}"""));
    GenerateOptions options =
        GenerateOptions.builder()
            .model(MODEL)
            .prompt("What is the weather in Paris?")
            .tools(weather.tool())
            .use(Budget.perRun(GenerationUsage.builder().inputTokens(1000).build()))
            .build();

    assertThatThrownBy(() -> baton(server).generate(options))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(server.requests()).hasSize(1);
  }
}
