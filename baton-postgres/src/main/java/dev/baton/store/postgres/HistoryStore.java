package dev.baton.store.postgres;

import dev.baton.ai.Message;
import dev.baton.internal.core.SharedList;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The messages of session histories, in {@code baton_branches} and {@code baton_messages}: reading
 * a snapshot's messages back, finding the branch a save continues, and the statements that store a
 * {@link HistoryPlan}.
 *
 * <p>A branch's messages at positions below its {@code base_length} are its parent branch's; its
 * own rows hold the rest, up to its {@code length}. Message rows are never changed once written,
 * only appended, which is what lets {@link HistoryCache} trust what it holds. Thread-safe.
 */
final class HistoryStore {
  private final HistoryCache cache;
  private final String readMessages;
  private final String lockBranch;
  private final String lockParentBranch;
  private final String insertBranch;
  private final String growBranch;
  private final String insertMessages;

  HistoryStore(Schema schema, HistoryCache cache) {
    this.cache = cache;
    // Walks from the branch up to its root; each branch contributes its own positions below where
    // the branch under it (or the requested length) starts.
    this.readMessages =
        "WITH RECURSIVE chain(branch_id, parent_branch_id, lo, hi) AS ("
            + " SELECT branch_id, parent_branch_id, base_length, ?::int FROM "
            + schema.branches
            + " WHERE branch_id = ?::uuid"
            + " UNION ALL"
            + " SELECT b.branch_id, b.parent_branch_id, b.base_length, LEAST(c.lo, c.hi)"
            + " FROM chain c JOIN "
            + schema.branches
            + " b ON b.branch_id = c.parent_branch_id)"
            + " SELECT m.message FROM chain c JOIN "
            + schema.messages
            + " m ON m.branch_id = c.branch_id AND m.seq >= c.lo AND m.seq < c.hi"
            + " ORDER BY m.seq";
    this.lockBranch = "SELECT length FROM " + schema.branches + " WHERE branch_id = ? FOR UPDATE";
    this.lockParentBranch =
        "SELECT p.branch_id, p.history_length, b.length FROM "
            + schema.snapshots
            + " p JOIN "
            + schema.branches
            + " b ON b.branch_id = p.branch_id"
            + " WHERE p.tenant = ? AND p.snapshot_id = ? AND p.session_id = ?"
            + " AND p.state IS NOT NULL AND p.history_length > 0"
            + " FOR UPDATE OF b";
    this.insertBranch =
        "INSERT INTO "
            + schema.branches
            + " (branch_id, tenant, session_id, parent_branch_id, base_length, length)"
            + " VALUES (?::uuid, ?, ?, ?::uuid, ?::int, ?::int)";
    this.growBranch =
        "UPDATE " + schema.branches + " SET length = ?::int WHERE branch_id = ?::uuid";
    this.insertMessages =
        "INSERT INTO "
            + schema.messages
            + " (branch_id, seq, message)"
            + " SELECT ?::uuid, (?::int + t.ord - 1)::int, t.message"
            + " FROM json_array_elements(?::json) WITH ORDINALITY AS t(message, ord)";
  }

  /**
   * The first {@code length} messages of a branch, from the cache or else the database; null when
   * the database holds fewer, which happens only when the branch was deleted after the row that
   * named it was read.
   *
   * @param snapshotId the row being read, named by errors about corrupt messages
   */
  @Nullable List<Message> read(Connection connection, UUID branchId, int length, String snapshotId)
      throws SQLException {
    List<Message> cached = cache.get(branchId, length);
    if (cached != null) {
      return cached;
    }
    List<Message> messages = new ArrayList<>(length);
    try (PreparedStatement statement = connection.prepareStatement(readMessages)) {
      statement.setInt(1, length);
      statement.setObject(2, branchId);
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          messages.add(SnapshotTable.decode(result.getString(1), Message.class, snapshotId));
        }
      }
    }
    if (messages.size() != length) {
      return null;
    }
    List<Message> read = SharedList.copyOf(messages);
    cache.remember(branchId, read);
    return read;
  }

  /**
   * Locks a branch until the transaction ends, so no other save appends to it meanwhile, and
   * returns how many messages it holds; -1 when it does not exist.
   */
  int lock(Connection connection, UUID branchId) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(lockBranch)) {
      statement.setObject(1, branchId);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() ? result.getInt(1) : -1;
      }
    }
  }

  /**
   * The branch of a parent row of the same session, locked as by {@link #lock}, with the parent's
   * messages: the base a new row's history most likely continues. Null when the parent does not
   * exist, belongs to another session or has no messages.
   */
  HistoryPlan.@Nullable Base parentBase(
      Connection connection, String tenant, String parentId, String sessionId) throws SQLException {
    UUID branchId;
    int length;
    int tip;
    try (PreparedStatement statement = connection.prepareStatement(lockParentBranch)) {
      statement.setString(1, tenant);
      statement.setString(2, parentId);
      statement.setString(3, sessionId);
      try (ResultSet result = statement.executeQuery()) {
        if (!result.next()) {
          return null;
        }
        branchId = result.getObject(1, UUID.class);
        length = result.getInt(2);
        tip = result.getInt(3);
      }
    }
    List<Message> stored = read(connection, branchId, length, parentId);
    return stored == null ? null : new HistoryPlan.Base(branchId, stored, tip);
  }

  /**
   * The statements that store {@code plan}, to run in the save's transaction as parts of the
   * statement that writes the row (so one round trip writes everything).
   */
  List<Sql> writes(String tenant, String sessionId, HistoryPlan plan, List<Message> messages) {
    List<Sql> writes = new ArrayList<>();
    switch (plan) {
      case HistoryPlan.None none -> {}
      case HistoryPlan.Reuse reuse -> {}
      case HistoryPlan.Append append -> {
        writes.add(Sql.of(growBranch, append.length(), append.branchId()));
        writes.add(messages(append.branchId(), append.from(), messages));
      }
      case HistoryPlan.Fork fork -> {
        writes.add(
            Sql.of(
                insertBranch,
                fork.branchId(),
                tenant,
                sessionId,
                fork.parentBranchId(),
                fork.base(),
                fork.length()));
        writes.add(messages(fork.branchId(), fork.base(), messages));
      }
    }
    return writes;
  }

  /** Records, once the save has committed, that the branch it references holds its messages. */
  void remember(HistoryPlan plan, List<Message> messages) {
    UUID branchId = plan.branchId();
    if (branchId != null) {
      cache.remember(branchId, messages);
    }
  }

  private Sql messages(UUID branchId, int from, List<Message> messages) {
    return Sql.of(
        insertMessages, branchId, from, Sql.json(messages.subList(from, messages.size())));
  }
}
