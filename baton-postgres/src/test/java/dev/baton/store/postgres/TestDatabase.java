package dev.baton.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
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
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url());
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(0);
    config.setPoolName("baton-test");
    return new HikariDataSource(config);
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
