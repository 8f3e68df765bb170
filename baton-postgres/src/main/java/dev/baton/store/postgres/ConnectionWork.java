package dev.baton.store.postgres;

import dev.baton.core.BatonException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/** Work that needs a database connection. */
@FunctionalInterface
interface ConnectionWork<T extends @Nullable Object> {
  T apply(Connection connection) throws SQLException;

  /**
   * Runs {@code work} on a connection of {@code dataSource}, which it returns to the pool after.
   * Failures become {@link BatonException}s ({@link SqlErrors#translate}); one on a connection that
   * has closed under the work is {@code UNAVAILABLE}.
   *
   * @param what what the work does, for the error's message ("save snapshot", say)
   */
  static <T extends @Nullable Object> T run(
      DataSource dataSource, String what, ConnectionWork<T> work) {
    try (Connection connection = dataSource.getConnection()) {
      try {
        return work.apply(connection);
      } catch (SQLException e) {
        throw SqlErrors.translate(what, e, connection);
      }
    } catch (SQLException e) {
      throw SqlErrors.translate(what, e);
    }
  }
}
