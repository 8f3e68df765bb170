package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.core.JsonSchemas;
import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Structured output wanted from a generate call.
 *
 * <p>With a schema, a model that supports constrained decoding is asked to enforce it; any other
 * model gets instructions describing it appended to the last user message. Either way the final
 * text is parsed as JSON and validated against the schema, and a mismatch fails the call.
 *
 * @param format {@code "json"} (the default with a schema) or {@code "text"}
 * @param schema the JSON schema of the output, or null for free-form JSON
 * @param constrained null to use constrained decoding where supported, false to never use it
 * @param instructions instructions to use instead of the default ones, or null
 */
public record OutputOptions(
    @Nullable String format,
    @Nullable JsonNode schema,
    @Nullable Boolean constrained,
    @Nullable String instructions) {

  public OutputOptions {
    schema = schema == null ? null : Json.copy(schema);
    if (format == null && schema != null) {
      format = "json";
    }
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode schema() {
    return schema == null ? null : Json.copy(schema);
  }

  /** JSON output matching the schema inferred from a Java type. */
  public static OutputOptions of(Type type) {
    return new OutputOptions("json", JsonSchemas.infer(type), null, null);
  }

  /** Free-form JSON output, with no schema. */
  public static OutputOptions json() {
    return new OutputOptions("json", null, null, null);
  }

  /** JSON output matching a schema. */
  public static OutputOptions schema(JsonNode schema) {
    return new OutputOptions("json", schema, null, null);
  }

  /** These options with the schema replaced; null for free-form output. */
  public OutputOptions withSchema(@Nullable JsonNode schema) {
    return new OutputOptions(format, schema, constrained, instructions);
  }

  /** These options with the format replaced ({@code "json"} again when null with a schema). */
  public OutputOptions withFormat(@Nullable String format) {
    return new OutputOptions(format, schema, constrained, instructions);
  }

  /** These options with constrained decoding allowed (null) or refused (false). */
  public OutputOptions withConstrained(@Nullable Boolean constrained) {
    return new OutputOptions(format, schema, constrained, instructions);
  }

  /** These options with instructions to use instead of the default ones. */
  public OutputOptions withInstructions(@Nullable String instructions) {
    return new OutputOptions(format, schema, constrained, instructions);
  }

  /** Whether the output wanted is JSON. */
  public boolean isJson() {
    return "json".equals(format);
  }
}
