package dev.baton.agent;

import dev.baton.ai.GenerationUsage;
import dev.baton.core.ErrorInfo;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A session as {@link SessionStore#listSessions} lists it: its latest snapshot's header (the one
 * {@link SessionStore#getLatestSnapshot} returns, without its state), how many snapshots it holds,
 * when it began and when it last changed, and what it spent.
 *
 * @param sessionId the session's ID
 * @param latestSnapshotId the ID of its latest snapshot
 * @param status the latest snapshot's status
 * @param finishReason the latest snapshot's finish reason
 * @param error the latest snapshot's error
 * @param heartbeatAt the latest snapshot's heartbeat, by which an agent's view tells a dead worker
 * @param turns how many snapshots the store holds for the session (fewer than it ran when a
 *     retention limit deleted some)
 * @param createdAt the earliest {@code createdAt} of its snapshots
 * @param updatedAt the latest {@code updatedAt} of its snapshots (a row without one counts its
 *     {@code createdAt}); a heartbeat does not change it
 * @param spend the usage of every model call the session ran up to its latest snapshot, as that
 *     snapshot's state records it ({@link SessionState#usage()}); null when it records none
 */
public record SessionSummary(
    String sessionId,
    String latestSnapshotId,
    SnapshotStatus status,
    @Nullable AgentFinishReason finishReason,
    @Nullable ErrorInfo error,
    @Nullable Instant heartbeatAt,
    int turns,
    Instant createdAt,
    Instant updatedAt,
    @Nullable GenerationUsage spend) {}
