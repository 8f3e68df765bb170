package dev.baton.agent;

import dev.baton.core.ActionContext;
import org.jspecify.annotations.Nullable;

/**
 * Reads snapshots from a store. See {@link SessionStore} for the contract. Every method takes the
 * caller's context, as Go passes {@code ctx}: a store may scope rows by tenant from its auth
 * context, and should honour its cancellation in slow I/O. Implementations must be thread-safe:
 * parallel invocations, heartbeats and waits read at once.
 */
public interface SnapshotReader {
  /**
   * The row with this ID, or null when there is none.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} when the store cannot accept the
   *     ID (the file store rejects path-unsafe IDs)
   */
  @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId);

  /**
   * The session's row with the greatest {@code createdAt}, whatever its status (pending, failed and
   * aborted rows included); ties go to the greater snapshot ID. Rewriting an older row does not
   * make it the latest, because its {@code createdAt} is kept. Null when the session has no rows.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} when the session ID is empty
   */
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId);
}
