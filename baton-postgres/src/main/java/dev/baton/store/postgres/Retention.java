package dev.baton.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Keeps at most {@code maxChainLength} rows of each lineage, as the file store's {@code
 * maxPersistedChainLength} does, and deletes the history branches (with their messages) that no
 * remaining row needs.
 *
 * <p>After a save it follows {@code parent_id} links back from the saved row, within its tenant and
 * stopping at a cycle or a missing parent, and deletes the rows more than {@code maxChainLength -
 * 1} links behind it. Then, in each session that lost rows, it deletes the branches that are
 * neither referenced by a row of the session nor an ancestor of one that is, and their messages
 * with them, in one statement. A branch is deleted whole or not at all, so the messages left are
 * never changed.
 *
 * <p>It runs in a transaction of its own after the save has committed, and is best effort, as in
 * the file store: a branch a concurrent save has locked is skipped, and a failure is logged by the
 * caller and leaves the save in place. Thread-safe.
 */
final class Retention {
  private final int maxChainLength;
  private final String deleteOldRows;
  private final String deleteDeadBranches;

  Retention(Schema schema, int maxChainLength) {
    this.maxChainLength = maxChainLength;
    this.deleteOldRows =
        "WITH RECURSIVE chain(snapshot_id, parent_id, depth, path) AS ("
            + " SELECT snapshot_id, parent_id, 1, ARRAY[snapshot_id] FROM "
            + schema.snapshots
            + " WHERE tenant = ? AND snapshot_id = ?"
            + " UNION ALL"
            + " SELECT p.snapshot_id, p.parent_id, c.depth + 1, c.path || p.snapshot_id"
            + " FROM chain c JOIN "
            + schema.snapshots
            + " p ON p.tenant = ? AND p.snapshot_id = c.parent_id"
            + " WHERE p.snapshot_id <> ALL(c.path))"
            + " DELETE FROM "
            + schema.snapshots
            + " s USING chain c"
            + " WHERE s.tenant = ? AND s.snapshot_id = c.snapshot_id AND c.depth > ?"
            + " RETURNING s.session_id";
    this.deleteDeadBranches =
        "WITH RECURSIVE live(branch_id) AS ("
            + " SELECT branch_id FROM "
            + schema.snapshots
            + " WHERE tenant = ? AND session_id = ? AND branch_id IS NOT NULL"
            + " UNION"
            + " SELECT b.parent_branch_id FROM live l JOIN "
            + schema.branches
            + " b ON b.branch_id = l.branch_id WHERE b.parent_branch_id IS NOT NULL)"
            + ", dead AS (DELETE FROM "
            + schema.branches
            + " WHERE branch_id IN (SELECT branch_id FROM "
            + schema.branches
            + " WHERE tenant = ? AND session_id = ?"
            + " AND branch_id NOT IN (SELECT branch_id FROM live) FOR UPDATE SKIP LOCKED)"
            + " RETURNING branch_id)"
            + " DELETE FROM "
            + schema.messages
            + " WHERE branch_id IN (SELECT branch_id FROM dead)";
  }

  /** Prunes the lineage of the row just saved, in a transaction of its own. */
  void prune(Connection connection, String tenant, String savedId) throws SQLException {
    Transactions.<@Nullable Void>run(
        connection,
        c -> {
          for (String sessionId : deleteOldRows(c, tenant, savedId)) {
            deleteDeadBranches(c, tenant, sessionId);
          }
          c.commit();
          return null;
        });
  }

  /** Deletes the rows of the lineage past the newest {@code maxChainLength}; their sessions. */
  private Set<String> deleteOldRows(Connection connection, String tenant, String savedId)
      throws SQLException {
    Set<String> sessions = new LinkedHashSet<>();
    try (PreparedStatement statement = connection.prepareStatement(deleteOldRows)) {
      statement.setString(1, tenant);
      statement.setString(2, savedId);
      statement.setString(3, tenant);
      statement.setString(4, tenant);
      statement.setInt(5, maxChainLength);
      try (ResultSet deleted = statement.executeQuery()) {
        while (deleted.next()) {
          sessions.add(deleted.getString(1));
        }
      }
    }
    return sessions;
  }

  private void deleteDeadBranches(Connection connection, String tenant, String sessionId)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(deleteDeadBranches)) {
      statement.setString(1, tenant);
      statement.setString(2, sessionId);
      statement.setString(3, tenant);
      statement.setString(4, sessionId);
      statement.executeUpdate();
    }
  }
}
