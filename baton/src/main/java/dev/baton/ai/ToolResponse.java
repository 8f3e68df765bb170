package dev.baton.ai;

import dev.baton.core.BatonException;
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
  /**
   * Requires the name.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} without a name, as when JSON omits it
   */
  public ToolResponse {
    if (name == null) {
      throw BatonException.invalidArgument("a tool response needs a name");
    }
    output = output == null ? null : Json.copy(output);
    content = content == null ? null : List.copyOf(content);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode output() {
    return output == null ? null : Json.copy(output);
  }

  /** A response of the tool {@code name} with {@code output}, with no ref. */
  public static ToolResponse of(String name, @Nullable JsonNode output) {
    return new ToolResponse(name, null, output, null);
  }

  /** The answer to {@code request} (its name and ref) with {@code output}. */
  public static ToolResponse to(ToolRequest request, @Nullable JsonNode output) {
    return new ToolResponse(request.name(), request.ref(), output, null);
  }

  /** The answer to {@code request} (its name and ref) with a tool's output and content. */
  public static ToolResponse to(ToolRequest request, ToolResult.Output result) {
    return new ToolResponse(request.name(), request.ref(), result.output(), result.content());
  }

  public ToolResponse withRef(@Nullable String ref) {
    return new ToolResponse(name, ref, output, content);
  }

  public ToolResponse withOutput(@Nullable JsonNode output) {
    return new ToolResponse(name, ref, output, content);
  }

  public ToolResponse withContent(@Nullable List<Part> content) {
    return new ToolResponse(name, ref, output, content);
  }
}
