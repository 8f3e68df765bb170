package dev.baton.store.postgres;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionSummary;
import dev.baton.ai.GenerationUsage;
import dev.baton.core.ErrorInfo;
import dev.baton.internal.store.SessionListing;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of {@code baton_sessions}, which triggers on {@code baton_snapshots} keep: a page of a
 * tenant's sessions, newest first, each joined with its latest row as {@link SnapshotTable#latest}
 * finds it, by the same index. A page reads its sessions in index order from the token's position
 * on and one latest row for each, so its cost does not grow with the number of sessions before it
 * nor with their histories; the spend is the {@code usage} of the latest row's state column, which
 * holds no messages. Stateless apart from the table names; thread-safe.
 */
final class SessionTable {
  private final String select;
  private final String selectRows;

  SessionTable(Schema schema) {
    this.select =
        "SELECT s.session_id, s.created_at, s.created_at_ns, s.updated_at, s.updated_at_ns,"
            + " s.turns, l.snapshot_id, l.status, l.finish_reason, l.error, l.heartbeat_at,"
            + " l.heartbeat_at_ns, l.state -> 'usage' AS usage FROM "
            + schema.sessions
            + " s CROSS JOIN LATERAL (SELECT snapshot_id, status, finish_reason, error,"
            + " heartbeat_at, heartbeat_at_ns, state FROM "
            + schema.snapshots
            + " r WHERE r.tenant = s.tenant AND r.session_id = s.session_id"
            + " ORDER BY r.created_at DESC, r.created_at_ns DESC, r.snapshot_id DESC LIMIT 1) l"
            + " WHERE s.tenant = ?";
    this.selectRows =
        "SELECT snapshot_id, parent_id, created_at, created_at_ns, updated_at, updated_at_ns,"
            + " heartbeat_at, heartbeat_at_ns, status, finish_reason, error,"
            + " state -> 'usage' AS usage FROM "
            + schema.snapshots
            + " WHERE tenant = ? AND session_id = ?"
            + " ORDER BY created_at, created_at_ns, snapshot_id";
  }

  /**
   * Every row of a tenant's session, oldest first, without its conversation: by the index that
   * finds a session's latest row, reading the {@code usage} of each row's state column only.
   */
  List<SessionSnapshot> rows(Connection connection, String tenant, String sessionId)
      throws SQLException {
    List<SessionSnapshot> rows = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(selectRows)) {
      statement.setString(1, tenant);
      statement.setString(2, sessionId);
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          String snapshotId = result.getString("snapshot_id");
          String error = result.getString("error");
          GenerationUsage usage = usage(result.getString("usage"), snapshotId);
          rows.add(
              SessionSnapshot.builder(
                      snapshotId, required(SnapshotTable.instant(result, "created_at")))
                  .sessionId(sessionId)
                  .parentId(result.getString("parent_id"))
                  .updatedAt(SnapshotTable.instant(result, "updated_at"))
                  .heartbeatAt(SnapshotTable.instant(result, "heartbeat_at"))
                  .status(SnapshotTable.status(result.getString("status"), snapshotId))
                  .finishReason(SnapshotTable.finishReason(result.getString("finish_reason")))
                  .error(
                      error == null
                          ? null
                          : SnapshotTable.decode(error, ErrorInfo.class, snapshotId))
                  .state(usage == null ? null : SessionState.empty().withUsage(usage))
                  .build());
        }
      }
    }
    return rows;
  }

  private static @Nullable GenerationUsage usage(@Nullable String usage, String snapshotId) {
    return usage == null || usage.equals("null")
        ? null
        : SnapshotTable.decode(usage, GenerationUsage.class, snapshotId);
  }

  /** The page {@code query} asks for, of the tenant's sessions. */
  SessionPage page(Connection connection, String tenant, SessionQuery query) throws SQLException {
    SessionListing.Position after = SessionListing.after(query);
    Sql sql = Sql.of(select, tenant);
    if (query.sessionIdPrefix() != null) {
      sql.append(" AND starts_with(s.session_id, ?)", query.sessionIdPrefix());
    }
    if (after != null) {
      // A row comparison that leads with the tenant, so the index bounds the scan.
      sql.append(
          " AND (s.tenant, s.updated_at, s.updated_at_ns, s.session_id)"
              + " < (?, ?::timestamptz, ?::smallint, ?)",
          tenant,
          SnapshotTable.micros(after.updatedAt()),
          SnapshotTable.nanos(after.updatedAt()),
          after.sessionId());
    }
    if (query.status() != null) {
      sql.append(" AND l.status = ?", query.status().wireName());
    }
    sql.append(
        " ORDER BY s.tenant DESC, s.updated_at DESC, s.updated_at_ns DESC, s.session_id DESC"
            + " LIMIT ?",
        query.limit() + 1);
    List<SessionSummary> sessions = new ArrayList<>();
    try (PreparedStatement statement = sql.prepare(connection);
        ResultSet result = statement.executeQuery()) {
      while (result.next()) {
        sessions.add(summary(result));
      }
    }
    return SessionListing.pageOf(sessions, query.limit());
  }

  private static SessionSummary summary(ResultSet result) throws SQLException {
    String snapshotId = result.getString("snapshot_id");
    String error = result.getString("error");
    String usage = result.getString("usage");
    return SessionSummary.builder(
            result.getString("session_id"),
            snapshotId,
            required(SnapshotTable.instant(result, "created_at")))
        .status(SnapshotTable.status(result.getString("status"), snapshotId))
        .finishReason(SnapshotTable.finishReason(result.getString("finish_reason")))
        .error(error == null ? null : SnapshotTable.decode(error, ErrorInfo.class, snapshotId))
        .heartbeatAt(SnapshotTable.instant(result, "heartbeat_at"))
        .turns(result.getInt("turns"))
        .updatedAt(required(SnapshotTable.instant(result, "updated_at")))
        .spend(usage(usage, snapshotId))
        .build();
  }

  // The columns are NOT NULL.
  private static Instant required(@Nullable Instant instant) {
    return Objects.requireNonNull(instant);
  }
}
