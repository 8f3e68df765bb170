package dev.baton.testing;

import dev.baton.ai.Tool;
import dev.baton.ai.ToolDefinition;
import dev.baton.core.Json;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import tools.jackson.databind.JsonNode;

/**
 * A {@code getWeather} tool for a model plugin's tests, with a fixed schema and fixed answers so
 * that a test can state the exact request the plugin sends to its provider.
 *
 * <p>It is described as "Current weather for a city", takes {@code {"city": "<name>"}} (the only,
 * required, string property), answers {@code {"tempC": 21.5, "sky": "sunny"}} for Paris and {@code
 * {"tempC": 25, "sky": "sunny"}} for anywhere else, and records each city it is asked about. Its
 * input schema names draft-07 in {@code $schema}, as the schemas Baton generates for typed tools
 * do, so a test also sees whether the plugin leaves that keyword out of what it sends. Use one per
 * test:
 *
 * <pre>{@code
 * private final WeatherTool weather = new WeatherTool();
 *
 * @Test
 * void runsAToolRound() {
 *   server.reply(Reply.json(callingGetWeatherForParis), Reply.json(finalAnswer));
 *
 *   baton.generate(GenerateOptions.builder().model(MODEL).prompt("Weather in Paris?")
 *       .tools(weather.tool()).build());
 *
 *   assertThat(weather.cities()).containsExactly("Paris");
 * }
 * }</pre>
 *
 * <p>A request-mapping test that builds its {@code ModelRequest} by hand takes {@link
 * #definition()} instead.
 *
 * <p>Thread-safe: calls made in parallel are recorded in a concurrent list.
 */
public final class WeatherTool {
  /** The tool's name. */
  public static final String NAME = "getWeather";

  /** The tool's description. */
  public static final String DESCRIPTION = "Current weather for a city";

  private static final String INPUT_SCHEMA =
      """
      {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
       "properties": {"city": {"type": "string"}}, "required": ["city"]}
      """;

  private final List<String> cities = new CopyOnWriteArrayList<>();
  private final Tool<JsonNode, JsonNode> tool =
      Tool.createJson(
          NAME,
          DESCRIPTION,
          Json.parse(INPUT_SCHEMA),
          null,
          (ctx, input) -> {
            String city = input.path("city").asString();
            cities.add(city);
            return Json.parse(
                "{\"tempC\": " + (city.equals("Paris") ? "21.5" : "25") + ", \"sky\": \"sunny\"}");
          });

  /** A tool that has recorded no call yet. */
  public WeatherTool() {}

  /**
   * The tool as a model request names it: its name, description and input schema, and no output
   * schema.
   */
  public static ToolDefinition definition() {
    return ToolDefinition.of(NAME)
        .withDescription(DESCRIPTION)
        .withInputSchema(Json.parse(INPUT_SCHEMA));
  }

  /** The tool, to pass to {@code GenerateOptions.Builder.tools}. */
  public Tool<JsonNode, JsonNode> tool() {
    return tool;
  }

  /** The cities the tool was asked about so far, in the order the calls ran. */
  public List<String> cities() {
    return List.copyOf(cities);
  }
}
