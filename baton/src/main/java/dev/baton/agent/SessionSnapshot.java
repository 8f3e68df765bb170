package dev.baton.agent;

import dev.baton.core.ErrorInfo;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The persisted record of a session at one point: a turn's end, or a detached run (pending, then
 * finalised in place).
 *
 * <p>Timestamps are the caller's: a store saves what it is given and never stamps them itself. A
 * new row has {@code createdAt == updatedAt}; a rewrite that changes the state advances {@code
 * updatedAt}; a heartbeat changes only {@code heartbeatAt}. {@code parentId} records lineage and is
 * never used to find the latest row. {@code state} is absent on a pending row; a terminal row
 * carries the cumulative final state. {@code error} is set on failed rows (and on an aborted row
 * whose run also failed).
 */
public record SessionSnapshot(
    String snapshotId,
    @Nullable String sessionId,
    @Nullable String parentId,
    Instant createdAt,
    @Nullable Instant updatedAt,
    @Nullable Instant heartbeatAt,
    @Nullable SnapshotStatus status,
    @Nullable AgentFinishReason finishReason,
    @Nullable ErrorInfo error,
    @Nullable SessionState state) {

  /** The status, reading an absent one as {@link SnapshotStatus#COMPLETED}. */
  public SnapshotStatus statusOrCompleted() {
    return status == null ? SnapshotStatus.COMPLETED : status;
  }

  /**
   * This row as readers see it: an absent status reads {@code completed}, an absent {@code
   * updatedAt} reads {@code createdAt}, and a pending row whose last heartbeat is older than {@code
   * heartbeatTimeout} reads {@code expired}. A pending row that never heartbeated is not expired.
   */
  public SessionSnapshot shaped(Instant now, Duration heartbeatTimeout) {
    SnapshotStatus shapedStatus = statusOrCompleted();
    if (shapedStatus == SnapshotStatus.PENDING
        && heartbeatAt != null
        && Duration.between(heartbeatAt, now).compareTo(heartbeatTimeout) > 0) {
      shapedStatus = SnapshotStatus.EXPIRED;
    }
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt == null ? createdAt : updatedAt,
        heartbeatAt,
        shapedStatus,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withSnapshotId(String snapshotId) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withSessionId(@Nullable String sessionId) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withStatus(@Nullable SnapshotStatus status) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withFinishReason(@Nullable AgentFinishReason finishReason) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withUpdatedAt(@Nullable Instant updatedAt) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withHeartbeatAt(@Nullable Instant heartbeatAt) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withError(@Nullable ErrorInfo error) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }

  public SessionSnapshot withState(@Nullable SessionState state) {
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt,
        heartbeatAt,
        status,
        finishReason,
        error,
        state);
  }
}
