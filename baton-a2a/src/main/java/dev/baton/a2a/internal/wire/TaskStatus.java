package dev.baton.a2a.internal.wire;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** Where a task stands, with the agent's message about it (its answer, or what it asks). */
public record TaskStatus(TaskState state, @Nullable Message message, @Nullable Instant timestamp) {}
