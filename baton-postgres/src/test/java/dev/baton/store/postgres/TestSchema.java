package dev.baton.store.postgres;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * A schema of one test's own, {@code baton_test_<random>}, and the stores opened over it; {@link
 * #close} closes the stores and drops the schema.
 */
final class TestSchema implements AutoCloseable {
  final String name = TestDatabase.newSchemaName();
  final DataSource dataSource;
  private final List<PostgresSessionStore> stores = new ArrayList<>();

  TestSchema(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** A store over the schema, with the default options. */
  PostgresSessionStore open() {
    return open(options -> options);
  }

  /** A store over the schema, with more options. */
  PostgresSessionStore open(UnaryOperator<PostgresSessionStore.Builder> options) {
    return open(dataSource, options);
  }

  /** A store over the schema that reaches the database through {@code through}. */
  PostgresSessionStore open(
      DataSource through, UnaryOperator<PostgresSessionStore.Builder> options) {
    PostgresSessionStore store =
        options.apply(PostgresSessionStore.builder(through).schema(name)).build();
    synchronized (stores) {
      stores.add(store);
    }
    return store;
  }

  /** A count over the schema's tables; {@code {s}} in the query stands for the schema. */
  long count(String query) throws SQLException {
    return TestDatabase.count(dataSource, query.replace("{s}", name));
  }

  /**
   * Runs SQL in the schema; {@code {s}} stands for the schema, and its {@code ?} placeholders take
   * {@code values}.
   */
  void execute(String sql, Object... values) throws SQLException {
    TestDatabase.execute(dataSource, sql.replace("{s}", name), values);
  }

  @Override
  public void close() throws SQLException {
    synchronized (stores) {
      stores.forEach(PostgresSessionStore::close);
    }
    TestDatabase.dropSchema(dataSource, name);
  }
}
