package dev.baton.internal.store;

import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A store's status subscriptions, grouped by the row they watch ({@code K} names a row: a snapshot
 * ID, or a file). For each row it keeps the last status delivered to the row's subscribers, and
 * delivers a status only when it differs from that one. This is the dedup gate: when two paths
 * observe the same change (the file store's own write and its poller re-reading the file), the
 * subscribers get it once, and the poller never redelivers a status nobody changed.
 *
 * <p>Thread-safe. Values are offered under this object's lock, so two publishers cannot deliver one
 * row's changes out of the order they published them in. The activity callbacks also run under the
 * lock, so a start caused by one subscriber cannot overtake the stop caused by another that left
 * just before; they must be quick and must not call back into this object.
 *
 * <p>Internal: shared by Baton's stores, not an API (see the package comment).
 *
 * @param <K> what names a row
 */
public final class StatusSubscribers<K> {
  private final ReentrantLock lock = new ReentrantLock();
  private final Map<K, Row> rows = new HashMap<>(); // guarded by lock
  private final Runnable onFirstSubscriber;
  private final Runnable onLastUnsubscribed;
  private long nextToken; // guarded by lock

  /** The subscribers of one row and the last status they were given. */
  private static final class Row {
    final Map<Long, StatusSubscription> subscriptions = new LinkedHashMap<>();
    SnapshotStatus lastDelivered;

    Row(SnapshotStatus lastDelivered) {
      this.lastDelivered = lastDelivered;
    }
  }

  /** Subscribers with no activity callbacks. */
  public StatusSubscribers() {
    this(() -> {}, () -> {});
  }

  /**
   * Subscribers that report activity: {@code onFirstSubscriber} runs when a subscription arrives
   * while there was none, {@code onLastUnsubscribed} when the last one is closed.
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
  public StatusSubscription subscribe(K row, SnapshotStatus current) {
    lock.lock();
    try {
      if (rows.isEmpty()) {
        onFirstSubscriber.run();
      }
      publish(row, current);
      long token = nextToken++;
      StatusSubscription subscription = new StatusSubscription(() -> unsubscribe(row, token));
      rows.computeIfAbsent(row, r -> new Row(current)).subscriptions.put(token, subscription);
      subscription.offer(current);
      return subscription;
    } finally {
      lock.unlock();
    }
  }

  /** Delivers a row's status to its subscribers, unless it is the status they were last given. */
  public void publish(K row, SnapshotStatus status) {
    lock.lock();
    try {
      Row subscribed = rows.get(row);
      if (subscribed == null || subscribed.lastDelivered == status) {
        return;
      }
      subscribed.lastDelivered = status;
      subscribed.subscriptions.values().forEach(subscription -> subscription.offer(status));
    } finally {
      lock.unlock();
    }
  }

  /** The rows that have subscribers now. */
  public List<K> subscribedRows() {
    lock.lock();
    try {
      return new ArrayList<>(rows.keySet());
    } finally {
      lock.unlock();
    }
  }

  private void unsubscribe(K row, long token) {
    lock.lock();
    try {
      Row subscribed = rows.get(row);
      if (subscribed == null || subscribed.subscriptions.remove(token) == null) {
        return;
      }
      if (subscribed.subscriptions.isEmpty()) {
        rows.remove(row);
        if (rows.isEmpty()) {
          onLastUnsubscribed.run();
        }
      }
    } finally {
      lock.unlock();
    }
  }
}
