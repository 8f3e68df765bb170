package dev.baton.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.core.ActionContext;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * What the PostgreSQL benchmarks share: a pool to the server ({@code BATON_POSTGRES_URL}, else the
 * local {@code test} database that CI starts) and a schema of the benchmark's own, dropped at the
 * end, since other work may share the server.
 */
final class PostgresBench implements AutoCloseable {
  static final String DEFAULT_URL = "jdbc:postgresql://127.0.0.1:5432/test?user=postgres";

  final HikariDataSource pool;
  final String schema =
      "baton_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  final ActionContext context = Baton.builder().build().context();

  PostgresBench(int poolSize) {
    String url = System.getenv("BATON_POSTGRES_URL");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url == null || url.isBlank() ? DEFAULT_URL : url);
    config.setMaximumPoolSize(poolSize);
    config.setMinimumIdle(poolSize);
    this.pool = new HikariDataSource(config);
  }

  void execute(String sql) throws SQLException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  long count(String query) throws SQLException {
    try (Connection connection = pool.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(query)) {
      result.next();
      return result.getLong(1);
    }
  }

  @Override
  public void close() throws SQLException {
    execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    pool.close();
  }
}
