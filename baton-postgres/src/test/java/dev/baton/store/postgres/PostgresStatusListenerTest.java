package dev.baton.store.postgres;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.FAILED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.testing.SnapshotFixtures;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The listening connection: it survives being dropped, catches up on what changed while it was
 * down, re-reads rows whose change was never notified, and goes away with its store.
 */
class PostgresStatusListenerTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final ActionContext context = Baton.builder().build().context();
  private final HikariDataSource pool = TestDatabase.shared();
  private final TestSchema schema = new TestSchema(pool);
  private final PostgresSessionStore writer = schema.open();

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  private void save(SessionSnapshot row) {
    writer.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  /** Takes values until {@code expected} arrives; fails when the stream ends or time runs out. */
  private static void awaitStatus(StatusSubscription subscription, SnapshotStatus expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    List<SnapshotStatus> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      SnapshotStatus status = subscription.poll(Duration.ofNanos(deadline - System.nanoTime()));
      if (status == expected) {
        return;
      }
      assertThat(subscription.isEnded()).as("ended before %s; saw %s", expected, seen).isFalse();
      if (status != null) {
        seen.add(status);
      }
    }
    throw new AssertionError("no " + expected + " within " + TIMEOUT + "; saw " + seen);
  }

  private static void terminateBackend(int pid) throws SQLException {
    assertThat(
            TestDatabase.count(
                TestDatabase.shared(), "SELECT count(*) FROM pg_terminate_backend(" + pid + ")"))
        .isOne();
  }

  /** Borrows every connection the pool may hold at once and uses each: none may be broken. */
  private void everyPooledConnectionWorks() throws SQLException {
    List<Connection> borrowed = new ArrayList<>();
    try {
      for (int i = 0; i < pool.getMaximumPoolSize(); i++) {
        Connection connection = pool.getConnection();
        borrowed.add(connection);
        try (Statement statement = connection.createStatement()) {
          statement.execute("SELECT 1");
        }
      }
    } finally {
      for (Connection connection : borrowed) {
        connection.close();
      }
    }
  }

  @Test
  void aDroppedListenerReconnectsAndDeliversTheChangeMadeWhileItWasDown() throws Exception {
    GatedDataSource gate = new GatedDataSource(pool);
    PostgresSessionStore watcher =
        schema.open(
            options ->
                options
                    .listenDataSource(gate)
                    .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50)));
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = watcher.onSnapshotStatusChange(context, "s1")) {
      awaitStatus(subscription, PENDING);
      int firstPid = await().atMost(TIMEOUT).until(watcher::listenerPid, Objects::nonNull);

      gate.shut();
      terminateBackend(firstPid);
      // The listener noticed, and its reconnect now waits at the gate: nobody listens.
      await().atMost(TIMEOUT).until(() -> gate.waiting() == 1);
      assertThat(watcher.listenerPid()).isNull();

      assertThat(SnapshotFixtures.abort(context, writer, "s1", at(2))).isEqualTo(ABORTED);
      assertThat(subscription.poll(Duration.ZERO)).isNull();

      gate.open();
      awaitStatus(subscription, ABORTED);
      Integer secondPid =
          await()
              .atMost(TIMEOUT)
              .until(watcher::listenerPid, pid -> pid != null && pid != firstPid);
      assertThat(secondPid).isNotEqualTo(firstPid);

      // Changes made after the reconnect arrive through the new connection.
      save(row("s1", "sess-1", at(1), COMPLETED));
      awaitStatus(subscription, COMPLETED);
    }
    // The broken connection did not go back into the pool for someone else to get.
    watcher.close();
    everyPooledConnectionWorks();
  }

  @Test
  void aListenerThatCannotConnectYetCatchesUpOnceItDoes() throws Exception {
    GatedDataSource gate = new GatedDataSource(pool);
    gate.shut();
    PostgresSessionStore watcher =
        schema.open(
            options ->
                options
                    .listenDataSource(gate)
                    .reconnectBackoff(Duration.ofMillis(10), Duration.ofMillis(50)));
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = watcher.onSnapshotStatusChange(context, "s1")) {
      awaitStatus(subscription, PENDING);
      await().atMost(TIMEOUT).until(() -> gate.waiting() == 1);
      save(row("s1", "sess-1", at(1), FAILED));

      gate.open();
      awaitStatus(subscription, FAILED);
    }
  }

  @Test
  void theRecheckDeliversAChangeThatWasNeverNotified() throws Exception {
    PostgresSessionStore watcher =
        schema.open(options -> options.recheckInterval(Duration.ofMillis(100)));
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = watcher.onSnapshotStatusChange(context, "s1")) {
      awaitStatus(subscription, PENDING);
      schema.execute("ALTER TABLE {s}.baton_snapshots DISABLE TRIGGER baton_snapshots_status");
      save(row("s1", "sess-1", at(1), ABORTED));

      awaitStatus(subscription, ABORTED);
    }
  }

  @Test
  void closingTheStoreGivesTheListeningConnectionBack() throws Exception {
    PostgresSessionStore watcher = schema.open();
    save(row("s1", "sess-1", at(1), PENDING));
    StatusSubscription subscription = watcher.onSnapshotStatusChange(context, "s1");
    await().atMost(TIMEOUT).until(watcher::listenerPid, Objects::nonNull);
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isOne();

    watcher.close();

    assertThat(watcher.listenerPid()).isNull();
    assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    subscription.close();
  }
}
