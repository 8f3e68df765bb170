package dev.baton.ai;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The output a request asks the model for. {@code format} is {@code "json"} or {@code "text"};
 * {@code constrained} asks a model that supports it to enforce {@code schema} while decoding. An
 * instance with nothing set serialises as {@code {}}.
 */
public record OutputConfig(
    @Nullable String format,
    @Nullable JsonNode schema,
    @Nullable Boolean constrained,
    @Nullable String contentType) {

  public static final OutputConfig NONE = new OutputConfig(null, null, null, null);

  public OutputConfig {
    schema = schema == null ? null : Json.copy(schema);
  }

  /**
   * Output in {@code format} ({@code "json"} or {@code "text"}), matching {@code schema} if set.
   */
  public static OutputConfig of(@Nullable String format, @Nullable JsonNode schema) {
    return new OutputConfig(format, schema, null, null);
  }

  public OutputConfig withConstrained(@Nullable Boolean constrained) {
    return new OutputConfig(format, schema, constrained, contentType);
  }

  public OutputConfig withContentType(@Nullable String contentType) {
    return new OutputConfig(format, schema, constrained, contentType);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode schema() {
    return schema == null ? null : Json.copy(schema);
  }
}
