package dev.baton.store.postgres;

import dev.baton.core.BatonException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The store's tables in one schema: their qualified names, the notification channel, and their
 * creation from {@value PostgresSessionStore#SCHEMA_SCRIPT}, the published script, which is the
 * only place the DDL lives.
 *
 * <p>Creation runs at most once per instance that succeeds, on first use. It first looks for the
 * current version in the table the script writes last, so a store starting against a complete
 * schema takes no lock and changes nothing; a schema of an earlier version is upgraded by the same
 * script, which is idempotent. Otherwise it runs the script in one transaction, holding a
 * transaction-level advisory lock named after the schema, so JVMs starting together create the
 * tables once and none sees them half made. Thread-safe.
 */
final class Schema {
  /** The version the script brings a schema to, the last it writes to the version table. */
  static final int VERSION = 2;

  final String name;
  final String snapshots;
  final String branches;
  final String messages;
  final String sessions;

  /** The channel status changes are notified on: one per schema, so schemas never cross-talk. */
  final String channel;

  private final String versionTable;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile boolean ready;

  /**
   * @param name a valid schema name (see {@link Ids#schema})
   * @param create whether to create missing tables; false trusts that they exist
   */
  Schema(String name, boolean create) {
    this.name = Ids.schema(name);
    this.snapshots = name + ".baton_snapshots";
    this.branches = name + ".baton_branches";
    this.messages = name + ".baton_messages";
    this.versionTable = name + ".baton_schema_version";
    this.sessions = name + ".baton_sessions";
    this.channel = "baton_status_" + name;
    this.ready = !create;
  }

  /** The DDL, as published in the jar. */
  static String script() {
    String path = PostgresSessionStore.SCHEMA_SCRIPT;
    try (InputStream in = Schema.class.getResourceAsStream("/" + path)) {
      if (in == null) {
        throw new IllegalStateException("the resource " + path + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Makes sure the tables exist, creating them if this instance may.
   *
   * @throws BatonException {@code UNAVAILABLE} when the database cannot be reached; {@code
   *     INTERNAL} (not public) when the script fails, for lack of privileges say
   */
  void ensureCreated(DataSource dataSource) {
    if (ready) {
      return;
    }
    lock.lock();
    try {
      if (ready) {
        return;
      }
      ConnectionWork.<@Nullable Void>run(
          dataSource,
          "create its tables",
          connection -> {
            if (!isComplete(connection)) {
              createTables(connection);
            }
            return null;
          });
      ready = true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the script ran to the end, in its current version (an older one is upgraded). */
  private boolean isComplete(Connection connection) throws SQLException {
    if (!exists(connection, "SELECT to_regclass(?) IS NOT NULL", versionTable)) {
      return false;
    }
    try (Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT EXISTS (SELECT 1 FROM "
                    + versionTable
                    + " WHERE version = "
                    + VERSION
                    + ")")) {
      return result.next() && result.getBoolean(1);
    }
  }

  private static boolean exists(Connection connection, String query, String name)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, name);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() && result.getBoolean(1);
      }
    }
  }

  private void createTables(Connection connection) throws SQLException {
    Transactions.<@Nullable Void>run(
        connection,
        c -> {
          lockAndCreate(c);
          return null;
        });
  }

  /** Creates the tables unless another JVM did, under a lock that ends with the transaction. */
  private void lockAndCreate(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      try (PreparedStatement advisory =
          connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))")) {
        advisory.setString(1, "baton-postgres schema " + name);
        advisory.execute();
      }
      // Another JVM may have finished while this one waited for the lock.
      if (!isComplete(connection)) {
        // Only when missing: CREATE SCHEMA needs a privilege on the database that a role using an
        // existing schema may lack, even with IF NOT EXISTS.
        if (!exists(connection, "SELECT to_regnamespace(?) IS NOT NULL", name)) {
          statement.execute("CREATE SCHEMA IF NOT EXISTS " + name);
        }
        statement.execute("SET LOCAL search_path TO " + name);
        statement.execute(script());
      }
      connection.commit();
    }
  }
}
