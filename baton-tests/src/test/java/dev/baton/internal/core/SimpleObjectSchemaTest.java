package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.core.Json;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The fast check of simple object schemas: with it, a validator gives exactly the full validator's
 * verdicts and error texts, over many generated values, valid and invalid; it accepts only values
 * the full validator accepts, and declines a valid one only for a reason it names.
 */
class SimpleObjectSchemaTest {
  record Delegate(
      @JsonPropertyDescription("The task.") String task,
      @Nullable String name,
      @Nullable Boolean background) {}

  record Counted(String label, int count, long total, boolean flag) {}

  private static final List<String> NAMES =
      List.of("task", "name", "background", "label", "count", "total", "flag", "extra", "");

  @Test
  void simpleSchemasGetTheFullValidatorsVerdictsAndTexts() {
    List<JsonNode> schemas =
        List.of(
            JsonSchemas.infer(Delegate.class),
            JsonSchemas.infer(Counted.class),
            Json.parse(
                """
                {"type": "object", "additionalProperties": false, "required": ["task", "missing"],
                 "properties": {"task": {"type": "string"}, "count": {"type": "integer"}}}
                """),
            Json.parse(
                """
                {"type": "object", "title": "t", "additionalProperties": true,
                 "properties": {"flag": {"type": "boolean", "title": "f"}}}
                """),
            Json.parse("{\"type\": \"object\"}"));
    Random random = new Random(20261202);
    int fastAnswers = 0;
    for (JsonNode schemaNode : schemas) {
      SchemaValidator validator = SchemaValidator.compile(schemaNode);
      assertThat(validator.hasFastCheck()).as("fast check for %s", schemaNode).isTrue();
      SimpleObjectSchema simple = SimpleObjectSchema.of(schemaNode);
      for (int i = 0; i < 3_000; i++) {
        JsonNode value = i % 10 == 0 ? scalar(random) : object(random);
        List<SchemaValidator.Violation> full = validator.fullViolations(value, "input");
        assertThat(validator.violations(value, "input"))
            .as("%s against %s", value, schemaNode)
            .isEqualTo(full);
        assertThat(validator.matches(value))
            .as("%s against %s", value, schemaNode)
            .isEqualTo(full.isEmpty());
        boolean accepted = simple.accepts(value);
        if (accepted) {
          assertThat(full).as("the fast check accepted %s against %s", value, schemaNode).isEmpty();
        } else if (full.isEmpty()) {
          // The one value kind it leaves to the full validator although it may pass: a number
          // with a fraction part where an integer is asked for (draft-07 reads 1.0 as one).
          assertThat(value.valueStream().anyMatch(JsonNode::isFloatingPointNumber))
              .as("the fast check declined %s against %s", value, schemaNode)
              .isTrue();
        }
        if (accepted) {
          fastAnswers++;
        }
      }
    }
    // The generator reaches valid values often enough for the fast answers to be exercised.
    assertThat(fastAnswers).isGreaterThan(500);
  }

  @Test
  void schemasWithAnythingMoreGoToTheFullValidatorAlone() {
    for (String schema :
        List.of(
            "{\"type\": \"object\", \"$schema\": \"https://json-schema.org/draft/2020-12/schema\"}",
            "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\", \"minLength\": 2}}}",
            "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": [\"string\", \"null\"]}}}",
            "{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"number\"}}}",
            "{\"type\": \"object\", \"properties\": {\"a\": {\"enum\": [\"x\"]}}}",
            "{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}",
            "{\"type\": \"object\", \"minProperties\": 1}",
            "{\"type\": \"object\", \"required\": [1]}",
            "{\"type\": \"string\"}",
            "{\"properties\": {\"a\": {\"type\": \"string\"}}}")) {
      assertThat(SimpleObjectSchema.of(Json.parse(schema))).as(schema).isNull();
    }
  }

  private static JsonNode object(Random random) {
    ObjectNode object = Json.object();
    for (String name : NAMES) {
      if (random.nextInt(3) != 0) {
        object.set(name, field(random, name));
      }
    }
    return object;
  }

  /** Mostly values of the right type for the name, sometimes any value at all. */
  private static JsonNode field(Random random, String name) {
    if (random.nextInt(6) == 0) {
      return scalar(random);
    }
    return switch (name) {
      case "background", "flag" -> Json.nodes().booleanNode(random.nextBoolean());
      case "count", "total" -> Json.nodes().numberNode(random.nextInt(2000) - 1000);
      default -> Json.nodes().stringNode("s" + random.nextInt(10));
    };
  }

  private static JsonNode scalar(Random random) {
    List<Supplier<JsonNode>> kinds = new ArrayList<>();
    kinds.add(() -> Json.nodes().stringNode(""));
    kinds.add(() -> Json.nodes().stringNode("text"));
    kinds.add(() -> Json.nodes().booleanNode(true));
    kinds.add(() -> Json.nodes().numberNode(0));
    kinds.add(() -> Json.nodes().numberNode(Long.MAX_VALUE));
    kinds.add(() -> Json.nodes().numberNode(new BigInteger("123456789012345678901234567890")));
    kinds.add(() -> Json.nodes().numberNode(1.0));
    kinds.add(() -> Json.nodes().numberNode(2.5));
    kinds.add(() -> Json.nodes().nullNode());
    kinds.add(() -> Json.nodes().arrayNode().add("x"));
    kinds.add(() -> Json.object().put("task", "nested"));
    return kinds.get(random.nextInt(kinds.size())).get();
  }
}
