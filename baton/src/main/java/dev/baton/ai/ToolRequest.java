package dev.baton.ai;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A model's request to call a tool. {@code ref} tells parallel calls to one tool apart; the
 * generate loop fills it in when the model leaves it out.
 */
public record ToolRequest(String name, @Nullable String ref, @Nullable JsonNode input) {
  /**
   * Requires the name.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} without a name, as when JSON omits it
   */
  public ToolRequest {
    if (name == null) {
      throw BatonException.invalidArgument("a tool request needs a name");
    }
    input = input == null ? null : Json.copy(input);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode input() {
    return input == null ? null : Json.copy(input);
  }

  /** A request to call the tool {@code name} with {@code input}, with no ref yet. */
  public static ToolRequest of(String name, @Nullable JsonNode input) {
    return new ToolRequest(name, null, input);
  }

  public ToolRequest withRef(@Nullable String ref) {
    return new ToolRequest(name, ref, input);
  }

  public ToolRequest withInput(@Nullable JsonNode input) {
    return new ToolRequest(name, ref, input);
  }
}
