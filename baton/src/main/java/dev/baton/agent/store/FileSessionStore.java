package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.internal.store.SnapshotRules;
import dev.baton.internal.store.StatusSubscribers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
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
 * "currentCreatedAt", "updatedAt"}}: its latest row. Directories are created with mode 0700 where
 * the file system has POSIX permissions.
 *
 * <p><b>Writes.</b> {@code saveSnapshot} follows the {@link SessionStore} contract and calls its
 * update exactly once: one lock serialises this instance's read-modify-writes, file I/O included. A
 * file is written to {@code <name>.<random>.tmp} beside it, forced to the device (row files only),
 * and renamed over the target, so a reader sees the old file or the new one, never a torn write; a
 * leftover temporary file is never read as a row. Pointers are renamed into place too, without the
 * fsync; on ext4 that rename makes the kernel flush the pointer (its {@code auto_da_alloc}
 * safeguard), which roughly doubles a commit's cost and is what keeps a pointer from lagging its
 * rows after a crash. Between processes, an exclusive lock on the folder's {@code .lock} file
 * serialises read-modify-writes and pointer rebuilds, so an abort written by one process is never
 * undone by another's heartbeat and a pointer never moves back.
 *
 * <p><b>IDs.</b> Snapshot IDs, session IDs and the segments of a prefix become path segments, so
 * each must be non-empty, contain no {@code /}, {@code \} or {@code ..}, not start with {@code .}
 * and contain no control character. Any other is rejected with {@code INVALID_ARGUMENT} on reads
 * and writes alike, before anything is written: a row with an unsafe session ID leaves no file.
 *
 * <p><b>Latest snapshot.</b> {@code getLatestSnapshot} reads the session's pointer and the row it
 * names, and trusts them when that row exists and belongs to the session. Otherwise (no pointer, or
 * a stale or corrupt one) it scans the prefix directory, reading only {@code sessionId} and {@code
 * createdAt} of each row file and skipping files it cannot parse or that vanish, decodes the winner
 * in full, and rewrites the pointer. A save moves the pointer only for a new row, and only when
 * that row is more recent (by {@code createdAt}, then ID) than the one the pointer names, or when
 * the session has no pointer; a rewrite (heartbeat, abort, finalisation) never moves it.
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
 * row is {@code DATA_LOSS} when read by ID; other I/O failures are {@code INTERNAL}. The last two
 * are not public, since their messages name paths.
 *
 * <p>Thread-safe.
 */
public final class FileSessionStore implements SessionStore, SnapshotSubscriber {
  private static final Logger log = LoggerFactory.getLogger(FileSessionStore.class);

  /** The prefix when none is configured. */
  public static final String DEFAULT_PREFIX = "global";

  /** How often subscribed files are re-read when no interval is configured. */
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(2);

  private static final Comparator<Candidate> MOST_RECENT_FIRST =
      Comparator.comparing(Candidate::createdAt).thenComparing(Candidate::snapshotId).reversed();

  private final Path root;
  private final Function<ActionContext, String> prefix;
  private final int maxChainLength;
  private final ReentrantLock lock = new ReentrantLock();
  private final StatusSubscribers<Path> subscribers;
  private final @Nullable SnapshotPoller poller;

  private FileSessionStore(Builder builder) {
    this.root = builder.dir;
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
   *     {@code DATA_LOSS} when the row file is not a valid row
   */
  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    SafeIds.requireSnapshotId(snapshotId);
    return directory(context).readRow(snapshotId);
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    SafeIds.requireSessionId(sessionId);
    SnapshotDirectory directory = directory(context);
    SessionSnapshot pointed = pointedRow(directory, sessionId);
    if (pointed != null || !Files.isDirectory(directory.path())) {
      return pointed;
    }
    // The scan takes no lock, so a session without a pointer never holds up saves; a save racing it
    // is missed as it would be by a read a moment earlier.
    SessionSnapshot latest = scanForLatest(context, directory, sessionId);
    if (latest != null) {
      repairPointer(directory, sessionId, latest);
    }
    return latest;
  }

  /**
   * Points the session at a row found by a scan, under the save locks of this process and of the
   * folder, and only when no valid pointer names a row at least as recent: a repair never moves a
   * pointer back past a save that advanced it meanwhile, in any process. Best effort: a folder this
   * process cannot lock (read-only, say) keeps serving scans.
   */
  private void repairPointer(SnapshotDirectory directory, String sessionId, SessionSnapshot found) {
    lock.lock();
    try {
      ProcessLock.hold(
          directory.path(),
          () -> {
            SessionSnapshot current = pointedRow(directory, sessionId);
            if (current == null || SnapshotRules.isMoreRecent(found, current)) {
              directory.writePointer(sessionId, pointerTo(found));
            }
            return null;
          });
    } catch (RuntimeException e) {
      log.debug("could not repair the pointer of session {}", sessionId, e);
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
    subscribers.publish(directory.rowFile(id), row.statusOrCompleted());
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
   * <p>A row that exists but cannot be read counts as missing. The poller re-reads the file this
   * call resolved, under the prefix of its context.
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
          : subscribers.subscribe(directory.rowFile(snapshotId), header.statusOrCompleted());
    } finally {
      lock.unlock();
    }
  }

  /** Whether the poller is running: only while there are subscriptions. Visible for tests. */
  boolean isPolling() {
    return poller != null && poller.isRunning();
  }

  private SnapshotDirectory directory(ActionContext context) {
    Path dir = root;
    for (String segment : SafeIds.prefixSegments(prefix.apply(context))) {
      dir = dir.resolve(segment);
    }
    return new SnapshotDirectory(dir);
  }

  /** The row the session's pointer names, if it exists and belongs to the session. */
  private static @Nullable SessionSnapshot pointedRow(
      SnapshotDirectory directory, String sessionId) {
    SessionPointer pointer = directory.readPointer(sessionId);
    if (pointer == null || !SafeIds.isSafe(pointer.currentSnapshotId())) {
      return null;
    }
    SessionSnapshot row = directory.readRowIfValid(pointer.currentSnapshotId());
    return row != null && sessionId.equals(row.sessionId()) ? row : null;
  }

  /** A row file's ID and creation time, as the scan reads them. */
  private record Candidate(String snapshotId, Instant createdAt) {}

  /**
   * The session's latest row by a scan of the directory. Candidates are ranked by their headers;
   * the first that still decodes as a row of the session wins, so a row that vanished, was
   * corrupted or was rewritten by another process since its header was read does not hide the
   * others.
   */
  private static @Nullable SessionSnapshot scanForLatest(
      ActionContext context, SnapshotDirectory directory, String sessionId) {
    List<Candidate> candidates = new ArrayList<>();
    for (String id : directory.rowIds()) {
      context.cancellation().throwIfCancelled();
      RowHeader header = directory.readHeader(id);
      Instant createdAt = header == null ? null : header.createdAt();
      if (header != null && createdAt != null && sessionId.equals(header.sessionId())) {
        candidates.add(new Candidate(id, createdAt));
      }
    }
    candidates.sort(MOST_RECENT_FIRST);
    for (Candidate candidate : candidates) {
      SessionSnapshot row = directory.readRowIfValid(candidate.snapshotId());
      if (row != null && sessionId.equals(row.sessionId())) {
        return row;
      }
    }
    return null;
  }

  /** Points the session at a new row if it has no pointer or the row is more recent. */
  private static void advancePointer(
      SnapshotDirectory directory, String sessionId, SessionSnapshot row) {
    SessionPointer current = directory.readPointer(sessionId);
    if (current == null
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
   * Deletes the rows of the saved row's lineage past the newest {@link #maxChainLength}. The walk
   * follows {@code parentId} links while the parent exists and stops at a cycle. Best effort: a row
   * that cannot be deleted stays, and the save it follows has succeeded anyway.
   */
  private void prune(SnapshotDirectory directory, SessionSnapshot saved) {
    List<String> chain = new ArrayList<>();
    chain.add(saved.snapshotId());
    Set<String> seen = new HashSet<>(chain);
    String parentId = saved.parentId();
    while (parentId != null && SafeIds.isSafe(parentId) && seen.add(parentId)) {
      RowHeader parent = directory.readHeader(parentId);
      if (parent == null) {
        break;
      }
      chain.add(parentId);
      parentId = parent.parentId();
    }
    if (chain.size() > maxChainLength) {
      chain.subList(maxChainLength, chain.size()).forEach(directory::deleteRow);
    }
  }

  /**
   * One round of the poller: re-reads the status of every subscribed row and delivers the changed
   * ones. Under the lock, so a status read here cannot reach subscribers after a newer one this
   * instance saved; a file that is missing or unreadable is skipped until the next round.
   */
  private void pollSubscribedRows() {
    lock.lock();
    try {
      for (Path file : subscribers.subscribedRows()) {
        RowHeader header = SnapshotDirectory.readHeaderAt(file);
        if (header != null) {
          subscribers.publish(file, header.statusOrCompleted());
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
     * The store, after creating {@code dir} (mode 0700) if it is missing.
     *
     * @throws UncheckedIOException when the directory cannot be created
     */
    public FileSessionStore build() {
      try {
        AtomicFiles.createPrivateDirectories(dir);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create session store directory " + dir, e);
      }
      return new FileSessionStore(this);
    }

    private static void checkUnset(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }
  }
}
