package dev.baton.store.postgres;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a failed database call means for the caller, as a {@link BatonException} with a Genkit
 * status. Public messages say what happened in general terms; the SQL, the server's message and
 * anything from the connection string stay in the non-public cause.
 */
final class SqlErrors {
  /** Server states that mean the database is down, restarting or out of connections. */
  private static final Set<String> UNAVAILABLE_STATES =
      Set.of("57P01", "57P02", "57P03", "53300", "53400");

  private SqlErrors() {}

  /**
   * Whether a transaction that failed this way may simply be run again: a serialization failure or
   * a deadlock, which PostgreSQL resolves by aborting one of the transactions.
   */
  static boolean isRetryable(SQLException e) {
    String state = e.getSQLState();
    return "40001".equals(state) || "40P01".equals(state);
  }

  /**
   * The error to throw for {@code e}, which happened while the store was doing {@code what} (for
   * example "save snapshot").
   */
  static BatonException translate(String what, SQLException e) {
    return translate(what, e, false);
  }

  /**
   * The error to throw for {@code e}, which happened while the store was doing {@code what} on
   * {@code connection}. A connection that has closed under the work means the database is
   * unavailable whatever {@code e} says: a pool that closes a broken connection answers every later
   * call with its own "connection is closed", which carries no SQL state.
   */
  static BatonException translate(String what, SQLException e, Connection connection) {
    return translate(what, e, isClosed(connection));
  }

  private static BatonException translate(String what, SQLException e, boolean connectionLost) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (Thread.currentThread().isInterrupted()) {
      return new BatonException(
          Status.CANCELLED, "PostgreSQL session store: " + what + " was interrupted", e);
    }
    if (connectionLost
        || e instanceof SQLTransientConnectionException
        || e instanceof SQLNonTransientConnectionException
        || state.startsWith("08")
        || UNAVAILABLE_STATES.contains(state)) {
      return new BatonException(
          Status.UNAVAILABLE,
          "PostgreSQL session store: " + what + ": the database is unavailable",
          e);
    }
    if (isRetryable(e)) {
      return conflict(what, e);
    }
    if (state.equals("57014")) {
      return new BatonException(
          Status.DEADLINE_EXCEEDED,
          "PostgreSQL session store: " + what + " was cancelled by the database",
          e);
    }
    if (state.equals("42P01") || state.equals("3F000") || state.equals("42703")) {
      return hidden(
          Status.FAILED_PRECONDITION,
          what
              + ": the store's tables are missing or out of date; run schema.sql or let the store"
              + " create them (SQLSTATE "
              + state
              + ")",
          e);
    }
    if (state.startsWith("22")) {
      return new BatonException(
          Status.INVALID_ARGUMENT,
          "PostgreSQL session store: " + what + ": the snapshot holds a value the database refused",
          e);
    }
    return hidden(Status.INTERNAL, what + " failed (SQLSTATE " + state + ")", e);
  }

  private static boolean isClosed(Connection connection) {
    try {
      return connection.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  /** The error for work that kept conflicting with other writers after every retry. */
  static BatonException conflict(String what, @Nullable Throwable cause) {
    return new BatonException(
        Status.ABORTED,
        "PostgreSQL session store: " + what + " kept conflicting with other writers; try again",
        cause);
  }

  /** A non-public error: its message is for logs. */
  static BatonException hidden(Status status, String message, @Nullable Throwable cause) {
    return new BatonException(status, "PostgreSQL session store: " + message, null, false, cause);
  }
}
