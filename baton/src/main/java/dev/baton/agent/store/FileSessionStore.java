package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SnapshotRules;
import dev.baton.internal.store.StatusSubscribers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
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
 * adds two files of its own to each folder: {@code .lock} (see Writes) and {@code
 * .pointers/.verified-boots} (see Pointers).
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
 * It is overwritten in place, padded with spaces to the length of the one it replaces, and never
 * forced to the device: renaming a file over another, as Genkit Go writes its pointers, makes ext4
 * flush the file ({@code auto_da_alloc}), which would make every commit two durable writes. Its
 * checksum tells a whole pointer from a torn one; one without a checksum (Genkit Go's) is not
 * trusted either. A save writes its pointer after its row and before it returns, so a crash of the
 * process, which loses no page cache, leaves every pointer naming its session's latest row, or the
 * one before for a save that had not returned. A crash of the machine may lose any unforced write:
 * a pointer may come back older than its rows, torn, or not at all. So a folder's pointers are
 * trusted only during a boot in which they were verified: in each boot, the first lookup of a
 * latest snapshot or the first new row in a folder lists the folder once, under the folder's lock,
 * points every session at its latest row as the row headers tell, and records the boot in {@code
 * .pointers/.verified-boots}. A boot is named by Linux's boot ID, which the kernel draws anew on
 * every boot; where there is none, each JVM counts as a boot of its own, since a process cannot
 * outlive a crash of its machine. After the verification, a whole pointer names its session's
 * latest row, and a session without a pointer has no rows, so the first save of a new session needs
 * no scan.
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
 * whole, and the row is intact and belongs to the session. Otherwise (no pointer, or a torn, stale
 * or foreign one, or a damaged row, or a folder whose pointers could not be verified, as a
 * read-only one) it scans the prefix directory, reading only {@code snapshotId}, {@code sessionId}
 * and {@code createdAt} of each row file and skipping files that vanish, decodes the most recent
 * intact row of the session in full, and rewrites the pointer. A damaged row of the session (one
 * its pointer names that cannot be read, or whose file names the session but is not a valid row, or
 * holds another snapshot than its name stands for) is logged and passed over, so the session
 * resumes from its newest intact row; when the session has rows and none is intact, the call fails
 * with {@code DATA_LOSS} instead of answering that the session does not exist. A save moves the
 * pointer only for a new row, and only when that row is more recent (by {@code createdAt}, then ID)
 * than the one the pointer names, or when the session has no pointer; a pointer that is not whole
 * is replaced by what a scan finds. A rewrite (heartbeat, abort, finalisation) never moves it.
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
  private final ReentrantLock lock = new ReentrantLock();
  private final StatusSubscribers<RowRef> subscribers;
  private final @Nullable SnapshotPoller poller;

  /** A row as subscriptions name it: its directory and ID. */
  private record RowRef(SnapshotDirectory directory, String snapshotId) {}

  private FileSessionStore(Builder builder) {
    this.root = builder.dir;
    this.rowSync =
        Boolean.FALSE.equals(builder.syncDirectories)
            ? AtomicFiles.Sync.CONTENT
            : AtomicFiles.Sync.CONTENT_AND_NAME;
    this.bootId = builder.bootId != null ? builder.bootId : BootId.current();
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
   * built.
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
    if (pointersTrusted(directory)) {
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
   * this boot, here or by another process. If not, verifies them now, under the save locks of this
   * process and of the folder. False when that fails (a read-only folder, say): reads then scan.
   */
  private boolean pointersTrusted(SnapshotDirectory directory) {
    if (directory.pointersVerifiedIn(bootId)) {
      return true;
    }
    lock.lock();
    try {
      return ProcessLock.hold(directory.path(), () -> verifyPointers(directory));
    } catch (RuntimeException e) {
      log.debug("could not verify the session pointers in {}; reads scan", directory.path(), e);
      return false;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Unless it was done during this boot, points every session of the folder at its latest row, as
   * one pass over the row headers finds it, and records that it was done. Pointers are never forced
   * to the device, so after a crash of the machine any of them may be older than its rows, torn, or
   * gone; the rows, forced before each save returned, are the truth. The caller holds the save
   * locks of this process and of the folder.
   *
   * @return true once the pointers are verified
   * @throws BatonException {@code INTERNAL} (not public) when the folder cannot be listed
   */
  private boolean verifyPointers(SnapshotDirectory directory) {
    if (directory.pointersVerifiedIn(bootId)) {
      return true;
    }
    Map<String, SessionPointer> latest = LatestRowFinder.latestOfEachSession(directory);
    int rewritten = 0;
    for (Map.Entry<String, SessionPointer> session : latest.entrySet()) {
      SessionPointer current = directory.readPointer(session.getKey());
      SessionPointer right = session.getValue();
      if (current == null
          || !current.currentSnapshotId().equals(right.currentSnapshotId())
          || !current.currentCreatedAt().equals(right.currentCreatedAt())) {
        directory.writePointer(session.getKey(), right);
        rewritten++;
      }
    }
    try {
      directory.recordPointersVerified(bootId);
    } catch (IOException e) {
      throw BatonException.internal("cannot record that session pointers were verified", e);
    }
    log.info(
        "verified the pointers of {} sessions in {} for this boot, rewriting {}",
        latest.size(),
        directory.path(),
        rewritten);
    return true;
  }

  /**
   * After a scan, under the save locks of this process and of the folder: points the session at the
   * row the scan found, unless a valid pointer names a row at least as recent (a repair never moves
   * a pointer back past a save that advanced it meanwhile, in any process); and removes the
   * temporary files writers left behind, when the scan saw some. Best effort: a folder this process
   * cannot lock (read-only, say) keeps serving scans.
   */
  private void tidyAfterScan(
      SnapshotDirectory directory,
      String sessionId,
      @Nullable SessionSnapshot found,
      boolean sweepTemps) {
    lock.lock();
    try {
      ProcessLock.hold(
          directory.path(),
          () -> {
            if (found != null) {
              SessionSnapshot current = new LatestRowFinder(directory, sessionId).pointedRow();
              if (current == null || SnapshotRules.isMoreRecent(found, current)) {
                directory.writePointer(sessionId, pointerTo(found));
              }
            }
            if (sweepTemps) {
              directory.sweepStaleTemps();
            }
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("could not tidy the folder of session {} after a scan", sessionId, e);
    } finally {
      lock.unlock();
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
    directory.writeRow(row);
    subscribers.publish(new RowRef(directory, id), row.statusOrCompleted());
    if (existing == null) {
      advancePointer(directory, sessionId, row);
    }
    if (maxChainLength > 0) {
      prune(directory, row);
    }
    return row;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A row that exists but cannot be read counts as missing. The poller re-reads the row in the
   * folder this call resolved, under the prefix of its context.
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
   * Points the session at a new row, which is committed, if the row is more recent than the one its
   * pointer names, or if it has no pointer: in a folder whose pointers were verified during this
   * boot, only a session without rows has none. A pointer that is not whole (torn, or written by
   * Genkit Go) names no row this can be compared with, so a scan, which sees the new row, picks the
   * latest instead. The caller holds the save locks of this process and of the folder.
   */
  private void advancePointer(SnapshotDirectory directory, String sessionId, SessionSnapshot row) {
    try {
      verifyPointers(directory);
    } catch (RuntimeException e) {
      // The row is committed: the save succeeds, and reads keep scanning until a verification does.
      log.warn("could not verify the session pointers in {}", directory.path(), e);
    }
    SessionPointer current = directory.readPointer(sessionId);
    if (current == null && directory.hasPointerFile(sessionId)) {
      try {
        SessionSnapshot latest =
            new LatestRowFinder(directory, sessionId).scan(Cancellation.never());
        directory.writePointer(sessionId, pointerTo(latest != null ? latest : row));
      } catch (RuntimeException e) {
        // The row is committed, and the pointer that is not whole keeps sending reads to the scan.
        log.warn("could not scan for the latest row of session {}", sessionId, e);
      }
    } else if (current == null
        || SnapshotRules.isMoreRecent(
            row.createdAt(),
            row.snapshotId(),
            current.currentCreatedAt(),
            current.currentSnapshotId())) {
      directory.writePointer(sessionId, pointerTo(row));
    }
  }

  private static SessionPointer pointerTo(SessionSnapshot row) {
    return new SessionPointer(row.snapshotId(), row.createdAt(), Instant.now());
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
     * Stands in for the ID of the machine's boot (see {@link BootId}), so that a test can play a
     * crash of the machine by opening the folder again under another ID. Not an option for users.
     */
    Builder bootId(String id) {
      checkUnset(bootId, "bootId");
      this.bootId = id;
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
