package dev.baton.ai;

import dev.baton.core.ActionContext;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a tool function sees: the action context of the call, and, when the call is a restart of an
 * interrupted one, the data the caller resumed it with.
 *
 * @param context the action context: registry, auth, cancellation, session
 */
public record ToolContext(ActionContext context) {
  /** Set by the generate loop on a restarted call: the request part's {@code metadata}. */
  static final ContextKey<JsonNode> RESTART = ContextKey.of("baton.tool.restart", JsonNode.class);

  /** Whether this call restarts an interrupted one. */
  public boolean isResumed() {
    return context.get(RESTART).isPresent();
  }

  /**
   * The data the caller restarted the call with ({@code metadata.resumed}), or empty on a first
   * call. A restart without data reads as {@code true}.
   */
  public Optional<JsonNode> resumed() {
    return context.get(RESTART).map(meta -> meta.path("resumed")).filter(n -> !n.isMissingNode());
  }

  /**
   * The input of the original call when the restart replaced it ({@code metadata.replacedInput}),
   * or empty.
   */
  public Optional<JsonNode> replacedInput() {
    return context
        .get(RESTART)
        .map(meta -> meta.path("replacedInput"))
        .filter(n -> !n.isMissingNode());
  }

  /** Interrupts the tool loop with no data. Never returns. */
  public ToolInterrupt interrupt() {
    throw new ToolInterrupt(null);
  }

  /**
   * Interrupts the tool loop with data for the caller (any JSON-mappable value). Never returns;
   * declared to return the exception so that {@code throw ctx.interrupt(...)} reads naturally.
   */
  public ToolInterrupt interrupt(@Nullable Object data) {
    throw new ToolInterrupt(data == null ? null : Json.toTree(data));
  }
}
