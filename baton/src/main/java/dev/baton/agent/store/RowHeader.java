package dev.baton.agent.store;

import dev.baton.agent.SnapshotStatus;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The few fields of a row file that the file store reads without decoding the whole row: the
 * session scan needs {@code snapshotId} (a file's name does not always spell it), {@code sessionId}
 * and {@code createdAt}, retention {@code parentId}, and the poller {@code status}. Reading into
 * this record skips the conversation state, which is most of a row. Every field may be absent in a
 * file the store did not write.
 */
record RowHeader(
    @Nullable String snapshotId,
    @Nullable String sessionId,
    @Nullable String parentId,
    @Nullable Instant createdAt,
    @Nullable SnapshotStatus status) {

  /** The status, reading an absent one as {@link SnapshotStatus#COMPLETED}. */
  SnapshotStatus statusOrCompleted() {
    return status == null ? SnapshotStatus.COMPLETED : status;
  }
}
