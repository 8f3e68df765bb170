package dev.baton.agent.store;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.internal.store.SnapshotRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
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
 * which Genkit Go ignores. A pointer is a hint that spares a scan of the folder; the rows are the
 * truth. Directories are created with mode 0700 where the file system has POSIX permissions. This
 * is Genkit Go's layout, file names included, for every ID of at most 232 UTF-8 bytes that the JVM
 * can name a file by; see IDs below for the others. Baton adds files of its own to each folder:
 * {@code .lock}, {@code .pointers/.verified-boots} and, while a save moves a pointer, {@code
 * .pointers/<sessionId>.json.next}.
 *
 * <p><b>Writes.</b> {@code saveSnapshot} follows the {@link SessionStore} contract and calls its
 * update exactly once. An exclusive lock on the folder's {@code .lock} file serialises the
 * read-modify-writes of every process, so an abort written by one process is never undone by
 * another's heartbeat. A reader sees the old row or the new one, never a torn write. A save returns
 * once its row is on the device, so a committed row survives a crash of the process and, unless
 * {@link Builder#syncDirectories} turns that off, a power loss. Pointers are not forced to the
 * device: after a crash of the machine, the first lookup or new row in a folder during the new boot
 * lists the folder once and points every session at its latest row. {@code docs/file-store.md} in
 * Baton's repository gives the design and why it is crash-safe.
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
 * <p><b>Genkit Go.</b> Genkit Go reads a folder this store writes: it sees whole pointers or none,
 * each naming a row that exists, the latest or, between a save's row and its pointer, the one
 * before it. Racing a save, its own repair of a missing pointer can leave one naming an older row,
 * which later Go readers follow until a Baton read or save repairs it; after a crash of the
 * machine, until the folder is verified, Go may follow a stale pointer, as it may with its own
 * store. A Go writer takes no lock and writes pointers that Baton never trusts, and a Go process
 * killed between its row and its pointer leaves a pointer naming an older row: let only Baton write
 * a folder that Baton reads.
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
 * <p><b>Latest snapshot.</b> {@code getLatestSnapshot} follows the session's pointer when it can be
 * trusted, and otherwise scans the prefix directory, reading only the header of each row file, and
 * repairs the pointer. A damaged row of the session is logged and passed over, so the session
 * resumes from its newest intact row; when the session has rows and none is intact, the call fails
 * with {@code DATA_LOSS} instead of answering that the session does not exist. A save moves the
 * pointer only for a new row more recent (by {@code createdAt}, then ID) than the one it names, or
 * when the session has no pointer; a rewrite (heartbeat, abort, finalisation) never moves it.
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
 * <p><b>Listing.</b> {@link #listSessions} keeps no index: each page reads the header of every row
 * in the folder and the latest row of each session it lists, so it suits folders of thousands of
 * rows, not millions.
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
  private final InstantSource clock;
  private final PointerVerifier verifier;
  private final Consumer<CommitStep> commitSteps;
  // Serialises this instance's read-modify-writes and sweeps; other processes wait on the folder's.
  private final ReentrantLock lock = new ReentrantLock();
  private final StatusFeed statusFeed;

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

  private FileSessionStore(Builder builder) {
    this.root = builder.dir;
    this.rowSync =
        Boolean.FALSE.equals(builder.syncDirectories)
            ? AtomicFiles.Sync.CONTENT
            : AtomicFiles.Sync.CONTENT_AND_NAME;
    this.clock = builder.clock != null ? builder.clock : InstantSource.system();
    this.verifier =
        new PointerVerifier(
            builder.bootId != null ? builder.bootId : BootId.read(), clock, VERIFICATION_RETRY);
    this.commitSteps = builder.commitSteps != null ? builder.commitSteps : step -> {};
    this.prefix =
        builder.snapshotPathPrefix != null ? builder.snapshotPathPrefix : c -> DEFAULT_PREFIX;
    this.maxChainLength =
        builder.maxPersistedChainLength != null ? builder.maxPersistedChainLength : 0;
    this.statusFeed =
        new StatusFeed(
            builder.pollInterval != null ? builder.pollInterval : DEFAULT_POLL_INTERVAL,
            builder.pollReads != null ? builder.pollReads : id -> {});
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
    if (verifier.trusted(directory, context.cancellation())
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
   * {@inheritDoc}
   *
   * <p>The store keeps no index of its sessions: a page reads the header of every row file in the
   * context's folder, taking no lock, and then the latest row of each listed session, streamed past
   * its conversation, so a page costs one pass over the folder. Damaged row files are passed over.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an unsafe prefix or a
   *     malformed page token; {@code INTERNAL} (not public) when the folder cannot be listed
   */
  @Override
  public SessionPage listSessions(ActionContext context, SessionQuery query) {
    return SessionLister.list(directory(context), query, context.cancellation());
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads the header of every row in the folder, as {@link #listSessions} does, and each of the
   * session's rows past its header, skipping its conversation.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an empty or invalid session
   *     ID; {@code INTERNAL} (not public) when the folder cannot be listed
   */
  @Override
  public List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    SafeIds.requireSessionId(sessionId);
    return SessionLister.rows(directory(context), sessionId, context.cancellation());
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
      verifier.trusted(directory, Cancellation.never());
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
    boolean trusted = existing == null && verifier.isVerified(directory);
    boolean prepared = existing == null && preparePointer(directory, sessionId, row, trusted);
    directory.writeRow(row);
    commitSteps.accept(CommitStep.ROW_WRITTEN);
    if (prepared) {
      promotePointer(directory, sessionId, row);
    }
    if (existing == null) {
      commitSteps.accept(CommitStep.POINTER_STEP_DONE);
    }
    statusFeed.publish(directory, id, row.statusOrCompleted());
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
    return statusFeed.subscribe(directory, snapshotId);
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
    return statusFeed.isPolling();
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
    private @Nullable Consumer<String> pollReads;
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

    /** Runs before the poller reads a subscribed row, with its ID; for tests that hold a round. */
    Builder onPollRead(Consumer<String> hook) {
      checkUnset(pollReads, "onPollRead");
      this.pollReads = hook;
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
