package dev.baton.ai;

import dev.baton.core.Json;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * How one tool call ended: with output, or with an interrupt that pauses the tool loop. {@link
 * Hooks.WrapTool} hooks receive and return these values, so a hook can answer or interrupt a call
 * without running the tool.
 *
 * <p>Immutable values.
 */
public sealed interface ToolResult {

  /** The call produced output (and optionally multipart content). */
  record Output(JsonNode output, @Nullable List<Part> content) implements ToolResult {
    public Output {
      output = Json.copy(output);
      content = content == null ? null : List.copyOf(content);
    }

    /** A copy: the record stays immutable whatever the caller does with it. */
    @Override
    public JsonNode output() {
      return Json.copy(output);
    }
  }

  /**
   * The call paused the loop; {@code data} is shown to the caller as {@code metadata.interrupt}.
   */
  record Interrupt(JsonNode data) implements ToolResult {
    public Interrupt {
      data = Json.copy(data);
    }

    /** A copy: the record stays immutable whatever the caller does with it. */
    @Override
    public JsonNode data() {
      return Json.copy(data);
    }
  }

  static ToolResult output(JsonNode output) {
    return new Output(output, null);
  }

  /** An interrupt carrying data (any JSON-mappable value), or {@code true} when null. */
  static ToolResult interrupt(@Nullable Object data) {
    return new Interrupt(data == null ? Json.nodes().booleanNode(true) : Json.toTree(data));
  }
}
