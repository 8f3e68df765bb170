package dev.baton.agent;

import org.jspecify.annotations.Nullable;

/** What a turn reports: its finish reason, or null to report none. */
public record TurnResult(@Nullable AgentFinishReason finishReason) {
  public static final TurnResult STOP = new TurnResult(AgentFinishReason.STOP);
}
