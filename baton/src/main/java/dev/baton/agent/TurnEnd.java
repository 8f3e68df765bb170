package dev.baton.agent;

import org.jspecify.annotations.Nullable;

/** Marks the end of a turn: its finish reason, and the snapshot it was saved as (if any). */
public record TurnEnd(@Nullable AgentFinishReason finishReason, @Nullable String snapshotId) {}
