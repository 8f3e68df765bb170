package dev.baton;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.SessionState;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.Flow;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.LiveSession;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;

/**
 * The application's mapper reads and writes the application's types (here with a naming strategy
 * Baton's mapper does not have), while Genkit's JSON keeps Baton's.
 */
class ApplicationJsonMapperTest {
  record City(String cityName) {}

  record Weather(String cityName, int degreesCelsius) {}

  private final Baton baton =
      Baton.builder()
          .jsonMapper(
              Json.mapper()
                  .rebuild()
                  .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                  .build())
          .build();

  @Test
  void aToolReadsItsInputAndWritesItsOutputWithTheApplicationsMapper() {
    AtomicReference<City> received = new AtomicReference<>();
    Tool<City, Weather> weather =
        baton.defineTool(
            "weather",
            "Weather for a city",
            City.class,
            Weather.class,
            (ctx, city) -> {
              received.set(city);
              return new Weather(city.cityName(), 18);
            });
    ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
    model.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(
                    Part.toolRequest("weather", "w1", Json.parse("{\"city_name\":\"Paris\"}")))),
            FinishReason.STOP));
    model.respondText("mild");

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder().model("pm").prompt("weather?").tools(weather).build());

    assertThat(received.get()).isEqualTo(new City("Paris"));
    assertThat(weather.definition().inputSchema().path("properties").propertyNames())
        .containsExactly("city_name");
    JsonNode sent = Json.toTree(model.lastRequest());
    // The tool's output is the application's JSON; the message around it is Genkit's.
    assertThat(sent.at("/messages/2/content/0/toolResponse"))
        .isEqualTo(
            Json.parse(
                "{\"name\":\"weather\",\"ref\":\"w1\","
                    + "\"output\":{\"city_name\":\"Paris\",\"degrees_celsius\":18}}"));
    assertThat(sent.at("/tools/0/inputSchema").isObject()).isTrue();
    assertThat(Json.write(response.history())).contains("\"toolRequest\"").doesNotContain("tool_");
  }

  @Test
  void aFlowReadsItsInputAndWritesItsOutputWithTheApplicationsMapper() {
    Flow<City, Weather, Void> forecast =
        baton.defineFlow(
            "forecast", City.class, Weather.class, (ctx, city) -> new Weather(city.cityName(), 25));

    JsonNode output =
        forecast.runJson(
            baton.context(), Json.parse("{\"city_name\":\"Rome\"}"), StreamCallback.discard());

    assertThat(output).isEqualTo(Json.parse("{\"city_name\":\"Rome\",\"degrees_celsius\":25}"));
    assertThat(forecast.descriptor().inputSchema().path("required"))
        .isEqualTo(Json.parse("[\"city_name\"]"));
  }

  @Test
  void aPromptReadsItsInputWithTheApplicationsMapper() {
    ExecutablePrompt prompt =
        baton.definePrompt(
            "ask",
            InlinePrompt.builder()
                .model("pm")
                .prompt(ctx -> ctx.input().toString() + " / " + ctx.input(City.class).cityName())
                .build());

    GenerateOptions options = prompt.render(baton.context(), new City("Oslo"), List.of()).build();

    assertThat(options.messages().getLast().text()).isEqualTo("{\"city_name\":\"Oslo\"} / Oslo");
  }

  @Test
  void customStateIsWrittenByTheApplicationsMapper() {
    LiveSession session =
        new LiveSession(
            "s1", SessionState.empty(), DefaultRegistry.jsonMapper(baton.context().registry()));

    session.updateCustom(City.class, city -> new City("Lima"));

    assertThat(session.custom()).isEqualTo(Json.parse("{\"city_name\":\"Lima\"}"));
    assertThat(session.custom(City.class)).isEqualTo(new City("Lima"));
  }

  @Test
  void withoutOneTheApplicationsTypesUseBatonsMapper() {
    Baton plain = Baton.builder().build();
    Flow<City, Weather, Void> forecast =
        plain.defineFlow(
            "forecast", City.class, Weather.class, (ctx, city) -> new Weather(city.cityName(), 25));

    JsonNode output =
        forecast.runJson(
            plain.context(), Json.parse("{\"cityName\":\"Rome\"}"), StreamCallback.discard());

    assertThat(output).isEqualTo(Json.parse("{\"cityName\":\"Rome\",\"degreesCelsius\":25}"));
  }
}
