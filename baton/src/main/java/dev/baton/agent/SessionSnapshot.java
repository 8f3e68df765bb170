package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
 * never used to find the latest row. A pending row's {@code state} is the work its run was handed
 * (the session, with the messages of the inputs it has yet to run), so the run can be re-attempted
 * if its worker dies before its final write; a terminal row carries the cumulative final state.
 * {@code error} is set on failed rows (and on an aborted row whose run also failed).
 *
 * <p>Build rows with {@link #pending}, {@link #completed} or {@link #builder}; {@code with…}
 * methods and {@link #toBuilder()} give modified copies. The canonical constructor is public only
 * because a record's must be: it is not the way to build a row, since its signature changes
 * whenever the row gains a field.
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

  /**
   * A detached run's row as it starts: {@code pending}, created, updated and heartbeated at {@code
   * at}, with no state (the runtime adds the work it hands the run).
   */
  public static SessionSnapshot pending(
      String snapshotId, String sessionId, @Nullable String parentId, Instant at) {
    return builder(snapshotId, at)
        .sessionId(sessionId)
        .parentId(parentId)
        .heartbeatAt(at)
        .status(SnapshotStatus.PENDING)
        .build();
  }

  /**
   * A turn's end: {@code completed} with the session's state, created and updated at {@code at}.
   */
  public static SessionSnapshot completed(
      String snapshotId,
      String sessionId,
      @Nullable String parentId,
      Instant at,
      @Nullable AgentFinishReason finishReason,
      SessionState state) {
    return builder(snapshotId, at)
        .sessionId(sessionId)
        .parentId(parentId)
        .status(SnapshotStatus.COMPLETED)
        .finishReason(finishReason)
        .state(state)
        .build();
  }

  /** A row with an ID and a creation time, {@code updatedAt} equal to it; set the rest. */
  public static Builder builder(String snapshotId, Instant createdAt) {
    return new Builder(snapshotId, createdAt);
  }

  /** A builder holding this row's fields. */
  public Builder toBuilder() {
    return new Builder(snapshotId, createdAt)
        .sessionId(sessionId)
        .parentId(parentId)
        .updatedAt(updatedAt)
        .heartbeatAt(heartbeatAt)
        .status(status)
        .finishReason(finishReason)
        .error(error)
        .state(state);
  }

  /** The status, reading an absent one as {@link SnapshotStatus#COMPLETED}. */
  public SnapshotStatus statusOrCompleted() {
    return status == null ? SnapshotStatus.COMPLETED : status;
  }

  /**
   * Whether the row has settled, as {@link AgentSnapshots#waitFor} waits for: it is {@code
   * completed}, {@code failed}, {@code expired}, or {@code aborted} with a finish reason. A {@code
   * pending} row has not, nor has an {@code aborted} one without a finish reason: its worker is
   * still saving its progress, and its task reads {@code aborting}.
   *
   * <p>Ask it of rows as an agent returns them ({@link AgentSnapshots#get}), which are {@link
   * #shaped}: there a dead worker's pending row reads {@code expired} and its aborted row has its
   * finish reason. A row read straight from a store is not, and keeps a dead worker's row
   * unsettled.
   *
   * <p>Derived from the row, not one of its fields: a JSON mapper writes no {@code settled}
   * property, the user's own as well as Baton's.
   */
  @JsonIgnore
  public boolean isSettled() {
    return switch (statusOrCompleted()) {
      case PENDING -> false;
      case ABORTED -> finishReason != null;
      case COMPLETED, FAILED, EXPIRED -> true;
    };
  }

  /**
   * Whether this is an aborted row whose worker is still saving its progress: no final finish
   * reason yet, and a heartbeat no older than {@code heartbeatTimeout} at {@code now}. Its task
   * reads as {@code aborting}; it settles as {@code aborted} when the worker's last write lands, or
   * when the worker stops beating.
   */
  public boolean isAborting(Instant now, Duration heartbeatTimeout) {
    return statusOrCompleted() == SnapshotStatus.ABORTED
        && finishReason == null
        && heartbeatAt != null
        && Duration.between(heartbeatAt, now).compareTo(heartbeatTimeout) <= 0;
  }

  /**
   * This row as readers see it: an absent status reads {@code completed}, an absent {@code
   * updatedAt} reads {@code createdAt}, and a worker that stopped heartbeating for longer than
   * {@code heartbeatTimeout} is taken as dead: its pending row reads {@code expired}, and its
   * aborted row, which it will never finish saving, reads as settled (finish reason {@code
   * aborted}). A pending row that never heartbeated is not expired.
   *
   * <p>So in a shaped row, an {@code aborted} status without a finish reason means the worker is
   * alive and still saving its progress: the task is {@code aborting}.
   */
  public SessionSnapshot shaped(Instant now, Duration heartbeatTimeout) {
    SnapshotStatus shapedStatus = statusOrCompleted();
    AgentFinishReason shapedReason = finishReason;
    if (shapedStatus == SnapshotStatus.PENDING
        && heartbeatAt != null
        && Duration.between(heartbeatAt, now).compareTo(heartbeatTimeout) > 0) {
      shapedStatus = SnapshotStatus.EXPIRED;
    }
    if (shapedStatus == SnapshotStatus.ABORTED
        && finishReason == null
        && !isAborting(now, heartbeatTimeout)) {
      shapedReason = AgentFinishReason.ABORTED;
    }
    return new SessionSnapshot(
        snapshotId,
        sessionId,
        parentId,
        createdAt,
        updatedAt == null ? createdAt : updatedAt,
        heartbeatAt,
        shapedStatus,
        shapedReason,
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

  /** Collects a row's fields. Not thread-safe. */
  public static final class Builder {
    private final String snapshotId;
    private final Instant createdAt;
    private @Nullable String sessionId;
    private @Nullable String parentId;
    private @Nullable Instant updatedAt;
    private @Nullable Instant heartbeatAt;
    private @Nullable SnapshotStatus status;
    private @Nullable AgentFinishReason finishReason;
    private @Nullable ErrorInfo error;
    private @Nullable SessionState state;

    private Builder(String snapshotId, Instant createdAt) {
      this.snapshotId = snapshotId;
      this.createdAt = createdAt;
      this.updatedAt = createdAt;
    }

    public Builder sessionId(@Nullable String sessionId) {
      this.sessionId = sessionId;
      return this;
    }

    public Builder parentId(@Nullable String parentId) {
      this.parentId = parentId;
      return this;
    }

    public Builder updatedAt(@Nullable Instant updatedAt) {
      this.updatedAt = updatedAt;
      return this;
    }

    public Builder heartbeatAt(@Nullable Instant heartbeatAt) {
      this.heartbeatAt = heartbeatAt;
      return this;
    }

    public Builder status(@Nullable SnapshotStatus status) {
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

    public Builder state(@Nullable SessionState state) {
      this.state = state;
      return this;
    }

    public SessionSnapshot build() {
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
}
