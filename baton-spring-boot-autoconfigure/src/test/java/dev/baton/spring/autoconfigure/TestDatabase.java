package dev.baton.spring.autoconfigure;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The PostgreSQL server the tests use, as baton-postgres's tests do: {@code
 * jdbc:postgresql://127.0.0.1:5432/test?user=postgres} unless {@code BATON_POSTGRES_URL} names
 * another. Other work shares the server, so each test keeps its rows in a schema of its own and
 * drops only that.
 */
final class TestDatabase {
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  private TestDatabase() {}

  /** The JDBC URL of the server. */
  static String url() {
    String fromEnvironment = System.getenv("BATON_POSTGRES_URL");
    return fromEnvironment != null && !fromEnvironment.isBlank() ? fromEnvironment : DEFAULT_URL;
  }

  /** A fresh schema name, {@code baton_test_<random>}; the store creates the schema. */
  static String newSchemaName() {
    return "baton_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /**
   * The properties of a context whose store is PostgreSQL in {@code schema}, through Spring Boot's
   * own DataSource.
   */
  static String[] postgresProperties(String schema) {
    return new String[] {
      "spring.autoconfigure.exclude=",
      "spring.datasource.url=" + url(),
      "baton.store.postgres.schema=" + schema
    };
  }

  /** Drops a schema a test made, with everything in it. */
  static void dropSchema(String schema) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url());
        Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
    }
  }
}
