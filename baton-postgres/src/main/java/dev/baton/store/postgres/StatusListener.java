package dev.baton.store.postgres;

import dev.baton.core.Json;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * One connection that {@code LISTEN}s on the schema's status channel, on a virtual thread of its
 * own, and has the {@link Target} re-read the rows that notifications name.
 *
 * <p>When the connection drops (the server restarts, a network fault, an administrator ends the
 * backend) the thread reconnects, waiting between attempts with an exponential backoff, and once it
 * listens again re-reads every subscribed row, so a change made while it was down is delivered
 * then. Independently of notifications it re-reads every subscribed row each {@code
 * recheckInterval}, which also finds a connection that died silently.
 *
 * <p>The connection is held for as long as the listener runs, so the pool it comes from needs one
 * connection more than the application's other work. It is unwrapped to the driver's {@link
 * PGConnection} to read notifications, and a failure there bypasses the pool's own error checks; so
 * before handing a connection back the listener runs {@code UNLISTEN} through the pool's wrapper,
 * which on a broken connection fails and lets a pool such as HikariCP discard it.
 *
 * <p>Thread-safe. {@link #start} and {@link #close} are idempotent; once closed it stays closed.
 */
final class StatusListener implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StatusListener.class);

  /** How long one wait for notifications lasts, and so how soon a closed listener notices. */
  private static final int WAIT_MILLIS = 200;

  /** What the listener serves: the re-read of the subscribed rows, or of some of them. */
  interface Target {
    /**
     * Re-reads the status of {@code rows} on {@code connection} and delivers what changed. Rows
     * without subscribers are ignored.
     */
    void refresh(Connection connection, Collection<RowKey> rows) throws SQLException;

    /**
     * Re-reads the status of every subscribed row on {@code connection} and delivers what changed,
     * including the rows of subscriptions that are being made while it runs.
     */
    void refreshAll(Connection connection) throws SQLException;
  }

  private final DataSource dataSource;
  private final String channel;
  private final Target target;
  private final long recheckNanos;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final ReentrantLock lock = new ReentrantLock();
  private final CountDownLatch closed = new CountDownLatch(1);
  private @Nullable Thread thread; // guarded by lock
  private volatile @Nullable Integer backendPid;
  private Duration backoff; // used by the listener thread only

  StatusListener(
      DataSource dataSource,
      String channel,
      Target target,
      Duration recheckInterval,
      Duration initialBackoff,
      Duration maxBackoff) {
    this.dataSource = dataSource;
    this.channel = channel;
    this.target = target;
    this.recheckNanos = recheckInterval.toNanos();
    this.initialBackoff = initialBackoff;
    this.maxBackoff = maxBackoff;
    this.backoff = initialBackoff;
  }

  /** Starts listening, unless it already does or was closed. Does not wait for the connection. */
  void start() {
    lock.lock();
    try {
      if (thread == null && closed.getCount() > 0) {
        thread = Thread.ofVirtual().name("baton-postgres-listener-" + channel).start(this::run);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Stops listening and waits (briefly) for the connection to go back to the pool. */
  @Override
  public void close() {
    Thread running;
    lock.lock();
    try {
      closed.countDown();
      running = thread;
    } finally {
      lock.unlock();
    }
    if (running != null) {
      try {
        running.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The server process ID of the listening connection while it listens, else null. For tests. */
  @Nullable Integer backendPid() {
    return backendPid;
  }

  private boolean isClosed() {
    return closed.getCount() == 0;
  }

  private void run() {
    while (!isClosed()) {
      try (Connection connection = dataSource.getConnection()) {
        try {
          listen(connection);
        } finally {
          backendPid = null;
          stopListening(connection);
        }
      } catch (SQLException | RuntimeException e) {
        if (!isClosed()) {
          log.warn(
              "status listener on {} lost its connection; reconnecting in {}", channel, backoff, e);
        }
      }
      if (awaitClose(backoff)) {
        return;
      }
      Duration doubled = backoff.multipliedBy(2);
      backoff = doubled.compareTo(maxBackoff) > 0 ? maxBackoff : doubled;
    }
  }

  /** Listens until closed (then returns) or the connection fails (then throws). */
  private void listen(Connection connection) throws SQLException {
    connection.setAutoCommit(true);
    PGConnection driver = connection.unwrap(PGConnection.class);
    try (Statement statement = connection.createStatement()) {
      statement.execute("LISTEN " + channel);
    }
    backendPid = driver.getBackendPID();
    backoff = initialBackoff;
    // Whatever changed while nobody listened, this read catches.
    target.refreshAll(connection);
    long nextRecheck = System.nanoTime() + recheckNanos;
    while (!isClosed()) {
      Set<RowKey> named = rowsNamedBy(driver.getNotifications(WAIT_MILLIS));
      if (!named.isEmpty()) {
        target.refresh(connection, named);
      }
      if (System.nanoTime() - nextRecheck >= 0) {
        target.refreshAll(connection);
        nextRecheck = System.nanoTime() + recheckNanos;
      }
    }
  }

  /**
   * Ends the listening before the connection goes back to the pool, so the next user of a healthy
   * connection gets no notifications. On a broken connection the statement fails; running it
   * through the pool's wrapper is what tells the pool (HikariCP, say) to discard the connection,
   * since the failure itself happened on the unwrapped driver connection, out of the pool's sight.
   */
  private static void stopListening(Connection connection) {
    try (Statement statement = connection.createStatement()) {
      statement.execute("UNLISTEN *");
    } catch (SQLException | RuntimeException expectedWhenBroken) {
      log.debug("the status listener's connection is broken", expectedWhenBroken);
    }
  }

  private Set<RowKey> rowsNamedBy(PGNotification @Nullable [] notifications) {
    Set<RowKey> rows = new LinkedHashSet<>();
    if (notifications == null) {
      return rows;
    }
    for (PGNotification notification : notifications) {
      try {
        JsonNode payload = Json.parse(notification.getParameter());
        rows.add(
            new RowKey(
                payload.required("tenant").asString(), payload.required("snapshotId").asString()));
      } catch (RuntimeException e) {
        log.debug("ignoring a notification on {} that names no row", channel, e);
      }
    }
    return rows;
  }

  /** Waits for {@code delay}; true when the listener was closed meanwhile. */
  private boolean awaitClose(Duration delay) {
    try {
      return closed.await(delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}
