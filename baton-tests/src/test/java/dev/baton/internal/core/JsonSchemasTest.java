package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class JsonSchemasTest {
  enum Unit {
    CELSIUS("celsius"),
    FAHRENHEIT("fahrenheit");

    private final String wire;

    Unit(String wire) {
      this.wire = wire;
    }

    @JsonValue
    public String wire() {
      return wire;
    }
  }

  record Location(
      @JsonPropertyDescription("City name, such as Paris.") String city,
      @JsonProperty("country_code") @Nullable String countryCode) {}

  @JsonClassDescription("A weather question.")
  record WeatherQuery(
      Location location,
      Unit unit,
      Optional<Integer> days,
      List<Location> alternatives,
      Map<String, Double> weights) {}

  @Test
  void infersNestedRecordsEnumsOptionalsListsMapsAndDescriptions() {
    JsonNode schema = JsonSchemas.infer(WeatherQuery.class);
    assertThat(schema.path("$schema").asString()).isEqualTo(JsonSchemas.DRAFT_07);
    assertThat(schema.path("type").asString()).isEqualTo("object");
    assertThat(schema.path("description").asString()).isEqualTo("A weather question.");

    JsonNode location = schema.path("properties").path("location");
    assertThat(location.path("type").asString()).isEqualTo("object");
    assertThat(location.path("properties").path("city").path("description").asString())
        .isEqualTo("City name, such as Paris.");
    assertThat(location.path("properties").has("country_code")).isTrue();
    assertThat(names(location.path("required"))).containsExactly("city");

    assertThat(names(schema.path("properties").path("unit").path("enum")))
        .containsExactly("celsius", "fahrenheit");
    assertThat(schema.path("properties").path("days").path("type").asString()).isEqualTo("integer");
    assertThat(schema.path("properties").path("alternatives").path("type").asString())
        .isEqualTo("array");
    assertThat(
            schema
                .path("properties")
                .path("alternatives")
                .path("items")
                .path("properties")
                .has("city"))
        .isTrue();
    assertThat(
            schema
                .path("properties")
                .path("weights")
                .path("additionalProperties")
                .path("type")
                .asString())
        .isEqualTo("number");
    assertThat(names(schema.path("required")))
        .as("collections and maps read as empty when absent")
        .containsExactlyInAnyOrder("location", "unit");
    assertThat(schema.toString()).doesNotContain("$ref");
  }

  record Envelope(
      JsonNode payload, tools.jackson.databind.node.ObjectNode extra, @Defaulted String mode) {}

  @Test
  void jsonNodeComponentsAcceptAnyJsonAndDefaultedOnesAreOptional() {
    JsonNode schema = JsonSchemas.infer(Envelope.class);
    assertThat(schema.path("properties").path("payload").toString()).isEqualTo("{}");
    assertThat(schema.path("properties").path("extra").toString()).isEqualTo("{}");
    assertThat(names(schema.path("required"))).containsExactlyInAnyOrder("payload", "extra");
    SchemaValidator.compile(schema)
        .validate(Json.parse("{\"payload\":\"text\",\"extra\":[1]}"), "envelope");
  }

  record Tree(String label, List<Tree> children) {}

  @Test
  void recursiveTypesFallBackToDefinitions() {
    JsonNode schema = JsonSchemas.infer(Tree.class);
    assertThat(schema.toString()).contains("$ref");
    SchemaValidator.compile(schema)
        .validate(
            Json.parse("{\"label\":\"a\",\"children\":[{\"label\":\"b\",\"children\":[]}]}"),
            "tree");
  }

  @Test
  void inferredSchemasAreCopies() {
    var first = JsonSchemas.infer(Location.class);
    first.put("type", "tampered");
    assertThat(JsonSchemas.infer(Location.class).path("type").asString()).isEqualTo("object");
  }

  @Test
  void validationErrorsNameThePathAndRule() {
    SchemaValidator validator = SchemaValidator.compile(JsonSchemas.infer(WeatherQuery.class));
    JsonNode bad =
        Json.parse(
            "{\"location\":{\"country_code\":\"FR\"},\"unit\":\"kelvin\",\"alternatives\":[],\"weights\":{\"a\":\"x\"}}");
    assertThatThrownBy(() -> validator.validate(bad, "input of /flow/weather"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("input of /flow/weather does not match its schema")
        .hasMessageContaining("$.location")
        .hasMessageContaining("city")
        .hasMessageContaining("(required)")
        .hasMessageContaining("$.unit")
        .hasMessageContaining("(enum)")
        .hasMessageContaining("$.weights.a")
        .hasMessageContaining("(type)");
  }

  @Test
  void aNumberTheCheckCannotCompareIsAViolationNotACrash() {
    // The validator reads 1e308 as a long against an integer minimum, which Jackson refuses.
    SchemaValidator validator =
        SchemaValidator.compile(
            Json.parse("{\"properties\": {\"days\": {\"type\": \"integer\", \"minimum\": 1}}}"));
    JsonNode huge = Json.parse("{\"days\": 1e308}");

    assertThat(validator.violations(huge, "x")).hasSize(1);
    assertThat(validator.matches(huge)).isFalse();
    assertThatThrownBy(() -> validator.validate(huge, "input of /tool/forecast"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageStartingWith("input of /tool/forecast does not match its schema: $: ");
  }

  @Test
  void aMalformedSchemaIsInvalidArgument() {
    assertThatThrownBy(
            () ->
                SchemaValidator.compile(Json.parse("{\"type\": 12}"))
                    .validate(Json.parse("1"), "x"))
        .isInstanceOf(BatonException.class);
  }

  private static List<String> names(JsonNode array) {
    return array.valueStream().map(JsonNode::asString).toList();
  }
}
