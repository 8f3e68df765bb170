package dev.baton.store.postgres;

import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import dev.baton.internal.store.StatusSubscribers;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The status subscriptions of one store instance, fed by one {@link StatusListener}, which it
 * starts with the first subscription and which runs until the store is closed.
 *
 * <p>Every status a subscriber gets was read from the table. Reading and delivering happen under
 * one lock, so a status read earlier never reaches subscribers after one read later; since a
 * statement sees every commit that preceded it, subscribers can only move forward. A subscription
 * reads its first status under that lock too: a change committed after that read is notified and
 * re-read once the subscription is registered, and one committed before it is in the read. If the
 * listener is not connected yet (or reconnecting), its re-read of every subscribed row once it
 * listens covers the gap; it takes the subscribed rows under the lock, so a subscription that read
 * its status before the listener listened, and registers only while the listener waits for the
 * lock, is among them. A subscription gets its connection before it takes the lock, so a pool with
 * no connection to spare delays that subscription only, not the deliveries to the others.
 * Thread-safe.
 */
final class StatusFeed implements StatusListener.Target, AutoCloseable {
  private final DataSource dataSource;
  private final SnapshotTable table;
  private final StatusSubscribers<RowKey> subscribers = new StatusSubscribers<>();
  private final ReentrantLock readAndDeliver = new ReentrantLock();
  private final StatusListener listener;

  StatusFeed(
      DataSource dataSource,
      DataSource listenDataSource,
      Schema schema,
      SnapshotTable table,
      Duration recheckInterval,
      Duration initialBackoff,
      Duration maxBackoff) {
    this.dataSource = dataSource;
    this.table = table;
    this.listener =
        new StatusListener(
            listenDataSource, schema.channel, this, recheckInterval, initialBackoff, maxBackoff);
  }

  /** A subscription to a row's status; ended at once when the row does not exist. */
  StatusSubscription subscribe(String tenant, String snapshotId) {
    listener.start();
    // The connection before the lock: a wait for the pool must not hold up deliveries.
    return ConnectionWork.run(
        dataSource,
        "subscribe to a snapshot's status",
        connection -> {
          readAndDeliver.lock();
          try {
            SnapshotStatus status = table.status(connection, tenant, snapshotId);
            return status == null
                ? StatusSubscription.ended()
                : subscribers.subscribe(new RowKey(tenant, snapshotId), status);
          } finally {
            readAndDeliver.unlock();
          }
        });
  }

  @Override
  public void refresh(Connection connection, Collection<RowKey> rows) throws SQLException {
    readAndDeliver.lock();
    try {
      Set<RowKey> subscribed = new HashSet<>(rows);
      subscribed.retainAll(new HashSet<>(subscribers.subscribedRows()));
      publish(connection, subscribed);
    } finally {
      readAndDeliver.unlock();
    }
  }

  /**
   * Takes the subscribed rows under the lock: a subscription that has read its first status is
   * either among them or registers after this read, so no change committed after its first read
   * goes unread.
   */
  @Override
  public void refreshAll(Connection connection) throws SQLException {
    readAndDeliver.lock();
    try {
      publish(connection, subscribers.subscribedRows());
    } finally {
      readAndDeliver.unlock();
    }
  }

  /** Reads and delivers the statuses of {@code rows}; called under the lock. */
  private void publish(Connection connection, Collection<RowKey> rows) throws SQLException {
    // A subscribed row that no longer exists (deleted by retention) keeps its last status.
    table.statuses(connection, rows).forEach(subscribers::publish);
  }

  /** Whether a thread waits to read and deliver statuses; for tests. */
  boolean deliveryWaiting() {
    return readAndDeliver.hasQueuedThreads();
  }

  /** The listener's server process ID while it listens; for tests. */
  @Nullable Integer listenerPid() {
    return listener.backendPid();
  }

  @Override
  public void close() {
    listener.close();
  }
}
