package dev.baton.store.postgres;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * Reads snapshot rows and puts their states back together: the row's columns, then its messages
 * from its history branch. Thread-safe.
 *
 * <p>A read outside a transaction takes two statements, so a row can be rewritten, and the branch
 * it named deleted by retention, between them; the messages then come back short. A read that sees
 * that reads the row again, a few times at most.
 */
final class RowReader {
  private static final int MAX_ATTEMPTS = 3;

  private final SnapshotTable table;
  private final HistoryStore history;

  RowReader(SnapshotTable table, HistoryStore history) {
    this.table = table;
    this.history = history;
  }

  /** The snapshot with this key, with its whole state, or null. */
  @Nullable SessionSnapshot byId(Connection connection, String tenant, String snapshotId)
      throws SQLException {
    for (int attempt = 1; ; attempt++) {
      StoredRow row = table.read(connection, tenant, snapshotId);
      if (row == null) {
        return null;
      }
      SessionSnapshot snapshot = assemble(connection, row);
      if (snapshot != null) {
        return snapshot;
      }
      if (attempt == MAX_ATTEMPTS) {
        throw missingMessages(snapshotId);
      }
    }
  }

  /** The session's latest snapshot, with its whole state, or null. */
  @Nullable SessionSnapshot latest(Connection connection, String tenant, String sessionId)
      throws SQLException {
    for (int attempt = 1; ; attempt++) {
      StoredRow row = table.latest(connection, tenant, sessionId);
      if (row == null) {
        return null;
      }
      SessionSnapshot snapshot = assemble(connection, row);
      if (snapshot != null) {
        return snapshot;
      }
      if (attempt == MAX_ATTEMPTS) {
        throw missingMessages(row.snapshot().snapshotId());
      }
    }
  }

  /**
   * The snapshot of a row the transaction has locked, with its whole state. Under the lock the
   * row's branch cannot go away.
   *
   * @throws BatonException {@code DATA_LOSS} when its messages are missing all the same
   */
  SessionSnapshot lockedRow(Connection connection, StoredRow row) throws SQLException {
    SessionSnapshot snapshot = assemble(connection, row);
    if (snapshot == null) {
      throw missingMessages(row.snapshot().snapshotId());
    }
    return snapshot;
  }

  /** The row's snapshot with its messages, or null when fewer messages are stored than it names. */
  private @Nullable SessionSnapshot assemble(Connection connection, StoredRow row)
      throws SQLException {
    SessionSnapshot snapshot = row.snapshot();
    if (!row.hasMessages()) {
      return snapshot;
    }
    SessionState state = Objects.requireNonNull(snapshot.state());
    UUID branchId = Objects.requireNonNull(row.branchId());
    List<Message> messages =
        history.read(connection, branchId, row.historyLength(), snapshot.snapshotId());
    return messages == null ? null : snapshot.withState(state.withMessages(messages));
  }

  private static BatonException missingMessages(String snapshotId) {
    return SqlErrors.hidden(
        Status.DATA_LOSS, "the messages of snapshot " + snapshotId + " are missing", null);
  }
}
