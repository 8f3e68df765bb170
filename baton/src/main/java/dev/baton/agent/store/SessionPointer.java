package dev.baton.agent.store;

import dev.baton.core.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/**
 * The content of a session's pointer file, {@code <prefix>/.pointers/<sessionId>.json}: which row
 * was the session's latest when the pointer was written. It is a hint that saves the file store a
 * scan of the prefix directory; the rows are the truth (see {@link FileSessionStore}).
 *
 * <p>In the file it is one line of JSON: Genkit Go's three fields, which Go reads, and {@code
 * crc32c}, the CRC-32C of the three values, which Go ignores. The store never writes a pointer in
 * place (see {@link AtomicFiles#replaceWithoutFlush}), so a reader, Baton's or Genkit Go's, sees
 * the old pointer, none, or the new one, never a mix of two. The checksum marks a pointer this
 * store wrote and is whole: a crash of the machine may leave an unforced file empty or holding
 * stale blocks on some file systems, and a pointer without a checksum (one Genkit Go wrote, after
 * its row and without the store's lock) may name an older row than the session's latest. Neither is
 * trusted.
 *
 * @param currentSnapshotId the latest row
 * @param currentCreatedAt that row's {@code createdAt}, to compare a new row against without
 *     reading the current one
 * @param updatedAt when the pointer was written
 */
record SessionPointer(String currentSnapshotId, Instant currentCreatedAt, Instant updatedAt) {

  SessionPointer {
    Objects.requireNonNull(currentSnapshotId, "currentSnapshotId");
    Objects.requireNonNull(currentCreatedAt, "currentCreatedAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** The file as it is read: every field may be missing from a file this store did not write. */
  private record Stored(
      @Nullable String currentSnapshotId,
      @Nullable Instant currentCreatedAt,
      @Nullable Instant updatedAt,
      @Nullable String crc32c) {}

  /** The file's content: the fields and their checksum, as compact JSON. */
  byte[] toFileContent() {
    return Json.writeBytes(new Stored(currentSnapshotId, currentCreatedAt, updatedAt, checksum()));
  }

  /**
   * The pointer a file holds, or null unless it holds a whole pointer this store wrote: JSON with
   * every field, and a checksum that matches them.
   */
  static @Nullable SessionPointer fromFileContent(byte[] content) {
    Stored stored;
    try {
      stored = Json.mapper().readValue(content, Stored.class);
    } catch (JacksonException e) {
      return null;
    }
    if (stored == null) {
      return null;
    }
    String id = stored.currentSnapshotId();
    Instant createdAt = stored.currentCreatedAt();
    Instant updatedAt = stored.updatedAt();
    String checksum = stored.crc32c();
    if (id == null || createdAt == null || updatedAt == null || checksum == null) {
      return null;
    }
    SessionPointer pointer = new SessionPointer(id, createdAt, updatedAt);
    return checksum.equals(pointer.checksum()) ? pointer : null;
  }

  /** The CRC-32C of the three values, one per line, in hex: what {@code crc32c} holds. */
  private String checksum() {
    CRC32C crc = new CRC32C();
    crc.update(
        (currentSnapshotId + '\n' + currentCreatedAt + '\n' + updatedAt)
            .getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().toHexDigits((int) crc.getValue());
  }
}
