package dev.baton.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/**
 * Runs work as one transaction on a connection: auto-commit off, the work (which commits or rolls
 * back itself), and auto-commit back as it was.
 *
 * <p>What failed the work is what the caller sees. When the connection broke (its server process
 * was ended, the network dropped it), rolling back and restoring auto-commit fail too, often with
 * the pool's "connection is closed", which says nothing about the cause; those failures are added
 * to the work's as suppressed, never put in its place.
 */
final class Transactions {
  private Transactions() {}

  static <T extends @Nullable Object> T run(Connection connection, ConnectionWork<T> work)
      throws SQLException {
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    T result;
    try {
      result = work.apply(connection);
    } catch (SQLException | RuntimeException e) {
      // Auto-commit goes back on only after the rollback: on a connection still inside the
      // transaction, turning it on would commit the failed work.
      try {
        connection.rollback();
        connection.setAutoCommit(autoCommit);
      } catch (SQLException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    connection.setAutoCommit(autoCommit);
    return result;
  }
}
