package dev.baton.store.postgres;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of {@code baton_snapshots}: reading rows, writing them, and reading statuses in bulk.
 *
 * <p>An instant is kept in two columns: a {@code timestamptz} truncated to the microsecond, which
 * is what people query, and the nanoseconds beyond it, so timestamps are stored exactly as given.
 * Instants must lie in years 1 to 9999, the range of RFC 3339. Stateless apart from the table
 * names; thread-safe.
 */
final class SnapshotTable {
  private static final String COLUMNS =
      "snapshot_id, session_id, parent_id, created_at, created_at_ns, updated_at, updated_at_ns,"
          + " heartbeat_at, heartbeat_at_ns, status, finish_reason, error, state, branch_id,"
          + " history_length";
  private static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999999Z");

  private final String table;
  private final String selectById;
  private final String selectForUpdate;
  private final String selectLatest;
  private final String selectStatus;
  private final String selectStatuses;

  SnapshotTable(Schema schema) {
    this.table = schema.snapshots;
    this.selectById =
        "SELECT " + COLUMNS + " FROM " + table + " WHERE tenant = ? AND snapshot_id = ?";
    this.selectForUpdate = selectById + " FOR UPDATE";
    this.selectLatest =
        "SELECT "
            + COLUMNS
            + " FROM "
            + table
            + " WHERE tenant = ? AND session_id = ?"
            + " ORDER BY created_at DESC, created_at_ns DESC, snapshot_id DESC LIMIT 1";
    this.selectStatus = "SELECT status FROM " + table + " WHERE tenant = ? AND snapshot_id = ?";
    this.selectStatuses =
        "SELECT s.tenant, s.snapshot_id, s.status FROM "
            + table
            + " s JOIN unnest(?::text[], ?::text[]) AS k(tenant, snapshot_id)"
            + " ON s.tenant = k.tenant COLLATE \"C\" AND s.snapshot_id = k.snapshot_id COLLATE \"C\"";
  }

  /** The row with this key, or null. */
  @Nullable StoredRow read(Connection connection, String tenant, String snapshotId)
      throws SQLException {
    return one(connection, selectById, tenant, snapshotId);
  }

  /** The row with this key, locked until the transaction ends, or null (and nothing locked). */
  @Nullable StoredRow lock(Connection connection, String tenant, String snapshotId)
      throws SQLException {
    return one(connection, selectForUpdate, tenant, snapshotId);
  }

  /** The session's latest row: greatest {@code createdAt}, then greatest ID; or null. */
  @Nullable StoredRow latest(Connection connection, String tenant, String sessionId)
      throws SQLException {
    return one(connection, selectLatest, tenant, sessionId);
  }

  /** The stored status of a row, or null when there is no such row. */
  @Nullable SnapshotStatus status(Connection connection, String tenant, String snapshotId)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(selectStatus)) {
      statement.setString(1, tenant);
      statement.setString(2, snapshotId);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() ? status(result.getString(1), snapshotId) : null;
      }
    }
  }

  /** The stored statuses of the rows that exist among {@code keys}, in one query. */
  Map<RowKey, SnapshotStatus> statuses(Connection connection, Collection<RowKey> keys)
      throws SQLException {
    Map<RowKey, SnapshotStatus> statuses = new HashMap<>();
    if (keys.isEmpty()) {
      return statuses;
    }
    try (PreparedStatement statement = connection.prepareStatement(selectStatuses)) {
      statement.setArray(
          1, connection.createArrayOf("text", keys.stream().map(RowKey::tenant).toArray()));
      statement.setArray(
          2, connection.createArrayOf("text", keys.stream().map(RowKey::snapshotId).toArray()));
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          String snapshotId = result.getString(2);
          statuses.put(
              new RowKey(result.getString(1), snapshotId), status(result.getString(3), snapshotId));
        }
      }
    }
    return statuses;
  }

  /**
   * The statement that inserts a row, unless one with its key exists (then it changes nothing and
   * reports no row).
   */
  Sql insert(String tenant, SessionSnapshot row, @Nullable UUID branchId, int historyLength) {
    return Sql.of(
        "INSERT INTO "
            + table
            + " (tenant, "
            + COLUMNS
            + ") VALUES (?, ?, ?, ?, ?::timestamptz, ?::smallint, ?::timestamptz, ?::smallint,"
            + " ?::timestamptz, ?::smallint, ?, ?, ?::json, ?::json, ?::uuid, ?::int)"
            + " ON CONFLICT (tenant, snapshot_id) DO NOTHING",
        values(tenant, row, branchId, historyLength));
  }

  /** The statement that rewrites every column of an existing row. */
  Sql update(String tenant, SessionSnapshot row, @Nullable UUID branchId, int historyLength) {
    @Nullable Object[] all = values(tenant, row, branchId, historyLength);
    // The columns after the key (tenant, snapshot ID) go into SET, the key into WHERE.
    @Nullable Object[] values = Arrays.copyOfRange(all, 2, all.length + 2);
    values[all.length - 2] = row.snapshotId();
    values[all.length - 1] = tenant;
    return Sql.of(
        "UPDATE "
            + table
            + " SET session_id = ?, parent_id = ?, created_at = ?::timestamptz,"
            + " created_at_ns = ?::smallint, updated_at = ?::timestamptz,"
            + " updated_at_ns = ?::smallint, heartbeat_at = ?::timestamptz,"
            + " heartbeat_at_ns = ?::smallint, status = ?, finish_reason = ?, error = ?::json,"
            + " state = ?::json, branch_id = ?::uuid, history_length = ?::int"
            + " WHERE snapshot_id = ? AND tenant = ?",
        values);
  }

  /**
   * Checks that the row's instants can be stored.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for an instant outside years 1 to 9999
   */
  static void requireStorableTimes(SessionSnapshot row) {
    requireStorable("createdAt", row.createdAt());
    requireStorable("updatedAt", row.updatedAt());
    requireStorable("heartbeatAt", row.heartbeatAt());
  }

  private static void requireStorable(String field, @Nullable Instant instant) {
    if (instant != null && (instant.isBefore(FIRST) || instant.isAfter(LAST))) {
      throw BatonException.invalidArgument(
          "%s %s is outside the years 1 to 9999 that the PostgreSQL session store keeps",
          field, instant);
    }
  }

  /** The values of {@code tenant} and of {@link #COLUMNS}, in order. */
  private static @Nullable Object[] values(
      String tenant, SessionSnapshot row, @Nullable UUID branchId, int historyLength) {
    SessionState state = row.state();
    return new @Nullable Object[] {
      tenant,
      row.snapshotId(),
      row.sessionId(),
      row.parentId(),
      micros(row.createdAt()),
      nanos(row.createdAt()),
      micros(row.updatedAt()),
      nanos(row.updatedAt()),
      micros(row.heartbeatAt()),
      nanos(row.heartbeatAt()),
      row.statusOrCompleted().wireName(),
      row.finishReason() == null ? null : row.finishReason().wireName(),
      row.error() == null ? null : Sql.json(row.error()),
      // The messages live in their branch; the column keeps the rest of the state.
      state == null ? null : Sql.json(state.withMessages(List.of())),
      branchId,
      historyLength
    };
  }

  private @Nullable StoredRow one(Connection connection, String query, String tenant, String key)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(query)) {
      statement.setString(1, tenant);
      statement.setString(2, key);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() ? toRow(result) : null;
      }
    }
  }

  private static StoredRow toRow(ResultSet result) throws SQLException {
    String snapshotId = result.getString("snapshot_id");
    String error = result.getString("error");
    String state = result.getString("state");
    SessionSnapshot snapshot =
        SessionSnapshot.builder(
                snapshotId, requireNonNullInstant(instant(result, "created_at"), snapshotId))
            .sessionId(result.getString("session_id"))
            .parentId(result.getString("parent_id"))
            .updatedAt(instant(result, "updated_at"))
            .heartbeatAt(instant(result, "heartbeat_at"))
            .status(status(result.getString("status"), snapshotId))
            .finishReason(finishReason(result.getString("finish_reason")))
            .error(error == null ? null : decode(error, ErrorInfo.class, snapshotId))
            .state(state == null ? null : decode(state, SessionState.class, snapshotId))
            .build();
    UUID branchId = result.getObject("branch_id", UUID.class);
    int historyLength = result.getInt("history_length");
    // What the store writes: a branch exactly when the state has messages, and their count. Any
    // other reference would read back as a state with fewer messages than were saved.
    if (historyLength < 0
        || (historyLength > 0) != (branchId != null)
        || (historyLength > 0 && state == null)) {
      throw corrupt(snapshotId, "has an impossible reference to its messages", null);
    }
    return new StoredRow(snapshot, branchId, historyLength);
  }

  static @Nullable OffsetDateTime micros(@Nullable Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC);
  }

  // The nanoseconds below the microsecond, which the timestamp column does not keep.
  @SuppressWarnings("JavaInstantGetSecondsGetNano")
  static short nanos(@Nullable Instant instant) {
    return instant == null ? 0 : (short) (instant.getNano() % 1000);
  }

  static @Nullable Instant instant(ResultSet result, String column) throws SQLException {
    OffsetDateTime micros = result.getObject(column, OffsetDateTime.class);
    return micros == null ? null : micros.toInstant().plusNanos(result.getShort(column + "_ns"));
  }

  private static Instant requireNonNullInstant(@Nullable Instant instant, String snapshotId) {
    if (instant == null) {
      throw corrupt(snapshotId, "has no createdAt", null);
    }
    return instant;
  }

  static SnapshotStatus status(String wireName, String snapshotId) {
    try {
      return SnapshotStatus.fromWireName(wireName);
    } catch (IllegalArgumentException e) {
      throw corrupt(snapshotId, "has an unknown status", e);
    }
  }

  /** A finish reason by its wire name; one Baton does not know reads as {@code unknown}. */
  static @Nullable AgentFinishReason finishReason(@Nullable String wireName) {
    if (wireName == null) {
      return null;
    }
    for (AgentFinishReason reason : AgentFinishReason.values()) {
      if (reason.wireName().equals(wireName)) {
        return reason;
      }
    }
    return AgentFinishReason.UNKNOWN;
  }

  /**
   * Decodes a JSON column; a value that does not decode is {@code DATA_LOSS}, and so is JSON {@code
   * null}, which the store never writes (an absent value is SQL {@code NULL}).
   */
  static <T> T decode(String json, Class<T> type, String snapshotId) {
    T value;
    try {
      value = Json.read(json, type);
    } catch (BatonException e) {
      throw corrupt(snapshotId, "holds JSON that is not a valid " + type.getSimpleName(), e);
    }
    if (value == null) {
      throw corrupt(
          snapshotId, "holds JSON null where a " + type.getSimpleName() + " belongs", null);
    }
    return value;
  }

  private static BatonException corrupt(
      String snapshotId, String problem, @Nullable Throwable cause) {
    return SqlErrors.hidden(Status.DATA_LOSS, "snapshot " + snapshotId + " " + problem, cause);
  }
}
