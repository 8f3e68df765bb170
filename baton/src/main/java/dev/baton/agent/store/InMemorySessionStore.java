package dev.baton.agent.store;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.SessionListing;
import dev.baton.internal.store.SnapshotRules;
import dev.baton.internal.store.StatusSubscribers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A session store that keeps snapshots in memory: its rows live as long as the store, are seen only
 * through it, and are gone when the process ends.
 *
 * <p><b>What it is for.</b> Tests, development, and single-process services that can afford to lose
 * their sessions on a restart. Every snapshot holds the whole conversation up to it, so a store
 * that keeps them all grows with every turn of every session: {@link #create()} does exactly that,
 * which suits tests and short-lived processes. A long-running service should bound it with {@link
 * #builder()}: {@link Builder#maxPersistedChainLength} keeps only the newest rows of each lineage,
 * as the file store's option of that name does, and {@link Builder#maxSessions} keeps only the
 * sessions saved to most recently. With both set, memory stays bounded by the number of sessions
 * times the rows kept per session times the size of a conversation.
 *
 * <p>It follows the {@link SessionStore} contract: {@code saveSnapshot} calls its update exactly
 * once, under a write lock, so concurrent read-modify-writes of a row lose nothing; a null or empty
 * snapshot ID gets a random UUID; a row without a session ID is rejected with {@code
 * INVALID_ARGUMENT}; an absent status is stored as {@code completed}; timestamps are stored as
 * given. {@code getLatestSnapshot} looks through the session's rows, picking the greatest {@code
 * createdAt} and then the greatest snapshot ID. Any string is a valid ID as long as it is
 * well-formed UTF-16 (one with a lone surrogate is {@code INVALID_ARGUMENT}, as in every store).
 *
 * <p>Subscriptions ({@link #onSnapshotStatusChange}) start with the row's status and then get each
 * status a save gives the row, in the order of the saves; a subscription to a missing row is ended
 * at once. A subscription to a row that retention or eviction then deletes gets nothing more.
 *
 * <p>Thread-safe.
 */
public final class InMemorySessionStore implements SessionStore, SnapshotSubscriber {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final int maxChainLength;
  private final int maxSessions;

  /**
   * The rows by snapshot ID, changed only under {@link #lock}'s write lock. {@link #getSnapshot}
   * reads it without the lock: a concurrent map publishes each row it is given, a row is never
   * changed once put (see below), and one row's read needs nothing else of the store to be
   * consistent with it, so a read sees the row before a save or after it, as under the read lock.
   * That keeps thousands of detached runs' reads (waits, reports) off the lock their saves take.
   * What a lock-free read can see that a locked one could not is one save half done across rows:
   * its new row, beside an old row that the same save's retention or eviction is about to delete.
   * No caller reads two rows as one state ({@link #getLatestSnapshot} still takes the lock). The
   * map holds the row it was given and hands the same instance out, without copying: rows are
   * records, their collections are immutable copies, and the one part of a row applications mutate,
   * the custom state, is copied by {@link dev.baton.agent.SessionState} both when a state is built
   * and each time it is read. The JSON trees inside messages, parts and artifacts are copied when
   * those are built and are immutable by the library's convention. So a caller can neither change a
   * stored row through the row it saved nor through one it read, and a later save replaces the row
   * rather than changing it.
   */
  private final Map<String, SessionSnapshot> rows = new ConcurrentHashMap<>();

  /**
   * The snapshot IDs of each session, guarded by {@link #lock}, least recently saved to first: a
   * save moves its session to the end, and eviction takes from the front.
   */
  private final LinkedHashMap<String, Set<String>> sessions = new LinkedHashMap<>();

  private final StatusSubscribers<String> subscribers = new StatusSubscribers<>();

  private InMemorySessionStore(int maxChainLength, int maxSessions) {
    this.maxChainLength = maxChainLength;
    this.maxSessions = maxSessions;
  }

  /** A new, empty store that keeps every row for as long as it lives. */
  public static InMemorySessionStore create() {
    return new InMemorySessionStore(0, 0);
  }

  /** A builder for a store with bounds; with none set, it builds what {@link #create()} does. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    // Without the lock: see rows. A null ID, which the concurrent map would refuse, finds nothing.
    if (snapshotId == null) {
      return null;
    }
    SnapshotRules.requireWellFormed("snapshot ID", snapshotId);
    return rows.get(snapshotId);
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    lock.readLock().lock();
    try {
      SessionSnapshot latest = null;
      for (String id : sessions.getOrDefault(sessionId, Set.of())) {
        SessionSnapshot row = rows.get(id);
        if (row != null && (latest == null || SnapshotRules.isMoreRecent(row, latest))) {
          latest = row;
        }
      }
      return latest;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    String id = SnapshotRules.idOrMinted(snapshotId);
    lock.writeLock().lock();
    try {
      SessionSnapshot existing = rows.get(id);
      SessionSnapshot next = update.apply(existing);
      if (next == null) {
        return null;
      }
      SessionSnapshot row = SnapshotRules.toPersist(id, existing, next);
      rows.put(id, row);
      // Published under the write lock, so subscribers see a row's statuses in save order; the
      // gate in StatusSubscribers drops a save that left the status as it was.
      subscribers.publish(id, row.statusOrCompleted());
      String sessionId = Objects.requireNonNull(row.sessionId());
      Set<String> ids = sessions.remove(sessionId);
      if (ids == null) {
        ids = new LinkedHashSet<>();
      }
      ids.add(id);
      sessions.put(sessionId, ids);
      if (maxChainLength > 0) {
        SnapshotRules.pastRetention(row, maxChainLength, this::headerOf).forEach(this::delete);
      }
      if (maxSessions > 0) {
        evictBeyond(maxSessions);
      }
      return row;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Summarises every session under the read lock, then sorts them: a page costs a pass over the
   * store's rows, which suits the sizes this store is for.
   */
  @Override
  public SessionPage listSessions(ActionContext context, SessionQuery query) {
    List<SessionSummary> summaries = new ArrayList<>();
    lock.readLock().lock();
    try {
      sessions.forEach(
          (sessionId, ids) -> {
            String prefix = query.sessionIdPrefix();
            if (prefix == null || sessionId.startsWith(prefix)) {
              SessionSummary summary = summarise(ids);
              if (summary != null) {
                summaries.add(summary);
              }
            }
          });
    } finally {
      lock.readLock().unlock();
    }
    return SessionListing.page(summaries, query);
  }

  /** Copies the session's rows under the read lock, each without its conversation. */
  @Override
  public List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    SnapshotRules.requireWellFormed("session ID", sessionId);
    List<SessionSnapshot> found = new ArrayList<>();
    lock.readLock().lock();
    try {
      for (String id : sessions.getOrDefault(sessionId, Set.of())) {
        SessionSnapshot row = rows.get(id);
        if (row != null) {
          found.add(SessionListing.header(row));
        }
      }
    } finally {
      lock.readLock().unlock();
    }
    found.sort(SessionListing.OLDEST_FIRST);
    return found;
  }

  /** A session's summary from its rows, or null when it has none left. Called under the lock. */
  private @Nullable SessionSummary summarise(Set<String> ids) {
    SessionSnapshot latest = null;
    Instant createdAt = null;
    Instant updatedAt = null;
    int turns = 0;
    for (String id : ids) {
      SessionSnapshot row = rows.get(id);
      if (row == null) {
        continue;
      }
      turns++;
      if (latest == null || SnapshotRules.isMoreRecent(row, latest)) {
        latest = row;
      }
      if (createdAt == null || row.createdAt().isBefore(createdAt)) {
        createdAt = row.createdAt();
      }
      Instant rowUpdatedAt = SessionListing.updatedAt(row);
      if (updatedAt == null || rowUpdatedAt.isAfter(updatedAt)) {
        updatedAt = rowUpdatedAt;
      }
    }
    return latest == null
        ? null
        : SessionListing.summary(
            latest, turns, Objects.requireNonNull(createdAt), Objects.requireNonNull(updatedAt));
  }

  @Override
  public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
    SnapshotRules.requireWellFormed("snapshot ID", snapshotId);
    // The read lock keeps saves out between reading the status and subscribing, so no change can
    // fall between the first value and the ones that follow.
    lock.readLock().lock();
    try {
      SessionSnapshot row = rows.get(snapshotId);
      return row == null
          ? StatusSubscription.ended()
          : subscribers.subscribe(snapshotId, row.statusOrCompleted());
    } finally {
      lock.readLock().unlock();
    }
  }

  /** How many rows the store holds. Visible for tests. */
  int rowCount() {
    lock.readLock().lock();
    try {
      return rows.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  /** How many sessions the store holds. Visible for tests. */
  int sessionCount() {
    lock.readLock().lock();
    try {
      return sessions.size();
    } finally {
      lock.readLock().unlock();
    }
  }

  private @Nullable RowHeader headerOf(String snapshotId) {
    SessionSnapshot row = rows.get(snapshotId);
    return row == null ? null : RowHeader.of(row);
  }

  /** Deletes a row. Called under the write lock. */
  private void delete(String snapshotId) {
    SessionSnapshot row = rows.remove(snapshotId);
    String sessionId = row == null ? null : row.sessionId();
    Set<String> ids = sessionId == null ? null : sessions.get(sessionId);
    if (ids != null) {
      ids.remove(snapshotId);
    }
  }

  /** Deletes the least recently saved sessions, rows and all, until {@code max} are left. */
  private void evictBeyond(int max) {
    Iterator<Set<String>> oldest = sessions.values().iterator();
    for (int excess = sessions.size() - max; excess > 0; excess--) {
      oldest.next().forEach(rows::remove);
      oldest.remove();
    }
  }

  /**
   * Bounds of an {@link InMemorySessionStore}. Each may be set at most once; a second call throws
   * {@link IllegalStateException}. Unset bounds do not bound. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Integer maxPersistedChainLength;
    private @Nullable Integer maxSessions;

    private Builder() {}

    /**
     * Keeps at most {@code n} rows of each lineage: after every save, the rows more than {@code n -
     * 1} {@code parentId} links behind the saved row are deleted, as {@link
     * FileSessionStore.Builder#maxPersistedChainLength} does.
     *
     * @throws IllegalArgumentException when {@code n} is less than 1
     */
    public Builder maxPersistedChainLength(int n) {
      this.maxPersistedChainLength =
          atLeastOne(maxPersistedChainLength, "maxPersistedChainLength", n);
      return this;
    }

    /**
     * Keeps at most {@code n} sessions: a save that brings a new session in beyond {@code n}
     * deletes the session saved to least recently, with all its rows (a pending row of a detached
     * run included; a running worker saves at every heartbeat, so its session is rarely the
     * oldest). Reads do not count as use: a session is as recent as its last save.
     *
     * @throws IllegalArgumentException when {@code n} is less than 1
     */
    public Builder maxSessions(int n) {
      this.maxSessions = atLeastOne(maxSessions, "maxSessions", n);
      return this;
    }

    public InMemorySessionStore build() {
      return new InMemorySessionStore(
          maxPersistedChainLength == null ? 0 : maxPersistedChainLength,
          maxSessions == null ? 0 : maxSessions);
    }

    private static int atLeastOne(@Nullable Integer current, String option, int n) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
      if (n < 1) {
        throw new IllegalArgumentException(option + " must be at least 1, got " + n);
      }
      return n;
    }
  }
}
