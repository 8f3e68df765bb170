package dev.baton.store.postgres;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The PostgreSQL server the tests use, and a schema of their own for each test. The server is the
 * one {@code .ci/run} starts: {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}, unless
 * {@code BATON_POSTGRES_URL} (environment) or {@code baton.postgres.url} (system property) names
 * another. Other work may share the server, so tests never use a fixed schema and never drop
 * anything but the schemas they made.
 */
final class TestDatabase {
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  private static HikariDataSource shared;

  private TestDatabase() {}

  /**
   * The pool the tests of this JVM share, made on first use and left open until the JVM exits (its
   * threads are daemons).
   */
  static synchronized HikariDataSource shared() {
    if (shared == null) {
      shared = pool(12);
    }
    return shared;
  }

  /** The JDBC URL of the server. */
  static String url() {
    String fromEnvironment = System.getenv("BATON_POSTGRES_URL");
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return fromEnvironment;
    }
    return System.getProperty("baton.postgres.url", DEFAULT_URL);
  }

  /** A pool of at most {@code size} connections to the server. */
  static HikariDataSource pool(int size) {
    return pool(size, "baton-test");
  }

  /**
   * A pool of at most {@code size} connections whose server processes carry {@code
   * applicationName}, so that a test can find them in {@code pg_stat_activity} (and end them)
   * without touching anyone else's.
   */
  static HikariDataSource pool(int size, String applicationName) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setPoolName(applicationName);
    config.addDataSourceProperty("ApplicationName", applicationName);
    return new HikariDataSource(config);
  }

  /**
   * Ends the server processes of {@code applicationName}, as an administrator's {@code
   * pg_terminate_backend} or a crash of the process would; they go away soon after, not at once.
   * Only those: other work shares the server, and PostgreSQL may evaluate the conditions of a
   * {@code WHERE} clause in any order, so the IDs are read first and each is ended on its own.
   *
   * @return their process IDs
   */
  static List<Integer> terminateBackends(DataSource admin, String applicationName)
      throws SQLException {
    List<Integer> pids = new ArrayList<>();
    try (Connection connection = admin.getConnection()) {
      try (PreparedStatement find =
          connection.prepareStatement(
              "SELECT pid FROM pg_stat_activity WHERE application_name = ?"
                  + " AND pid <> pg_backend_pid()")) {
        find.setString(1, applicationName);
        try (ResultSet found = find.executeQuery()) {
          while (found.next()) {
            pids.add(found.getInt(1));
          }
        }
      }
      // CASE, unlike AND, evaluates its condition first: a reused process ID is left alone.
      try (PreparedStatement end =
          connection.prepareStatement(
              "SELECT CASE WHEN application_name = ? THEN pg_terminate_backend(pid) END"
                  + " FROM pg_stat_activity WHERE pid = ?")) {
        end.setString(1, applicationName);
        for (int pid : pids) {
          end.setInt(2, pid);
          end.execute();
        }
      }
    }
    return pids;
  }

  /** Waits until the server processes {@code pids} have gone. */
  static void awaitGone(DataSource admin, List<Integer> pids) {
    if (pids.isEmpty()) {
      return;
    }
    String list = pids.stream().map(String::valueOf).collect(Collectors.joining(","));
    String query = "SELECT count(*) FROM pg_stat_activity WHERE pid IN (" + list + ")";
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> count(admin, query) == 0);
  }

  /** A fresh schema name, {@code baton_test_<random>}; the store creates the schema. */
  static String newSchemaName() {
    return "baton_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** Drops a schema a test made, with everything in it. */
  static void dropSchema(DataSource dataSource, String schema) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS " + Ids.schema(schema) + " CASCADE");
    }
  }

  /** The single number a query returns. */
  static long count(DataSource dataSource, String query) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(query);
        ResultSet result = statement.executeQuery()) {
      result.next();
      return result.getLong(1);
    }
  }

  /** Runs SQL that returns nothing, its {@code ?} placeholders bound to {@code values}. */
  static void execute(DataSource dataSource, String sql, Object... values) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setObject(i + 1, values[i]);
      }
      statement.execute();
    }
  }
}
