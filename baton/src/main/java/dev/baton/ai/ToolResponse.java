package dev.baton.ai;

import dev.baton.core.Json;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A tool's answer to a {@link ToolRequest}, matched by name and ref. {@code content} carries
 * multipart output (text, media) next to or instead of {@code output}.
 */
public record ToolResponse(
    String name, @Nullable String ref, @Nullable JsonNode output, @Nullable List<Part> content) {
  public ToolResponse {
    output = output == null ? null : Json.copy(output);
    content = content == null ? null : List.copyOf(content);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode output() {
    return output == null ? null : Json.copy(output);
  }

  public ToolResponse(String name, @Nullable String ref, @Nullable JsonNode output) {
    this(name, ref, output, null);
  }
}
