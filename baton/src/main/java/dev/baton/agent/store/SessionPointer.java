package dev.baton.agent.store;

import java.time.Instant;
import java.util.Objects;

/**
 * The content of a session's pointer file, {@code <prefix>/.pointers/<sessionId>.json}: which row
 * was the session's latest when the pointer was written. It is a hint that saves the file store a
 * scan of the prefix directory; {@code getLatestSnapshot} trusts it only while the row it names
 * exists and belongs to the session, and rebuilds it otherwise.
 *
 * @param currentSnapshotId the latest row
 * @param currentCreatedAt that row's {@code createdAt}, to compare a new row against without
 *     reading the current one
 * @param updatedAt when the pointer was written
 */
record SessionPointer(String currentSnapshotId, Instant currentCreatedAt, Instant updatedAt) {

  /** Rejects a pointer file that lacks a field, so that it reads as no pointer at all. */
  SessionPointer {
    Objects.requireNonNull(currentSnapshotId, "currentSnapshotId");
    Objects.requireNonNull(currentCreatedAt, "currentCreatedAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
