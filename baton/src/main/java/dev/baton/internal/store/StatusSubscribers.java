package dev.baton.internal.store;

import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store's status subscriptions, grouped by the row they watch ({@code K} names a row: a snapshot
 * ID, or a file). For each row it keeps the last status delivered to the row's subscribers, and
 * delivers a status only when it differs from that one. This is the dedup gate: when two paths
 * observe the same change (the file store's own write and its poller re-reading the file), the
 * subscribers get it once, and the poller never redelivers a status nobody changed.
 *
 * <p>Thread-safe. Each row has a lock of its own: a row's values are offered under it, so two
 * publishers cannot deliver one row's changes out of the order they published them in, while
 * subscriptions to different rows (thousands at once in a background fan-out, each detached run
 * watching its own row) never wait for each other. A row with no subscriber left is retired and
 * leaves the map; whoever finds a retired row takes a fresh one. The activity callbacks run under a
 * lock of their own and act on the count of subscribed rows as it is when they run, so a start
 * caused by one subscriber cannot overtake the stop caused by another that left just before: the
 * last to run sees the count both changes left. They must be quick and must not call back into this
 * object.
 *
 * <p>Internal: shared by Baton's stores, not an API (see the package comment).
 *
 * @param <K> what names a row
 */
public final class StatusSubscribers<K> {
  private final Map<K, Row> rows = new ConcurrentHashMap<>();
  private final Runnable onFirstSubscriber;
  private final Runnable onLastUnsubscribed;
  private final AtomicLong nextToken = new AtomicLong();
  // Rows with subscribers, and whether the activity callbacks last said "active".
  private final AtomicInteger subscribedRows = new AtomicInteger();
  private final ReentrantLock activityLock = new ReentrantLock();
  private boolean active; // guarded by activityLock

  /** The subscribers of one row and the last status they were given; guarded by its lock. */
  private static final class Row {
    final ReentrantLock lock = new ReentrantLock();
    final Map<Long, StatusSubscription> subscriptions = new LinkedHashMap<>(2);
    SnapshotStatus lastDelivered;
    // Out of the map for good: its last subscriber left.
    boolean retired;

    Row(SnapshotStatus lastDelivered) {
      this.lastDelivered = lastDelivered;
    }
  }

  /** Subscribers with no activity callbacks. */
  public StatusSubscribers() {
    this(() -> {}, () -> {});
  }

  /**
   * Subscribers that report activity: the callbacks follow whether any row is subscribed, {@code
   * onFirstSubscriber} when some row becomes subscribed while none was, {@code onLastUnsubscribed}
   * when no row is left. A start and a stop that race may cancel out, so neither runs; the last to
   * run always matches the count. If {@code onFirstSubscriber} throws, the subscription that set it
   * off is closed and {@link #subscribe} throws.
   */
  public StatusSubscribers(Runnable onFirstSubscriber, Runnable onLastUnsubscribed) {
    this.onFirstSubscriber = onFirstSubscriber;
    this.onLastUnsubscribed = onLastUnsubscribed;
  }

  /**
   * A new subscription to a row whose status is now {@code current}. The subscription starts with
   * {@code current}; the row's earlier subscribers get it too if it is news to them (a change the
   * caller saw first). Closing the subscription unsubscribes it.
   */
  public StatusSubscription subscribe(K key, SnapshotStatus current) {
    while (true) {
      Row row = rows.computeIfAbsent(key, k -> new Row(current));
      boolean firstRow = false;
      StatusSubscription subscription;
      row.lock.lock();
      try {
        if (row.retired) {
          continue; // its last subscriber left since the lookup: take a fresh row
        }
        deliver(row, current);
        if (row.subscriptions.isEmpty()) {
          // Counted under the row's lock, so the row's uncounting always comes after.
          firstRow = subscribedRows.getAndIncrement() == 0;
        }
        long token = nextToken.getAndIncrement();
        subscription = new StatusSubscription(() -> unsubscribe(key, row, token));
        row.subscriptions.put(token, subscription);
        subscription.offer(current);
      } finally {
        row.lock.unlock();
      }
      if (firstRow) {
        try {
          followActivity();
        } catch (RuntimeException | Error e) {
          subscription.close(); // the caller never gets it, so nobody else would
          throw e;
        }
      }
      return subscription;
    }
  }

  /** Delivers a row's status to its subscribers, unless it is the status they were last given. */
  public void publish(K key, SnapshotStatus status) {
    Row row = rows.get(key);
    if (row == null) {
      return;
    }
    row.lock.lock();
    try {
      if (!row.retired) {
        deliver(row, status);
      }
    } finally {
      row.lock.unlock();
    }
  }

  /** The rows that have subscribers now. */
  public List<K> subscribedRows() {
    return new ArrayList<>(rows.keySet());
  }

  /** Offers {@code status} to the row's subscribers if it is news to them. Under the row's lock. */
  private static void deliver(Row row, SnapshotStatus status) {
    if (row.lastDelivered == status) {
      return;
    }
    row.lastDelivered = status;
    row.subscriptions.values().forEach(subscription -> subscription.offer(status));
  }

  private void unsubscribe(K key, Row row, long token) {
    boolean lastRow = false;
    row.lock.lock();
    try {
      if (row.subscriptions.remove(token) == null) {
        return;
      }
      if (row.subscriptions.isEmpty()) {
        row.retired = true;
        rows.remove(key, row);
        lastRow = subscribedRows.decrementAndGet() == 0;
      }
    } finally {
      row.lock.unlock();
    }
    if (lastRow) {
      followActivity();
    }
  }

  /**
   * Brings the activity callbacks in line with the count of subscribed rows. Called by whoever
   * moved the count to or from zero; run under the lock, it acts on the count as it is then, so of
   * two changes racing, the one whose call runs last leaves the callbacks right.
   */
  private void followActivity() {
    activityLock.lock();
    try {
      boolean now = subscribedRows.get() > 0;
      if (now != active) {
        (now ? onFirstSubscriber : onLastUnsubscribed).run();
        active = now; // only once it ran: a callback that threw is tried again by the next change
      }
    } finally {
      activityLock.unlock();
    }
  }
}
