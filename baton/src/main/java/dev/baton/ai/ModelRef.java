package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A model by name ({@code googleai/gemini-flash-latest}), with config to use on every call through
 * this reference. Config given on the call itself wins, key by key.
 */
public record ModelRef(
    @JsonPropertyDescription("The model's registered name, such as googleai/gemini-flash-latest.")
        String name,
    @JsonPropertyDescription("Config sent with every call through this reference.")
        @Nullable JsonNode config) {
  public ModelRef {
    config = config == null ? null : Json.copy(config);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode config() {
    return config == null ? null : Json.copy(config);
  }

  /** A reference by name; JSON may give a reference as just its name, as in {@code "backup"}. */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static ModelRef of(String name) {
    return new ModelRef(name, null);
  }

  /** This reference with config taken from any JSON-mappable value (a record, a map, a tree). */
  public ModelRef withConfig(Object config) {
    return new ModelRef(name, Json.toTree(config));
  }
}
