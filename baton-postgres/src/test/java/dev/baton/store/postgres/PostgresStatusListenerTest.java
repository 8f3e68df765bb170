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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
  void aSubscriptionThatReadItsStatusBeforeTheListenerListenedGetsTheChangeMadeMeanwhile()
      throws Exception {
    GatedDataSource listening = new GatedDataSource(pool);
    listening.shut();
    HeldQueries reads = new HeldQueries(pool);
    PostgresSessionStore watcher =
        schema.open(
            reads.dataSource(),
            options -> options.listenDataSource(listening).recheckInterval(Duration.ofHours(1)));
    save(row("s1", "sess-1", at(1), PENDING));
    assertThat(watcher.getSnapshot(context, "s1")).isNotNull(); // the watcher has found the tables

    reads.holdNextQuery();
    CompletableFuture<StatusSubscription> subscribing =
        CompletableFuture.supplyAsync(() -> watcher.onSnapshotStatusChange(context, "s1"));
    // The subscription has read PENDING but is not registered yet, and nobody listens: this change
    // is notified to no one.
    reads.awaitHeld();
    save(row("s1", "sess-1", at(1), COMPLETED));
    // The listener listens now, and its first re-read waits for the subscription to register.
    listening.open();
    await().atMost(TIMEOUT).until(() -> watcher.listenerPid() != null && watcher.deliveryWaiting());
    reads.release();

    try (StatusSubscription subscription = subscribing.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      // Long before the hourly recheck: the re-read after LISTEN included this subscription.
      awaitStatus(subscription, COMPLETED);
    }
  }

  @Test
  void aSubscriptionWaitingForAConnectionDoesNotHoldUpDeliveriesToOthers() throws Exception {
    GatedDataSource connections = new GatedDataSource(pool);
    PostgresSessionStore watcher =
        schema.open(connections, options -> options.listenDataSource(pool));
    save(row("s1", "sess-1", at(1), PENDING));
    save(row("s2", "sess-1", at(2), PENDING));

    try (StatusSubscription first = watcher.onSnapshotStatusChange(context, "s1")) {
      awaitStatus(first, PENDING);
      await().atMost(TIMEOUT).until(watcher::listenerPid, Objects::nonNull);
      connections.shut();
      CompletableFuture<StatusSubscription> second =
          CompletableFuture.supplyAsync(() -> watcher.onSnapshotStatusChange(context, "s2"));
      await().atMost(TIMEOUT).until(() -> connections.waiting() == 1);

      assertThat(SnapshotFixtures.abort(context, writer, "s1", at(3))).isEqualTo(ABORTED);
      awaitStatus(first, ABORTED);

      connections.open();
      try (StatusSubscription later = second.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        awaitStatus(later, PENDING);
      }
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
