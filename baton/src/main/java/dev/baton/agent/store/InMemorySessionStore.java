package dev.baton.agent.store;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.internal.store.SnapshotRules;
import dev.baton.internal.store.StatusSubscribers;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A session store that keeps snapshots in memory, for tests and single-process development: its
 * rows live as long as the store and are seen only through it.
 *
 * <p>It follows the {@link SessionStore} contract: {@code saveSnapshot} calls its update exactly
 * once, under a write lock, so concurrent read-modify-writes of a row lose nothing; a null or empty
 * snapshot ID gets a random UUID; a row without a session ID is rejected with {@code
 * INVALID_ARGUMENT}; an absent status is stored as {@code completed}; timestamps are stored as
 * given. {@code getLatestSnapshot} scans every row, picking the greatest {@code createdAt} and then
 * the greatest snapshot ID. Any string is a valid ID.
 *
 * <p>Subscriptions ({@link #onSnapshotStatusChange}) start with the row's status and then get each
 * status a save gives the row, in the order of the saves; a subscription to a missing row is ended
 * at once.
 *
 * <p>Thread-safe.
 */
public final class InMemorySessionStore implements SessionStore, SnapshotSubscriber {
  private final ReadWriteLock lock = new ReentrantReadWriteLock();

  /**
   * The rows by snapshot ID, guarded by {@link #lock}. The map holds the row it was given and hands
   * the same instance out, without copying: rows are records, their collections are immutable
   * copies, and the one part of a row applications mutate, the custom state, is copied by {@link
   * dev.baton.agent.SessionState} both when a state is built and each time it is read. The JSON
   * trees inside messages, parts and artifacts are copied when those are built and are immutable by
   * the library's convention. So a caller can neither change a stored row through the row it saved
   * nor through one it read, and a later save replaces the row rather than changing it.
   */
  private final Map<String, SessionSnapshot> rows = new HashMap<>();

  private final StatusSubscribers<String> subscribers = new StatusSubscribers<>();

  private InMemorySessionStore() {}

  /** A new, empty store. */
  public static InMemorySessionStore create() {
    return new InMemorySessionStore();
  }

  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    lock.readLock().lock();
    try {
      return rows.get(snapshotId);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    lock.readLock().lock();
    try {
      SessionSnapshot latest = null;
      for (SessionSnapshot row : rows.values()) {
        if (sessionId.equals(row.sessionId())
            && (latest == null || SnapshotRules.isMoreRecent(row, latest))) {
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
      return row;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
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
}
