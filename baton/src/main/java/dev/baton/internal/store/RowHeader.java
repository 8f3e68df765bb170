package dev.baton.internal.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The few fields of a row that the stores read without its conversation state, which is most of a
 * row: the file store's session scan needs {@code snapshotId} (a file's name does not always spell
 * it), {@code sessionId} and {@code createdAt}, retention {@code parentId}, the poller {@code
 * status}, and the listing of sessions {@code updatedAt} and {@code status}. The file store reads a
 * row file into this record without decoding the rest. Every field may be absent in a file the
 * store did not write.
 *
 * <p>Internal: shared by Baton's stores, not an API (see the package comment).
 */
public record RowHeader(
    @Nullable String snapshotId,
    @Nullable String sessionId,
    @Nullable String parentId,
    @Nullable Instant createdAt,
    @Nullable Instant updatedAt,
    @Nullable SnapshotStatus status) {

  /** The header of a row in memory. */
  public static RowHeader of(SessionSnapshot row) {
    return new RowHeader(
        row.snapshotId(),
        row.sessionId(),
        row.parentId(),
        row.createdAt(),
        row.updatedAt(),
        row.status());
  }

  /** The status, reading an absent one as {@link SnapshotStatus#COMPLETED}. */
  public SnapshotStatus statusOrCompleted() {
    return status == null ? SnapshotStatus.COMPLETED : status;
  }
}
