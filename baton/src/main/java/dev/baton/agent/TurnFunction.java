package dev.baton.agent;

import dev.baton.core.ActionContext;
import org.jspecify.annotations.Nullable;

/**
 * One turn of an agent: handles one input. The input's message is already in the session's history
 * when it runs.
 *
 * <p>The turns of one invocation run one at a time; those of different invocations may run at once,
 * so a function shared between invocations must be thread-safe.
 */
@FunctionalInterface
public interface TurnFunction {
  /**
   * Runs the turn: handles {@code input}, changing the session through the context's {@link
   * Session}.
   *
   * @param context the turn's context: it carries the {@link Session}, the {@link TurnContext} and
   *     the invocation's cancellation
   * @return the turn's finish reason, or null to report none
   */
  @Nullable AgentFinishReason apply(ActionContext context, AgentInput input);
}
