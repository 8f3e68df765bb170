package dev.baton.store.postgres;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.internal.store.SnapshotRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code saveSnapshot}: one row's read-modify-write, as one transaction.
 *
 * <p>The transaction locks the row ({@code SELECT ... FOR UPDATE}), reads its whole state, applies
 * the update, and writes the row together with the new part of its history in one statement. A
 * concurrent save of the same row waits for the lock and then sees this one's result, so no update
 * is lost. A row that does not exist yet cannot be locked: two saves creating it both run their
 * update, one insert wins, and the other ({@code ON CONFLICT DO NOTHING}) rolls back and runs
 * again, its update now seeing the row. A serialization failure or deadlock also runs the
 * transaction again. So the update may run more than once, as the contract allows. Thread-safe.
 */
final class SnapshotSaver {
  private static final Logger log = LoggerFactory.getLogger(SnapshotSaver.class);
  private static final int MAX_ATTEMPTS = 5;

  private final DataSource dataSource;
  private final SnapshotTable table;
  private final HistoryStore history;
  private final RowReader reader;
  private final @Nullable Retention retention;

  SnapshotSaver(
      DataSource dataSource,
      SnapshotTable table,
      HistoryStore history,
      RowReader reader,
      @Nullable Retention retention) {
    this.dataSource = dataSource;
    this.table = table;
    this.history = history;
    this.reader = reader;
    this.retention = retention;
  }

  /** What one attempt did. */
  private sealed interface Outcome {}

  /** The update returned null: nothing to write. */
  private record Skipped() implements Outcome {}

  /** Another save created the row first: run again. */
  private record Lost() implements Outcome {}

  /** The row was written, and with it the plan of its messages. */
  private record Written(SessionSnapshot row, HistoryPlan plan, boolean lineageChanged)
      implements Outcome {}

  /**
   * Saves the row {@code snapshotId} of {@code tenant}; see {@link
   * dev.baton.agent.SnapshotWriter#saveSnapshot}.
   */
  @Nullable SessionSnapshot save(
      String tenant, String snapshotId, UnaryOperator<@Nullable SessionSnapshot> update) {
    return ConnectionWork.run(
        dataSource, "save snapshot", connection -> save(connection, tenant, snapshotId, update));
  }

  private @Nullable SessionSnapshot save(
      Connection connection,
      String tenant,
      String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update)
      throws SQLException {
    for (int attempt = 1; ; attempt++) {
      boolean lastAttempt = attempt == MAX_ATTEMPTS;
      Outcome outcome;
      try {
        outcome = inTransaction(connection, tenant, snapshotId, update);
      } catch (SQLException e) {
        if (!SqlErrors.isRetryable(e) || lastAttempt) {
          throw e;
        }
        continue;
      }
      switch (outcome) {
        case Skipped skipped -> {
          return null;
        }
        case Lost lost when !lastAttempt -> {}
        case Lost lost -> throw SqlErrors.conflict("save snapshot", null);
        case Written written -> {
          afterCommit(connection, tenant, written);
          return written.row();
        }
      }
    }
  }

  private Outcome inTransaction(
      Connection connection,
      String tenant,
      String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update)
      throws SQLException {
    return Transactions.run(
        connection,
        c -> {
          Outcome outcome = readModifyWrite(c, tenant, snapshotId, update);
          if (outcome instanceof Written) {
            c.commit();
          } else {
            c.rollback();
          }
          return outcome;
        });
  }

  private Outcome readModifyWrite(
      Connection connection,
      String tenant,
      String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update)
      throws SQLException {
    StoredRow stored = table.lock(connection, tenant, snapshotId);
    SessionSnapshot existing = stored == null ? null : reader.lockedRow(connection, stored);
    SessionSnapshot next = update.apply(existing);
    if (next == null) {
      return new Skipped();
    }
    SessionSnapshot row = SnapshotRules.toPersist(snapshotId, existing, next);
    String sessionId = Objects.requireNonNull(row.sessionId(), "toPersist sets a session ID");
    Ids.requireSessionId(sessionId);
    SnapshotTable.requireStorableTimes(row);

    SessionState state = row.state();
    List<Message> messages = state == null ? List.of() : state.messages();
    HistoryPlan plan =
        HistoryPlan.decide(
            messages,
            base(connection, tenant, sessionId, row, stored, existing, messages),
            UUID::randomUUID);
    Sql write =
        withHistory(
            history.writes(tenant, sessionId, plan, messages),
            stored == null
                ? table.insert(tenant, row, plan.branchId(), messages.size())
                : table.update(tenant, row, plan.branchId(), messages.size()));
    if (write.update(connection) == 0) {
      return new Lost();
    }
    boolean lineageChanged =
        existing == null || !Objects.equals(existing.parentId(), row.parentId());
    return new Written(row, plan, lineageChanged);
  }

  /**
   * The stored history the new messages most likely continue: the row's own, when it is rewritten
   * and had messages, otherwise its parent's, when the parent belongs to the same session. Its
   * branch is locked for the rest of the transaction.
   */
  private HistoryPlan.@Nullable Base base(
      Connection connection,
      String tenant,
      String sessionId,
      SessionSnapshot row,
      @Nullable StoredRow stored,
      @Nullable SessionSnapshot existing,
      List<Message> messages)
      throws SQLException {
    if (messages.isEmpty()) {
      return null;
    }
    if (stored != null && stored.hasMessages() && existing != null) {
      UUID branchId = Objects.requireNonNull(stored.branchId());
      int tip = history.lock(connection, branchId);
      SessionState state = Objects.requireNonNull(existing.state());
      return tip < 0 ? null : new HistoryPlan.Base(branchId, state.messages(), tip);
    }
    String parentId = row.parentId();
    return parentId == null || parentId.isEmpty()
        ? null
        : history.parentBase(connection, tenant, parentId, sessionId);
  }

  /** {@code write} with the history's statements before it, as data-modifying CTEs. */
  private static Sql withHistory(List<Sql> historyWrites, Sql write) {
    if (historyWrites.isEmpty()) {
      return write;
    }
    Sql statement = Sql.of("WITH ");
    for (int i = 0; i < historyWrites.size(); i++) {
      statement.append(i == 0 ? "" : ", ").append("h" + i + " AS (").append(historyWrites.get(i));
      statement.append(")");
    }
    return statement.append(" ").append(write);
  }

  /**
   * Caches the saved messages, and prunes the lineage when it changed: a new row, or a rewrite that
   * moved the row to another parent.
   */
  private void afterCommit(Connection connection, String tenant, Written written) {
    SessionState state = written.row().state();
    history.remember(written.plan(), state == null ? List.of() : state.messages());
    if (retention != null && written.lineageChanged()) {
      String id = written.row().snapshotId();
      try {
        retention.prune(connection, tenant, id);
      } catch (SQLException | RuntimeException e) {
        // A foreign key violation is the race Retention documents: a concurrent save still needed
        // a branch this one was about to delete. A later save prunes the rest.
        if (e instanceof SQLException sql && "23503".equals(sql.getSQLState())) {
          log.debug("retention after saving snapshot {} deferred to a later save", id, e);
        } else {
          log.warn("retention after saving snapshot {} failed; the rows stay for now", id, e);
        }
      }
    }
  }
}
