package dev.baton.agent;

import dev.baton.core.ActionContext;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Abort and heartbeat, written as ordinary atomic {@link SnapshotWriter#saveSnapshot} calls, so
 * every store supports them without a method of its own.
 */
public final class Snapshots {
  private Snapshots() {}

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
   * Stamps {@code heartbeatAt = now} on a row that is still pending, leaving {@code updatedAt}
   * alone; writes nothing for a missing or terminal row, so a heartbeat never revives one.
   *
   * @return whether the row was still pending
   */
  public static boolean heartbeat(
      ActionContext context, SessionStore store, String snapshotId, Instant now) {
    SessionSnapshot saved =
        store.saveSnapshot(
            context,
            snapshotId,
            existing ->
                existing == null || existing.statusOrCompleted() != SnapshotStatus.PENDING
                    ? null
                    : existing.withHeartbeatAt(now));
    return saved != null;
  }
}
