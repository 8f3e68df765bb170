package dev.baton.internal.agent;

import dev.baton.agent.SnapshotStatus;
import org.jspecify.annotations.Nullable;

/**
 * The request and response records of an agent's companion actions.
 *
 * <p>Immutable records.
 */
public final class CompanionRequests {
  private CompanionRequests() {}

  /**
   * Which snapshot to read: by ID, or the session's latest. Both may be given, the session ID then
   * checking ownership.
   */
  public record GetSnapshotRequest(@Nullable String snapshotId, @Nullable String sessionId) {
    public static GetSnapshotRequest of(String snapshotId) {
      return new GetSnapshotRequest(snapshotId, null);
    }
  }

  /** Which snapshot to abort. */
  public record AbortRequest(String snapshotId) {}

  /** The status of a snapshot after an abort attempt. */
  public record AbortResponse(String snapshotId, @Nullable SnapshotStatus status) {}
}
