package dev.baton.ai;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A model's request to call a tool. {@code ref} tells parallel calls to one tool apart; the
 * generate loop fills it in when the model leaves it out.
 */
public record ToolRequest(String name, @Nullable String ref, @Nullable JsonNode input) {
  public ToolRequest {
    input = input == null ? null : Json.copy(input);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode input() {
    return input == null ? null : Json.copy(input);
  }

  public ToolRequest withRef(String ref) {
    return new ToolRequest(name, ref, input);
  }

  public ToolRequest withInput(@Nullable JsonNode input) {
    return new ToolRequest(name, ref, input);
  }
}
