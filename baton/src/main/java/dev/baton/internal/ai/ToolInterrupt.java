package dev.baton.internal.ai;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Thrown by {@code ToolContext.interrupt} to pause the tool loop: the call is not answered, the
 * generate call ends with finish reason {@code interrupted}, and the caller resumes it later by
 * responding to the call or restarting it. It carries the metadata the caller needs to decide
 * (shown on the request part as {@code metadata.interrupt}).
 *
 * <p>It is the tool-level analogue of Go's returned interrupt error, not an error: it has no stack
 * trace and the generate loop never lets it escape.
 *
 * <p>Immutable.
 */
public final class ToolInterrupt extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient JsonNode data;

  public ToolInterrupt(@Nullable JsonNode data) {
    super("tool interrupted", null, false, false);
    this.data = data == null || data.isNull() ? Json.nodes().booleanNode(true) : Json.copy(data);
  }

  /** The interrupt metadata, or {@code true} when the tool gave none. */
  public JsonNode data() {
    return data;
  }
}
