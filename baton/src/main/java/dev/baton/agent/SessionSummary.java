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
    @Nullable GenerationUsage spend) {

  /**
   * A summary of a session whose latest snapshot has this ID, begun at {@code createdAt}: one
   * {@code completed} snapshot, last updated when it began, until the rest is set.
   */
  public static Builder builder(String sessionId, String latestSnapshotId, Instant createdAt) {
    return new Builder(sessionId, latestSnapshotId, createdAt);
  }

  /** A builder holding this summary's fields. */
  public Builder toBuilder() {
    return new Builder(sessionId, latestSnapshotId, createdAt)
        .status(status)
        .finishReason(finishReason)
        .error(error)
        .heartbeatAt(heartbeatAt)
        .turns(turns)
        .updatedAt(updatedAt)
        .spend(spend);
  }

  /** Collects a summary's fields. Not thread-safe. */
  public static final class Builder {
    private String sessionId;
    private String latestSnapshotId;
    private final Instant createdAt;
    private SnapshotStatus status = SnapshotStatus.COMPLETED;
    private @Nullable AgentFinishReason finishReason;
    private @Nullable ErrorInfo error;
    private @Nullable Instant heartbeatAt;
    private int turns = 1;
    private Instant updatedAt;
    private @Nullable GenerationUsage spend;

    private Builder(String sessionId, String latestSnapshotId, Instant createdAt) {
      this.sessionId = sessionId;
      this.latestSnapshotId = latestSnapshotId;
      this.createdAt = createdAt;
      this.updatedAt = createdAt;
    }

    public Builder sessionId(String sessionId) {
      this.sessionId = sessionId;
      return this;
    }

    public Builder latestSnapshotId(String latestSnapshotId) {
      this.latestSnapshotId = latestSnapshotId;
      return this;
    }

    public Builder status(SnapshotStatus status) {
      this.status = status;
      return this;
    }

    public Builder finishReason(@Nullable AgentFinishReason finishReason) {
      this.finishReason = finishReason;
      return this;
    }

    public Builder error(@Nullable ErrorInfo error) {
      this.error = error;
      return this;
    }

    public Builder heartbeatAt(@Nullable Instant heartbeatAt) {
      this.heartbeatAt = heartbeatAt;
      return this;
    }

    public Builder turns(int turns) {
      this.turns = turns;
      return this;
    }

    public Builder updatedAt(Instant updatedAt) {
      this.updatedAt = updatedAt;
      return this;
    }

    public Builder spend(@Nullable GenerationUsage spend) {
      this.spend = spend;
      return this;
    }

    public SessionSummary build() {
      return new SessionSummary(
          sessionId,
          latestSnapshotId,
          status,
          finishReason,
          error,
          heartbeatAt,
          turns,
          createdAt,
          updatedAt,
          spend);
    }
  }
}
