package dev.baton.internal.core;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaException;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A compiled JSON schema that checks values against it.
 *
 * <p>Schemas without {@code $schema} are read as draft-07, Genkit's dialect. Immutable and safe to
 * use from many threads at once.
 */
public final class SchemaValidator {
  private static final SchemaRegistry REGISTRY =
      SchemaRegistry.withDefaultDialect(
          SpecificationVersion.DRAFT_7,
          builder ->
              builder.schemaRegistryConfig(
                  SchemaRegistryConfig.builder().pathType(PathType.JSON_PATH).build()));

  // The meta-schemas bundled with the validator, by the $schema IDs that name them; loading one
  // reads the validator's own resources, never the network.
  private static final String DRAFT_7 = "http://json-schema.org/draft-07/schema#";
  private static final Map<String, String> META_SCHEMAS =
      Map.of(
          DRAFT_7,
          DRAFT_7,
          "http://json-schema.org/draft-07/schema",
          DRAFT_7,
          "https://json-schema.org/draft/2019-09/schema",
          "https://json-schema.org/draft/2019-09/schema",
          "https://json-schema.org/draft/2020-12/schema",
          "https://json-schema.org/draft/2020-12/schema");

  private static final Violation UNCHECKABLE =
      new Violation("$", "holds a number out of the range the schema's checks can compare");

  private final JsonNode schemaNode;
  private final Schema schema;
  // Answers the values of the simplest schemas without the full validator; null for others.
  private final @Nullable SimpleObjectSchema simple;

  private SchemaValidator(JsonNode schemaNode, Schema schema) {
    this.schemaNode = schemaNode;
    this.schema = schema;
    this.simple = SimpleObjectSchema.of(schemaNode);
  }

  /**
   * Compiles a schema into a validator. Compile once and reuse: compiling is far costlier than
   * validating.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the schema itself is malformed
   */
  public static SchemaValidator compile(JsonNode schemaNode) {
    JsonNode copy = Json.copy(schemaNode);
    try {
      return new SchemaValidator(copy, REGISTRY.getSchema(copy));
    } catch (SchemaException | IllegalArgumentException e) {
      throw BatonException.invalidArgument("invalid JSON schema: %s", e.getMessage());
    }
  }

  /**
   * Every way a schema breaks the meta-schema of its dialect (the one its {@code $schema} names,
   * else draft-07), such as a {@code "type"} that is a number; empty when it is well-formed, or
   * when it names a dialect whose meta-schema is not bundled. A schema that {@link #compile}s may
   * still break it: the validator passes over the keywords it cannot read, so such a schema checks
   * less than it says.
   */
  public static List<Violation> metaViolations(JsonNode schemaNode) {
    JsonNode declared = schemaNode.path("$schema");
    String dialect = declared.isString() ? META_SCHEMAS.get(declared.stringValue()) : DRAFT_7;
    if (dialect == null) {
      return List.of();
    }
    try {
      return REGISTRY.getSchema(SchemaLocation.of(dialect)).validate(schemaNode).stream()
          .map(SchemaValidator::violation)
          .toList();
    } catch (JacksonException | SchemaException | IllegalArgumentException e) {
      return List.of(new Violation("$", "cannot be read as JSON Schema: " + e.getMessage()));
    }
  }

  /** Whether values of this schema have the fast check. Visible for tests. */
  boolean hasFastCheck() {
    return simple != null;
  }

  /** The schema this validator checks against. Treat it as read-only. */
  public JsonNode schema() {
    return schemaNode;
  }

  /** One way a value fails the schema: where, and what rule it breaks there. */
  public record Violation(String path, String message) {
    @Override
    public String toString() {
      return path + ": " + message;
    }
  }

  /**
   * Checks a value.
   *
   * @param what names the value in the error ("input of tool \"search\"")
   * @throws BatonException {@code INVALID_ARGUMENT} naming every failing path and rule, such as
   *     {@code $.city: required property 'city' not found (required)}
   */
  public void validate(JsonNode value, String what) {
    List<Violation> violations = violations(value, what);
    if (!violations.isEmpty()) {
      String detail =
          violations.stream().map(Violation::toString).collect(Collectors.joining("; "));
      throw BatonException.invalidArgument("%s does not match its schema: %s", what, detail);
    }
  }

  /**
   * Every way a value fails the schema, by JSON path ({@code $.city}); empty when it matches.
   *
   * @param what names the value in the error thrown for an unusable schema
   * @throws BatonException {@code INVALID_ARGUMENT} when the schema cannot check values, say with a
   *     {@code $ref} that does not resolve
   */
  public List<Violation> violations(JsonNode value, String what) {
    if (simple != null && simple.accepts(value)) {
      return List.of();
    }
    return fullViolations(value, what);
  }

  /** {@link #violations}, always from the full validator. Visible for tests. */
  List<Violation> fullViolations(JsonNode value, String what) {
    try {
      return schema.validate(value).stream().map(SchemaValidator::violation).toList();
    } catch (JacksonException e) {
      // The validator reads numbers through Jackson, which refuses some conversions: a minimum
      // given as an integer makes it read 1e308 as a long. Such a value is the input's fault.
      return List.of(UNCHECKABLE);
    } catch (SchemaException | IllegalArgumentException e) {
      // A schema can be well-formed yet unusable, say with a $ref that does not resolve.
      throw BatonException.invalidArgument(
          "cannot check %s: its schema is unusable: %s", what, e.getMessage());
    }
  }

  /** Whether a value matches the schema. */
  public boolean matches(JsonNode value) {
    if (simple != null && simple.accepts(value)) {
      return true;
    }
    try {
      return schema.validate(value).isEmpty();
    } catch (JacksonException | SchemaException | IllegalArgumentException e) {
      return false;
    }
  }

  private static Violation violation(Error error) {
    String path = error.getInstanceLocation().toString();
    String message = error.getMessage();
    if (message.startsWith(path + ": ")) {
      message = message.substring(path.length() + 2);
    }
    return new Violation(path, message + " (" + error.getKeyword() + ")");
  }
}
