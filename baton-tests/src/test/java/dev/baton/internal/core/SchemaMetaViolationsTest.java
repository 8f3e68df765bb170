package dev.baton.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class SchemaMetaViolationsTest {
  private static JsonNode json(String text) {
    return Json.parse(text);
  }

  @Test
  void aWellFormedSchemaOfEitherDialectHasNone() {
    assertThat(
            SchemaValidator.metaViolations(
                json("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}}}")))
        .isEmpty();
    assertThat(
            SchemaValidator.metaViolations(
                json(
                    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                        + "\"type\":\"object\",\"$defs\":{\"n\":{\"type\":\"integer\"}},"
                        + "\"properties\":{\"p\":{\"prefixItems\":[{\"$ref\":\"#/$defs/n\"}]}}}")))
        .isEmpty();
  }

  @Test
  void keywordsTheValidatorWouldPassOverAreNamedByPath() {
    // These compile: the validator passes over a "type" that is a number and a "required" that
    // is a string, so without this check the schema would quietly check nothing.
    JsonNode broken =
        json("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":42}},\"required\":\"x\"}");
    SchemaValidator.compile(broken);

    assertThat(SchemaValidator.metaViolations(broken))
        .extracting(SchemaValidator.Violation::path)
        .contains("$.properties.x.type", "$.required");
  }

  @Test
  void aDialectWhoseMetaSchemaIsNotBundledIsNotChecked() {
    assertThat(
            SchemaValidator.metaViolations(
                json("{\"$schema\":\"https://example.com/my-dialect\",\"type\":42}")))
        .isEmpty();
  }
}
