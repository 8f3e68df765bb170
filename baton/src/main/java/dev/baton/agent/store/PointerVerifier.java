package dev.baton.agent.store;

import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a folder's session pointers may be trusted during this boot, and verifies them
 * against the rows when no process has yet. Pointers are never forced to the device, so after a
 * crash of the machine any of them may be older than its rows, damaged, or gone; the rows, forced
 * before each save returned, are the truth. A folder is verified once per boot, by whichever
 * process gets there first, and the boot recorded in the folder; this object remembers the folders
 * it knows to be verified, so the record is read once. {@code docs/file-store.md} gives the whole
 * argument.
 *
 * <p>Thread-safe.
 */
final class PointerVerifier {
  private static final Logger log = LoggerFactory.getLogger(PointerVerifier.class);

  private final String bootId;
  private final InstantSource clock;
  private final Duration retryAfter;
  private final Set<Path> verifiedFolders = ConcurrentHashMap.newKeySet();

  /** The folders whose verification failed, with when to try again. */
  private final Map<Path, Instant> unverifiable = new ConcurrentHashMap<>();

  /**
   * @param bootId the ID of the machine's boot (see {@link BootId})
   * @param clock times the retry of a failed verification and stamps the pointers it rewrites
   * @param retryAfter how long a folder whose verification failed is left unverified
   */
  PointerVerifier(String bootId, InstantSource clock, Duration retryAfter) {
    this.bootId = bootId;
    this.clock = clock;
    this.retryAfter = retryAfter;
  }

  /**
   * Whether the folder's whole pointers can be trusted: they were verified against the rows during
   * this boot, here or by another process. If not, verifies them now, under the folder's lock (not
   * the store's, so saves to other folders go on). False when that fails (a read-only folder, say):
   * reads then scan, and the verification is not tried again for the retry interval.
   *
   * @throws BatonException when {@code cancellation} fires or the thread is interrupted meanwhile
   */
  boolean trusted(SnapshotDirectory directory, Cancellation cancellation) {
    Path folder = directory.path();
    try {
      if (isVerified(directory)) {
        return true;
      }
    } catch (BatonException unreadable) {
      log.debug("cannot tell whether the pointers in {} are verified", folder, unreadable);
    }
    Instant retryAt = unverifiable.get(folder);
    if (retryAt != null) {
      Instant now = clock.instant();
      // Only the thread that claims the retry runs the pass: the others would each run it again,
      // one after another under the folder's lock, while it fails.
      if (now.isBefore(retryAt) || !unverifiable.replace(folder, retryAt, now.plus(retryAfter))) {
        return false;
      }
    }
    try {
      ProcessLock.hold(
          folder,
          () -> {
            verify(directory, cancellation);
            return null;
          });
      unverifiable.remove(folder);
      return true;
    } catch (BatonException e) {
      LatestRowFinder.throwIfStopped(cancellation);
      if (e.status() == Status.CANCELLED) {
        throw e;
      }
      if (unverifiable.put(folder, clock.instant().plus(retryAfter)) == null) {
        log.warn(
            "could not verify the session pointers in {}; reads scan it, trying again every {}",
            folder,
            retryAfter,
            e);
      } else {
        log.debug("could not verify the session pointers in {}", folder, e);
      }
      return false;
    }
  }

  /**
   * Whether the folder's pointers were verified during this boot, as this object knows or finds.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the record cannot be read
   */
  boolean isVerified(SnapshotDirectory directory) {
    if (verifiedFolders.contains(directory.path())) {
      return true;
    }
    boolean verified;
    try {
      verified = directory.pointersVerifiedIn(bootId);
    } catch (IOException e) {
      throw BatonException.internal("cannot read whether session pointers were verified", e);
    }
    if (verified) {
      verifiedFolders.add(directory.path());
    }
    return verified;
  }

  /**
   * Unless it was done during this boot, points every session of the folder at its latest row, as
   * one pass over the row headers finds it, and records that it was done, only once every pointer
   * it rewrote was written. The caller holds the folder's lock.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the folder cannot be listed, or a
   *     pointer or the record cannot be written: the folder then stays unverified; or the
   *     cancellation's error, or {@code CANCELLED} when the thread is interrupted, between two
   *     files
   */
  private void verify(SnapshotDirectory directory, Cancellation cancellation) {
    if (isVerified(directory)) {
      return;
    }
    LatestRowFinder.FolderRows rows =
        LatestRowFinder.latestOfEachSession(directory, clock.instant(), cancellation);
    int rewritten = 0;
    for (Map.Entry<String, SessionPointer> session : rows.latest().entrySet()) {
      SessionPointer current = directory.readPointer(session.getKey());
      SessionPointer right = session.getValue();
      if (current == null
          || directory.pointerPending(session.getKey())
          || !current.currentSnapshotId().equals(right.currentSnapshotId())
          || !current.currentCreatedAt().equals(right.currentCreatedAt())) {
        directory.writePointer(session.getKey(), right);
        rewritten++;
      }
    }
    try {
      // Every session with an intact row now points at its latest; those no row file names have
      // none, so a new pointer of theirs was left by a save that failed before its row.
      directory.removePendingPointersExceptOf(rows.sessionsWithRows());
      directory.recordPointersVerified(bootId);
    } catch (IOException e) {
      throw BatonException.internal("cannot record that session pointers were verified", e);
    }
    verifiedFolders.add(directory.path());
    log.info(
        "verified the pointers of {} sessions in {} for this boot, rewriting {}",
        rows.latest().size(),
        directory.path(),
        rewritten);
  }
}
