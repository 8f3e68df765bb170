package dev.baton.ai;

import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.ai.ToolCalls;
import dev.baton.internal.ai.ToolInterrupt;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a tool function sees: the action context of the call, and, when the call restarts an
 * interrupted one, the data the caller restarted it with.
 *
 * <p>The restart data belongs to this one call: the context handed on (to a nested generate, a
 * sub-agent) no longer carries it, so nothing the tool calls mistakes itself for a restart.
 *
 * @param context the action context: registry, auth, cancellation, session
 * @param restart the restarted request part's metadata, or null on a first call
 */
public record ToolContext(ActionContext context, @Nullable JsonNode restart) {
  public ToolContext {
    restart = restart == null ? null : Json.copy(restart);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode restart() {
    return restart == null ? null : Json.copy(restart);
  }

  /** The tool context of a call made with this action context. */
  public static ToolContext of(ActionContext context) {
    return new ToolContext(
        context.without(ToolCalls.RESTART), context.get(ToolCalls.RESTART).orElse(null));
  }

  /** Whether this call restarts an interrupted one. */
  public boolean isResumed() {
    return restart != null;
  }

  /**
   * The data the caller restarted the call with ({@code metadata.resumed}), or empty on a first
   * call. A restart without data reads as {@code true}.
   */
  public Optional<JsonNode> resumed() {
    return field("resumed");
  }

  /**
   * The input of the original call when the restart replaced it ({@code metadata.replacedInput}),
   * or empty.
   */
  public Optional<JsonNode> replacedInput() {
    return field("replacedInput");
  }

  private Optional<JsonNode> field(String name) {
    return restart == null || !restart.has(name)
        ? Optional.empty()
        : Optional.of(restart.get(name).deepCopy());
  }

  /** Interrupts the tool loop with no data. Never returns. */
  public RuntimeException interrupt() {
    throw new ToolInterrupt(null);
  }

  /**
   * Interrupts the tool loop with data for the caller (any JSON-mappable value). Never returns;
   * declared to return the exception so that {@code throw ctx.interrupt(...)} reads naturally.
   */
  public RuntimeException interrupt(@Nullable Object data) {
    throw new ToolInterrupt(data == null ? null : Json.toTree(data));
  }
}
