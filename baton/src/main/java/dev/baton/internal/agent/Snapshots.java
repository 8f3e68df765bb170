package dev.baton.internal.agent;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Abort and heartbeat, written as ordinary atomic {@link SessionStore#saveSnapshot} calls, so every
 * store supports them without a method of its own.
 *
 * <p>Stateless and thread-safe.
 */
public final class Snapshots {
  private Snapshots() {}

  /**
   * The store as an agent's runtime uses it: each call sees the sessions of its context's principal
   * only. For the store contract kit, which checks that a store's listing scopes so.
   */
  public static SessionStore principalView(SessionStore store) {
    return PrincipalScopedStore.wrap(store);
  }

  /**
   * Aborts a snapshot: a pending row becomes {@code aborted} with {@code updatedAt = now} (its
   * finish reason left empty until its worker finalises it); any other row is left as it is, not
   * even rewritten. Idempotent: a second abort changes nothing.
   *
   * @return the status after the attempt, or null when the row does not exist
   */
  public static @Nullable SnapshotStatus abort(
      ActionContext context, SessionStore store, String snapshotId, Instant now) {
    // Only a pending row is written: rewriting a terminal one would widen the window in which a
    // store without cross-process transactions can lose another process's write.
    SessionSnapshot aborted =
        store.saveSnapshot(
            context,
            snapshotId,
            existing ->
                existing == null || existing.statusOrCompleted() != SnapshotStatus.PENDING
                    ? null
                    : existing.withStatus(SnapshotStatus.ABORTED).withUpdatedAt(now));
    if (aborted != null) {
      return aborted.statusOrCompleted();
    }
    SessionSnapshot current = store.getSnapshot(context, snapshotId);
    return current == null ? null : current.statusOrCompleted();
  }

  /**
   * Stamps {@code heartbeatAt = now} on a row whose run is unsettled, leaving {@code updatedAt}
   * alone: a pending row, or an aborted one still saving its progress (no finish reason yet).
   * Writes nothing for a missing or settled row, so a heartbeat never revives one.
   *
   * <p>Genkit stops beating at the abort. Baton's worker beats on until its final write, for at
   * most a heartbeat timeout, so an aborting row whose worker is slow to stop does not read as
   * settled: a live task reports {@code aborting} while it saves its progress, and only then
   * settles as a resumable {@code aborted}.
   *
   * @return whether the row was unsettled and stamped
   */
  public static boolean heartbeat(
      ActionContext context, SessionStore store, String snapshotId, Instant now) {
    SessionSnapshot saved =
        store.saveSnapshot(
            context,
            snapshotId,
            existing ->
                existing != null && !existing.isSettled() ? existing.withHeartbeatAt(now) : null);
    return saved != null;
  }
}
