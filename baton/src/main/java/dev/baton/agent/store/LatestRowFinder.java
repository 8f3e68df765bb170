package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SnapshotRules;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a session's latest intact row in a snapshot directory, for {@link
 * FileSessionStore#getLatestSnapshot}, noting whether it found rows of the session damaged, so that
 * a session whose rows are all unreadable fails with {@code DATA_LOSS} rather than passing for a
 * new one.
 *
 * <p>A row counts as the session's, and damaged, when the session's pointer names it and it cannot
 * be read, or when its file names the session but is not a valid row of the snapshot its name
 * stands for. A file so damaged that it names no session (empty, say) belongs to no one.
 *
 * <p>One per lookup; not thread-safe.
 */
final class LatestRowFinder {
  private static final Logger log = LoggerFactory.getLogger(LatestRowFinder.class);

  private static final Comparator<Candidate> MOST_RECENT_FIRST =
      Comparator.comparing(Candidate::createdAt).thenComparing(Candidate::snapshotId).reversed();

  private final SnapshotDirectory directory;
  private final String sessionId;
  private boolean damaged;
  private boolean staleTemps;

  /** A row file's ID and creation time, as the scan reads them. */
  private record Candidate(String snapshotId, Instant createdAt) {}

  LatestRowFinder(SnapshotDirectory directory, String sessionId) {
    this.directory = directory;
    this.sessionId = sessionId;
  }

  /** The row the session's pointer names, if it is intact and belongs to the session. */
  @Nullable SessionSnapshot pointedRow() {
    SessionPointer pointer = directory.readPointer(sessionId);
    if (pointer == null || !SafeIds.isSafe(pointer.currentSnapshotId())) {
      return null;
    }
    return readOfSession(pointer.currentSnapshotId());
  }

  /**
   * The session's latest intact row by a scan of the directory. Candidates are ranked by their
   * headers; the first that still reads as a row of the session wins, so a row that vanished, was
   * damaged or was rewritten by another process since its header was read does not hide the others.
   */
  @Nullable SessionSnapshot scan(Cancellation cancellation) {
    SnapshotDirectory.Listing listing = directory.list();
    staleTemps = listing.hasStaleTemps();
    List<Candidate> candidates = new ArrayList<>();
    for (Path file : listing.rowFiles()) {
      throwIfStopped(cancellation);
      SnapshotDirectory.HeaderRead read =
          SnapshotDirectory.readHeaderAt(file, SnapshotDirectory.HeaderFields.RANK);
      if (read == null || !sessionId.equals(read.header().sessionId())) {
        continue;
      }
      if (!read.intact()) {
        countDamaged(file, "it is not valid JSON");
        continue;
      }
      RowHeader header = read.header();
      Candidate candidate = candidateOf(directory, file, header);
      if (candidate == null) {
        countDamaged(file, problemOf(header));
      } else {
        candidates.add(candidate);
      }
    }
    candidates.sort(MOST_RECENT_FIRST);
    for (Candidate candidate : candidates) {
      SessionSnapshot row = readOfSession(candidate.snapshotId());
      if (row != null) {
        return row;
      }
    }
    return null;
  }

  /**
   * What one pass over a folder's row headers found: the latest row of each session with an intact
   * one, as a pointer to it, and every session that some row file names, intact or damaged.
   */
  record FolderRows(Map<String, SessionPointer> latest, Set<String> sessionsWithRows) {}

  /**
   * The latest row of every session with rows in the directory, as the row headers tell, so that
   * one pass over the folder can verify every pointer in it; it reads the headers as the scan does,
   * never a whole row. A row whose header passes for the latest but which cannot be decoded in full
   * is still named: a read of that session then finds it damaged and scans. A file it cannot read
   * fails the pass rather than being skipped, since it may be a session's latest row.
   *
   * @param now the time the pointers are stamped with
   * @throws BatonException as {@link #throwIfStopped}, between two files; {@code INTERNAL} (not
   *     public) when the folder cannot be listed or a row file in it cannot be read
   */
  static FolderRows latestOfEachSession(
      SnapshotDirectory directory, Instant now, Cancellation cancellation) {
    Map<String, Candidate> latest = new HashMap<>();
    Set<String> sessions = new HashSet<>();
    for (Path file : directory.list().rowFiles()) {
      throwIfStopped(cancellation);
      SnapshotDirectory.HeaderRead read;
      try {
        read = SnapshotDirectory.readHeaderOrThrow(file, SnapshotDirectory.HeaderFields.RANK);
      } catch (IOException e) {
        log.warn("cannot read snapshot file {}", file, e);
        throw BatonException.internal("cannot read a snapshot file", e);
      }
      String sessionId = read == null ? null : read.header().sessionId();
      if (read == null || sessionId == null || !SafeIds.isSafe(sessionId)) {
        continue;
      }
      sessions.add(sessionId);
      Candidate candidate = read.intact() ? candidateOf(directory, file, read.header()) : null;
      if (candidate != null) {
        latest.merge(sessionId, candidate, (a, b) -> MOST_RECENT_FIRST.compare(a, b) <= 0 ? a : b);
      }
    }
    Map<String, SessionPointer> pointers = new HashMap<>();
    latest.forEach(
        (sessionId, row) ->
            pointers.put(sessionId, new SessionPointer(row.snapshotId(), row.createdAt(), now)));
    return new FolderRows(pointers, sessions);
  }

  /**
   * Throws when {@code cancellation} fires or the thread is interrupted ({@code CANCELLED}): a pass
   * over a large folder stops between two files. An interrupted thread could not read them anyway,
   * since the JDK closes a file channel that an interrupt reaches.
   */
  static void throwIfStopped(Cancellation cancellation) {
    cancellation.throwIfCancelled();
    if (Thread.currentThread().isInterrupted()) {
      throw BatonException.from(new InterruptedException("reading a snapshot folder"));
    }
  }

  /**
   * The candidate a row file stands for, or null when its header lacks a valid {@code snapshotId}
   * or {@code createdAt}, or names a snapshot whose file this is not.
   */
  private static @Nullable Candidate candidateOf(
      SnapshotDirectory directory, Path file, RowHeader header) {
    String id = header.snapshotId();
    Instant createdAt = header.createdAt();
    return id != null && createdAt != null && SafeIds.isSafe(id) && directory.isFileOf(file, id)
        ? new Candidate(id, createdAt)
        : null;
  }

  /** Why {@link #candidateOf} refused a header. */
  private static String problemOf(RowHeader header) {
    String id = header.snapshotId();
    return id == null || header.createdAt() == null || !SafeIds.isSafe(id)
        ? "it lacks a valid snapshotId or createdAt"
        : "it holds snapshot " + SnapshotRules.quote(id) + ", which belongs elsewhere";
  }

  /** Whether some row of the session was found damaged. */
  boolean sawDamage() {
    return damaged;
  }

  /** Whether the scan saw temporary files that a writer left behind. */
  boolean sawStaleTemps() {
    return staleTemps;
  }

  /** The error for a session whose rows were all damaged. */
  BatonException noIntactRow() {
    return new BatonException(
        Status.DATA_LOSS,
        "session "
            + SnapshotRules.quote(sessionId)
            + " has snapshots, but none of them can be read");
  }

  /** The row if it exists, is intact and belongs to the session; a damaged one is noted. */
  private @Nullable SessionSnapshot readOfSession(String snapshotId) {
    SessionSnapshot row;
    try {
      row = directory.readRow(snapshotId);
    } catch (BatonException e) {
      // The directory logged a damaged file with its path; an I/O failure is logged here.
      if (e.status() != Status.DATA_LOSS) {
        log.warn("cannot read snapshot {} of session {}", snapshotId, sessionId, e);
      }
      damaged = true;
      return null;
    }
    return row != null && sessionId.equals(row.sessionId()) ? row : null;
  }

  private void countDamaged(Path file, String problem) {
    log.warn("snapshot file {} of session {} is damaged: {}", file, sessionId, problem);
    damaged = true;
  }
}
