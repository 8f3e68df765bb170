package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SnapshotRules;
import dev.baton.internal.store.StatusSubscribers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session store that keeps each snapshot in a JSON file, so sessions survive restarts and several
 * processes can share one directory.
 *
 * <p><b>Layout.</b> A row is the file {@code <dir>/<prefix>/<snapshotId>.json}, pretty-printed with
 * a two-space indent. The prefix is {@code global} unless {@link Builder#snapshotPathPrefix}
 * derives one for each call, so rows never sit in {@code dir} itself. Each session has a pointer
 * file, {@code <dir>/<prefix>/.pointers/<sessionId>.json}, holding {@code {"currentSnapshotId",
 * "currentCreatedAt", "updatedAt"}}, its latest row, and a checksum of them, {@code "crc32c"},
 * which Genkit Go ignores (see Pointers below). Directories are created with mode 0700 where the
 * file system has POSIX permissions. This is Genkit Go's layout, file names included, for every ID
 * of at most 232 UTF-8 bytes that the JVM can name a file by; see IDs below for the others. Baton
 * adds files of its own to each folder: {@code .lock} (see Writes), {@code
 * .pointers/.verified-boots} and, while a save moves a pointer, {@code
 * .pointers/<sessionId>.json.next} (see Pointers).
 *
 * <p><b>Writes.</b> {@code saveSnapshot} follows the {@link SessionStore} contract and calls its
 * update exactly once: one lock serialises this instance's read-modify-writes, file I/O included. A
 * row is written to {@code <name>.<random>.tmp} beside it, forced to the device, and renamed over
 * the target, so a reader sees the old row or the new one, never a torn write; a leftover temporary
 * file is never read as a row. The row's folder is then forced to the device too (unless {@link
 * Builder#syncDirectories} turns that off), so that a committed row survives a power loss, not only
 * a crash of the process. That is the one durable write of a commit: the pointer is written without
 * one (below). Between processes, an exclusive lock on the folder's {@code .lock} file serialises
 * read-modify-writes and pointer rebuilds, so an abort written by one process is never undone by
 * another's heartbeat and a pointer never moves back.
 *
 * <p><b>Pointers.</b> A pointer is a hint that spares a scan of the folder; the rows are the truth.
 * A save of a new row writes the row, then the session's pointer, as Genkit Go does, so a pointer
 * never names a row that does not exist yet. The new pointer is written before the row, though,
 * beside the old one as {@code <sessionId>.json.next}, a name Genkit Go never reads, and put in the
 * old one's place after the row: while it stands beside the old one (the save is between the two,
 * or was killed or failed there), no Baton reader trusts the old pointer, and the next save or a
 * reader that meets it scans and points the session at its latest row, under the folder's lock. A
 * save whose pointer cannot be put in place after its row still succeeds, since its row is
 * committed; the pointer left beside keeps readers scanning. In a folder whose pointers are
 * verified (below), a pointer that cannot be written fails the save before its row is written. A
 * pointer is never written in place, where a reader could meet old and new bytes mixed: Baton's
 * checksum (see {@link SessionPointer}) would reject such a mix, but Genkit Go ignores the
 * checksum, and a mix of {@code "turn-09"} and {@code "turn-10"} can read {@code "turn-00"},
 * another row of the session, which Go would return. Nor is it renamed over the old one, as Go
 * writes it: renaming over a file makes ext4 write the new one out at once ({@code auto_da_alloc})
 * and the next journal commit, the row's, wait for it, which made a commit cost about as much as
 * two. The old pointer is deleted and the new one, written beside it before the row, renamed to the
 * free name after it ({@link AtomicFiles#replaceWithoutFlush}), which starts no write: a reader,
 * Baton's or Go's, sees the old pointer, none (and scans), or the new one. None of it is forced to
 * the device. A pointer write cut short between the two steps leaves no pointer but the {@code
 * <name>.json.next} beside it, which tells a save that the session has rows; a later pointer write
 * writes over that leftover rather than deleting it, so at no point is neither left.
 *
 * <p>A crash of the process loses no page cache, so every pointer it wrote stays. A crash of the
 * machine may lose any unforced write: a pointer may come back older than its rows, damaged, or not
 * at all. So a folder's pointers are trusted only during a boot in which they were verified: in
 * each boot, the first lookup of a latest snapshot or the first new row in a folder lists the
 * folder once, under the folder's lock, points every session at its latest row as the row headers
 * tell, and records the boot in {@code .pointers/.verified-boots}; each store keeps the folders it
 * knows to be verified in memory, so the record is read once. The boot is recorded only if every
 * pointer the pass rewrote was written. A boot is named by Linux's boot ID, which the kernel draws
 * anew on every boot; where there is none, each JVM counts as a boot of its own, since a process
 * cannot outlive a crash of its machine. After the verification, a whole pointer with no new one
 * beside it names its session's latest row, and a session without a pointer has no rows, so the
 * first save of a new session needs no scan. The verification also removes new pointers left beside
 * old ones. Where the pointers could not be verified (a read-only {@code .pointers}, say) no reader
 * trusts them, and a failed pointer write is logged and the save goes on; the verification is tried
 * again a minute later, not on every call. A save that cannot read the record of verified boots
 * fails before its row is written, since other processes may trust the pointers.
 *
 * <p><b>One machine per folder.</b> A folder must be written by the processes of one kernel, that
 * is of one machine: a boot ID speaks for one page cache. Processes on several machines sharing a
 * network file system, or sandboxes with kernels of their own (virtual-machine containers), must
 * each write a folder of their own; otherwise a pointer write that one machine loses in a crash may
 * sit in a folder that another machine's boot has verified, and hide a committed row there.
 * Containers that share their host's kernel count as that machine. A reader writes too (it verifies
 * pointers, records its boot and repairs pointers), so a process on another machine may read the
 * folder only where it cannot write it, as through a read-only mount: it then scans.
 *
 * <p><b>Genkit Go.</b> Genkit Go reads a pointer, then the row it names, and accepts the row if it
 * exists and belongs to the session; otherwise it scans. Reading a folder this store writes, it
 * sees whole pointers or none, each naming a row that exists: the latest, or, between a save's row
 * and its pointer, the one before it, as a read a moment earlier would. Only in the moment between
 * deleting a pointer and renaming its successor into place does it find none and scan; its scan
 * then rewrites the pointer by a rename of its own, without a lock, and if a save commits a newer
 * row meanwhile, that rename can leave a pointer naming the older row, which later Go readers
 * follow until a Baton read or save repairs it (Baton never trusts a pointer without its checksum).
 * After a crash of the machine, until the folder is verified, Go may follow a stale pointer, as it
 * may with its own store, which does not force its pointers either. A Go writer takes no lock: its
 * pointers, which carry no checksum, are never trusted here, but a Go process killed between its
 * row and its pointer leaves the pointer this store wrote, naming an older row; let only Baton
 * write a folder that Baton reads.
 *
 * <p><b>Leftovers.</b> A writer killed mid-write leaves its temporary file. {@link Builder#build()}
 * looks through every folder under {@code dir} and removes those, and a scan of a prefix folder
 * (below) removes those it sees. Only files at least a minute old are removed, and only under the
 * folder's lock, so a live writer's file is never touched.
 *
 * <p><b>IDs.</b> Snapshot IDs, session IDs and the segments of a prefix follow Genkit Go's rules:
 * each must be non-empty, contain no {@code /}, {@code \} or {@code ..}, not start with {@code .}
 * and contain no control character; Baton adds that it must be valid Unicode (no lone surrogate).
 * Any other is rejected with {@code INVALID_ARGUMENT} on reads and writes alike, before anything is
 * written: a row with an unsafe session ID leaves no file. Every valid ID has a file, whatever its
 * length and the JVM's file-name encoding: one longer than 232 UTF-8 bytes, or one the JVM cannot
 * name a file by (a non-ASCII ID under an ASCII locale such as {@code LANG=C}), is stored as {@code
 * ~<SHA-256 of the ID in hex>.json}. A non-ASCII ID is looked up under both names, so a folder
 * written under an ASCII locale still loads under a UTF-8 one.
 *
 * <p><b>Latest snapshot.</b> {@code getLatestSnapshot} reads the session's pointer and the row it
 * names, and trusts them when the folder's pointers are verified for this boot, the pointer is
 * whole, and the row exists, is intact and belongs to the session. Otherwise (no pointer, or a
 * damaged, stale or foreign one, or one naming a row that was never written, or a damaged row, or a
 * folder whose pointers could not be verified, as a read-only one) it scans the prefix directory,
 * reading only the header of each row file ({@code snapshotId}, {@code sessionId} and {@code
 * createdAt}, which the store writes before the conversation) and skipping files that vanish,
 * decodes the most recent intact row of the session in full, and repairs the pointer. A damaged row
 * of the session (one its pointer names that cannot be read, or whose file names the session but is
 * not a valid row, or holds another snapshot than its name stands for) is logged and passed over,
 * so the session resumes from its newest intact row; when the session has rows and none is intact,
 * the call fails with {@code DATA_LOSS} instead of answering that the session does not exist. A
 * save moves the pointer only for a new row, and only when that row is more recent (by {@code
 * createdAt}, then ID) than the one the pointer names, or when the session has no pointer; a
 * pointer that is not whole, or names a row that was never written, is replaced by what a scan
 * finds. A rewrite (heartbeat, abort, finalisation) never moves it.
 *
 * <p><b>Retention.</b> With {@link Builder#maxPersistedChainLength}, each save follows {@code
 * parentId} links back from the saved row and deletes the rows past the newest {@code n}; deletion
 * is best effort. Without it nothing is deleted.
 *
 * <p><b>Subscriptions.</b> {@link #onSnapshotStatusChange} sees changes saved through this instance
 * at once, and, by polling the subscribed files (every 2 s by default, see {@link
 * Builder#pollInterval}), changes saved by other processes or instances: that is how one process
 * aborts a run another process is executing. The poller runs only while there are subscriptions, on
 * a virtual thread of its own, and both paths deliver a change once.
 *
 * <p>Errors: invalid IDs and prefixes are {@code INVALID_ARGUMENT}; a row file that is not a valid
 * row of its ID is {@code DATA_LOSS} when read by ID, and so is a session none of whose rows can be
 * read; other I/O failures are {@code INTERNAL}, and not public. No message names a path; the log
 * does.
 *
 * <p>Thread-safe.
 */
public final class FileSessionStore implements SessionStore, SnapshotSubscriber {
  private static final Logger log = LoggerFactory.getLogger(FileSessionStore.class);

  /** The prefix when none is configured. */
  public static final String DEFAULT_PREFIX = "global";

  /** How often subscribed files are re-read when no interval is configured. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);

  private final Path root;
  private final Function<ActionContext, String> prefix;
  private final int maxChainLength;
  private final AtomicFiles.Sync rowSync;
  private final String bootId;
  private final Set<Path> verifiedFolders = ConcurrentHashMap.newKeySet();

  /** The folders whose verification failed, with when to try again. */
  private final Map<Path, Instant> unverifiable = new ConcurrentHashMap<>();

  private final InstantSource clock;
  private final Consumer<CommitStep> commitSteps;
  private final ReentrantLock lock = new ReentrantLock();
  private final StatusSubscribers<RowRef> subscribers;
  private final @Nullable SnapshotPoller poller;

  /** The steps of a save of a new row, in order, for tests that kill a writer between them. */
  enum CommitStep {
    /** The row is committed; its session's new pointer, if it needs one, is not yet promoted. */
    ROW_WRITTEN,
    /**
     * The save is past its pointer step, whatever that did: promoted the new pointer, left it
     * pending when the promotion failed, or nothing, when the row needed no new pointer.
     */
    POINTER_STEP_DONE
  }

  /** How long reads and saves leave a folder whose pointers could not be verified unverified. */
  static final Duration VERIFICATION_RETRY = Duration.ofMinutes(1);

  /** A row as subscriptions name it: its directory and ID. */
  private record RowRef(SnapshotDirectory directory, String snapshotId) {}

  private FileSessionStore(Builder builder) {
    this.root = builder.dir;
    this.rowSync =
        Boolean.FALSE.equals(builder.syncDirectories)
            ? AtomicFiles.Sync.CONTENT
            : AtomicFiles.Sync.CONTENT_AND_NAME;
    this.bootId = builder.bootId != null ? builder.bootId : BootId.read();
    this.commitSteps = builder.commitSteps != null ? builder.commitSteps : step -> {};
    this.clock = builder.clock != null ? builder.clock : InstantSource.system();
    this.prefix =
        builder.snapshotPathPrefix != null ? builder.snapshotPathPrefix : c -> DEFAULT_PREFIX;
    this.maxChainLength =
        builder.maxPersistedChainLength != null ? builder.maxPersistedChainLength : 0;
    Duration interval = builder.pollInterval != null ? builder.pollInterval : DEFAULT_POLL_INTERVAL;
    // The poller starts with the first subscription and stops with the last one.
    SnapshotPoller newPoller =
        interval.isPositive()
            ? new SnapshotPoller(interval, this::pollSubscribedRows, "baton-file-store-poller")
            : null;
    this.poller = newPoller;
    this.subscribers =
        newPoller == null
            ? new StatusSubscribers<>()
            : new StatusSubscribers<>(newPoller::start, newPoller::stop);
  }

  /**
   * A builder for a store rooted at {@code dir}, which is created if missing when the store is
   * built. Only processes of one machine may write the folder (see the class comment).
   *
   * @throws IllegalArgumentException when {@code dir} is the empty path
   */
  public static Builder builder(Path dir) {
    if (dir.toString().isEmpty()) {
      throw new IllegalArgumentException("FileSessionStore needs a directory; the path is empty");
    }
    return new Builder(dir);
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an unsafe ID or prefix;
   *     {@code DATA_LOSS} when the row file is not a valid row of that ID
   */
  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    SafeIds.requireSnapshotId(snapshotId);
    return directory(context).readRow(snapshotId);
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an unsafe ID or prefix;
   *     {@code DATA_LOSS} when the session has rows but none of them can be read
   */
  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    SafeIds.requireSessionId(sessionId);
    SnapshotDirectory directory = directory(context);
    if (!Files.isDirectory(directory.path())) {
      return null;
    }
    LatestRowFinder finder = new LatestRowFinder(directory, sessionId);
    if (pointersTrusted(directory, context.cancellation())
        && !directory.pointerPending(sessionId)) {
      SessionSnapshot pointed = finder.pointedRow();
      if (pointed != null) {
        return pointed;
      }
    }
    // The scan takes no lock, so a session without a pointer never holds up saves; a save racing it
    // is missed as it would be by a read a moment earlier.
    SessionSnapshot latest = finder.scan(context.cancellation());
    if (latest != null || finder.sawStaleTemps()) {
      tidyAfterScan(directory, sessionId, latest, finder.sawStaleTemps());
    }
    if (latest == null && finder.sawDamage()) {
      throw finder.noIntactRow();
    }
    return latest;
  }

  /**
   * Whether the folder's whole pointers can be trusted: they were verified against the rows during
   * this boot, here or by another process. If not, verifies them now, under the folder's lock (not
   * this store's, so saves to other folders go on). False when that fails (a read-only folder,
   * say): reads then scan, and the verification is not tried again for {@link #VERIFICATION_RETRY}.
   *
   * @throws BatonException when {@code cancellation} fires or the thread is interrupted meanwhile
   */
  private boolean pointersTrusted(SnapshotDirectory directory, Cancellation cancellation) {
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
      if (now.isBefore(retryAt)
          || !unverifiable.replace(folder, retryAt, now.plus(VERIFICATION_RETRY))) {
        return false;
      }
    }
    try {
      ProcessLock.hold(
          folder,
          () -> {
            verifyPointers(directory, cancellation);
            return null;
          });
      unverifiable.remove(folder);
      return true;
    } catch (BatonException e) {
      LatestRowFinder.throwIfStopped(cancellation);
      if (e.status() == Status.CANCELLED) {
        throw e;
      }
      if (unverifiable.put(folder, clock.instant().plus(VERIFICATION_RETRY)) == null) {
        log.warn(
            "could not verify the session pointers in {}; reads scan it, trying again every {}",
            folder,
            VERIFICATION_RETRY,
            e);
      } else {
        log.debug("could not verify the session pointers in {}", folder, e);
      }
      return false;
    }
  }

  /**
   * Whether the folder's pointers were verified during this boot, as this store knows or finds.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the record cannot be read
   */
  private boolean isVerified(SnapshotDirectory directory) {
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
   * it rewrote was written. Pointers are never forced to the device, so after a crash of the
   * machine any of them may be older than its rows, damaged, or gone; the rows, forced before each
   * save returned, are the truth. The caller holds the folder's lock.
   *
   * @throws BatonException {@code INTERNAL} (not public) when the folder cannot be listed, or a
   *     pointer or the record cannot be written: the folder then stays unverified; or the
   *     cancellation's error, or {@code CANCELLED} when the thread is interrupted, between two
   *     files
   */
  private void verifyPointers(SnapshotDirectory directory, Cancellation cancellation) {
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

  /**
   * After a scan, under the folder's lock: points the session at its latest row, and removes the
   * temporary files writers left behind, when the scan saw some. The scan took no lock, so rows may
   * have been committed since it ran: when the pointer does not name an intact row of the session,
   * or a new pointer left beside it says it may be stale, the folder is scanned again under the
   * lock, and the pointer set to what that finds; a pointer that does is moved only forward, to the
   * row found. Best effort: a folder this process cannot lock (read-only, say) keeps serving scans.
   */
  private void tidyAfterScan(
      SnapshotDirectory directory,
      String sessionId,
      @Nullable SessionSnapshot found,
      boolean sweepTemps) {
    try {
      ProcessLock.hold(
          directory.path(),
          () -> {
            if (found != null) {
              LatestRowFinder finder = new LatestRowFinder(directory, sessionId);
              boolean pending = directory.pointerPending(sessionId);
              SessionSnapshot pointed = pending ? null : finder.pointedRow();
              SessionSnapshot latest =
                  pointed == null
                      ? finder.scan(Cancellation.never())
                      : SnapshotRules.isMoreRecent(found, pointed) ? found : null;
              if (latest != null) {
                directory.writePointer(sessionId, pointerTo(latest));
              }
            }
            if (sweepTemps) {
              directory.sweepStaleTemps();
            }
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("could not tidy the folder of session {} after a scan", sessionId, e);
    }
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    String id = SnapshotRules.idOrMinted(snapshotId);
    SafeIds.requireSnapshotId(id);
    SnapshotDirectory directory = directory(context);
    // Outside this store's lock, so that a long verification holds up no save to another folder.
    // A save that ends a cancelled turn (an abort, say) must still be written, so the verification
    // ignores the turn's cancellation; an interrupted thread still fails the save with CANCELLED,
    // since it cannot take the folder's lock.
    try {
      pointersTrusted(directory, Cancellation.never());
    } catch (BatonException interrupted) {
      log.debug("saving to {} without verifying its pointers", directory.path(), interrupted);
    }
    lock.lock();
    try {
      return ProcessLock.hold(directory.path(), () -> readModifyWrite(directory, id, update));
    } finally {
      lock.unlock();
    }
  }

  private @Nullable SessionSnapshot readModifyWrite(
      SnapshotDirectory directory, String id, UnaryOperator<@Nullable SessionSnapshot> update) {
    SessionSnapshot existing = directory.readRow(id);
    SessionSnapshot next = update.apply(existing);
    if (next == null) {
      return null;
    }
    SessionSnapshot row = SnapshotRules.toPersist(id, existing, next);
    // toPersist guarantees a session ID; it names the pointer file, so check it before writing.
    String sessionId = Objects.requireNonNull(row.sessionId());
    SafeIds.requireSessionId(sessionId);
    // Only a new row moves the pointer: the new pointer is written beside the old one before the
    // row, so that no failure or kill between the row and the pointer hides the row, and put in
    // the old one's place after it, so that Genkit Go never reads a pointer to a missing row.
    boolean trusted = existing == null && isVerified(directory);
    boolean prepared = existing == null && preparePointer(directory, sessionId, row, trusted);
    directory.writeRow(row);
    commitSteps.accept(CommitStep.ROW_WRITTEN);
    if (prepared) {
      promotePointer(directory, sessionId, row);
    }
    if (existing == null) {
      commitSteps.accept(CommitStep.POINTER_STEP_DONE);
    }
    subscribers.publish(new RowRef(directory, id), row.statusOrCompleted());
    if (maxChainLength > 0) {
      prune(directory, row);
    }
    return row;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A row whose header cannot be read (a file that is missing, unreadable, or damaged before the
   * end of its header fields) counts as missing; damage past them goes unseen here. The poller
   * re-reads the row in the folder this call resolved, under the prefix of its context.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an unsafe ID or prefix
   */
  @Override
  public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
    SafeIds.requireSnapshotId(snapshotId);
    SnapshotDirectory directory = directory(context);
    // Under the lock, so that no save of this instance falls between reading and subscribing.
    lock.lock();
    try {
      RowHeader header = directory.readHeader(snapshotId);
      return header == null
          ? StatusSubscription.ended()
          : subscribers.subscribe(new RowRef(directory, snapshotId), header.statusOrCompleted());
    } finally {
      lock.unlock();
    }
  }

  /**
   * Removes the temporary files left behind anywhere under the root, each folder under its lock.
   * Best effort: a failure is logged, and the store works regardless.
   */
  private void sweepLeftovers() {
    for (Path folder : SnapshotDirectory.foldersWithStaleTemps(root)) {
      SnapshotDirectory directory = new SnapshotDirectory(folder, rowSync);
      lock.lock();
      try {
        ProcessLock.hold(
            folder,
            () -> {
              directory.sweepStaleTemps();
              return null;
            });
      } catch (RuntimeException e) {
        log.warn("could not remove the temporary files left in {}", folder, e);
      } finally {
        lock.unlock();
      }
    }
  }

  /** Whether the poller is running: only while there are subscriptions. Visible for tests. */
  boolean isPolling() {
    return poller != null && poller.isRunning();
  }

  private SnapshotDirectory directory(ActionContext context) {
    Path dir = root;
    for (String segment : SafeIds.prefixSegments(prefix.apply(context))) {
      dir = FileNames.resolveDirectory(dir, segment);
    }
    return new SnapshotDirectory(dir, rowSync);
  }

  /**
   * Writes the session's new pointer beside the old one, before the save's row, if the row will be
   * more recent than the one the pointer names (the save verified the folder's pointers first, if
   * it could). Leaves a pointer naming a more recent row that exists. Scans when the pointer cannot
   * be compared with (damaged, Genkit Go's, or missing, unless the folder was verified during this
   * boot, where that means a session without rows), names a row that was never written, or may be
   * stale (a new pointer stands beside it already). The same in a folder not verified here: another
   * process may have verified it and trust its pointers (with the fallback boot ID, each process is
   * a boot of its own). The caller holds the save locks of this process and of the folder.
   *
   * @param trusted whether the folder's pointers are verified during this boot
   * @return whether a new pointer was written, to be promoted after the row
   * @throws BatonException {@code INTERNAL} (not public) when it cannot be written: the save fails
   *     before its row is written, since a row committed behind a pointer that another process
   *     trusts would be hidden from its reads
   */
  private boolean preparePointer(
      SnapshotDirectory directory, String sessionId, SessionSnapshot row, boolean trusted) {
    boolean pending = directory.pointerPending(sessionId);
    SessionPointer current = pending ? null : directory.readPointer(sessionId);
    SessionSnapshot target;
    if (current != null && isMoreRecent(row, current)) {
      target = row;
    } else if (current != null && directory.rowExists(current.currentSnapshotId())) {
      return false;
    } else if (trusted && current == null && !pending && !directory.hasPointerFile(sessionId)) {
      target = row;
    } else {
      SessionSnapshot latest = new LatestRowFinder(directory, sessionId).scan(Cancellation.never());
      target = latest != null && SnapshotRules.isMoreRecent(latest, row) ? latest : row;
    }
    directory.preparePointer(sessionId, pointerTo(target));
    return true;
  }

  /**
   * Puts the pointer {@link #preparePointer} wrote in the old one's place, once the row is written.
   * A failure is logged and the save succeeds, since its row is committed: the new pointer stays
   * beside the old one, so readers scan.
   */
  private void promotePointer(SnapshotDirectory directory, String sessionId, SessionSnapshot row) {
    try {
      directory.promotePointer(sessionId);
    } catch (BatonException unwritten) {
      log.warn(
          "saved snapshot {}; its session's pointer is left pending", row.snapshotId(), unwritten);
    }
  }

  private static boolean isMoreRecent(SessionSnapshot row, SessionPointer pointer) {
    return SnapshotRules.isMoreRecent(
        row.createdAt(), row.snapshotId(), pointer.currentCreatedAt(), pointer.currentSnapshotId());
  }

  private SessionPointer pointerTo(SessionSnapshot row) {
    return new SessionPointer(row.snapshotId(), row.createdAt(), clock.instant());
  }

  /**
   * Deletes the rows of the saved row's lineage past the newest {@link #maxChainLength} (see {@link
   * SnapshotRules#pastRetention}). Best effort: a row that cannot be deleted stays, and the save it
   * follows has succeeded anyway.
   */
  private void prune(SnapshotDirectory directory, SessionSnapshot saved) {
    SnapshotRules.pastRetention(
            saved, maxChainLength, id -> SafeIds.isSafe(id) ? directory.readHeader(id) : null)
        .forEach(directory::deleteRow);
  }

  /**
   * One round of the poller: re-reads the status of every subscribed row and delivers the changed
   * ones. Under the lock, so a status read here cannot reach subscribers after a newer one this
   * instance saved; a file that is missing or unreadable is skipped until the next round.
   */
  private void pollSubscribedRows() {
    lock.lock();
    try {
      for (RowRef row : subscribers.subscribedRows()) {
        RowHeader header = row.directory().readHeader(row.snapshotId());
        if (header != null) {
          subscribers.publish(row, header.statusOrCompleted());
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Options of a {@link FileSessionStore}. Each may be set at most once; a second call throws
   * {@link IllegalStateException}. Not thread-safe.
   */
  public static final class Builder {
    private final Path dir;
    private @Nullable Function<ActionContext, String> snapshotPathPrefix;
    private @Nullable Integer maxPersistedChainLength;
    private @Nullable Duration pollInterval;
    private @Nullable Boolean syncDirectories;
    private @Nullable String bootId;
    private @Nullable Consumer<CommitStep> commitSteps;
    private @Nullable InstantSource clock;

    private Builder(Path dir) {
      this.dir = dir;
    }

    /**
     * Derives the directory under {@code dir} that a call reads and writes, from the call's context
     * (a tenant from its auth context, say), so tenants cannot see each other's snapshots by ID or
     * by session. It runs on every call. Its result is split at {@code /} into nested directories
     * ({@code org-42/user-7}), dropping empty segments; a result with an unsafe segment or with no
     * segment at all (empty, {@code /}, {@code ///}) fails the call with {@code INVALID_ARGUMENT}.
     * Leave the option out to use {@value FileSessionStore#DEFAULT_PREFIX}.
     */
    public Builder snapshotPathPrefix(Function<ActionContext, String> prefix) {
      checkUnset(snapshotPathPrefix, "snapshotPathPrefix");
      this.snapshotPathPrefix = prefix;
      return this;
    }

    /**
     * Keeps at most {@code n} rows of each lineage: after every save, the rows more than {@code n -
     * 1} {@code parentId} links behind the saved row are deleted. Unlimited by default.
     *
     * @throws IllegalArgumentException when {@code n} is less than 1
     */
    public Builder maxPersistedChainLength(int n) {
      checkUnset(maxPersistedChainLength, "maxPersistedChainLength");
      if (n < 1) {
        throw new IllegalArgumentException("maxPersistedChainLength must be at least 1, got " + n);
      }
      this.maxPersistedChainLength = n;
      return this;
    }

    /**
     * How often subscribed row files are re-read to see changes made by other processes; {@link
     * FileSessionStore#DEFAULT_POLL_INTERVAL} (2 s) by default. Zero or negative turns polling off:
     * subscriptions then still start with the current status and see this instance's changes, but
     * not those of other processes.
     */
    public Builder pollInterval(Duration interval) {
      checkUnset(pollInterval, "pollInterval");
      this.pollInterval = interval;
      return this;
    }

    /**
     * Whether a commit also forces the row's folder to the device once the row is renamed into
     * place; true by default. The rename is what commits a row, and until the folder is forced a
     * power loss can undo it (a crash of the process cannot). Turning it off makes a commit cheaper
     * (see {@code benchmarks/RESULTS.md}); do so only where losing the last commits to a power loss
     * is acceptable, as on a tmpfs or in tests.
     */
    public Builder syncDirectories(boolean sync) {
      checkUnset(syncDirectories, "syncDirectories");
      this.syncDirectories = sync;
      return this;
    }

    /**
     * Stands in for the ID of the machine's boot, which the store otherwise reads when it is built
     * (see {@link BootId}), so that a test can play a crash of the machine by opening the folder
     * again under another ID. Not an option for users: a folder must be written by the processes of
     * one machine (see the class comment), and the boot ID is what makes that safe.
     */
    Builder bootId(String id) {
      checkUnset(bootId, "bootId");
      this.bootId = id;
      return this;
    }

    /**
     * The clock the store reads: it stamps the session pointers it writes and times the retry of a
     * pointer check that failed. Defaults to the system clock; pass the clock given to {@code
     * Baton.builder().clock}, which stamps the rows. The age of a temporary file left by an
     * interrupted write is judged on the system clock all the same, against the file's own time.
     */
    public Builder clock(InstantSource source) {
      checkUnset(clock, "clock");
      this.clock = source;
      return this;
    }

    /** Runs after each step of a save of a new row; for tests that kill a writer between them. */
    Builder onCommitStep(Consumer<CommitStep> hook) {
      checkUnset(commitSteps, "onCommitStep");
      this.commitSteps = hook;
      return this;
    }

    /**
     * The store, after creating {@code dir} (mode 0700) if it is missing and removing the temporary
     * files that killed writers left in the folders under it (see the class comment).
     *
     * @throws UncheckedIOException when the directory cannot be created
     */
    public FileSessionStore build() {
      try {
        AtomicFiles.createPrivateDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create session store directory " + dir, e);
      }
      FileSessionStore store = new FileSessionStore(this);
      store.sweepLeftovers();
      return store;
    }

    private static void checkUnset(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }
  }
}
