package dev.baton.agent;

import org.jspecify.annotations.Nullable;

/**
 * Marks the end of a turn: its finish reason, and the snapshot to resume from (if any): the one it
 * was saved as, or, for a turn that failed, the last good snapshot, which the failed output names
 * too.
 */
public record TurnEnd(@Nullable AgentFinishReason finishReason, @Nullable String snapshotId) {}
