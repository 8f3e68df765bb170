package dev.baton.store.postgres;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.internal.store.SessionListing;
import dev.baton.internal.store.SnapshotRules;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A session store in PostgreSQL, for agents that run on several JVMs (behind a load balancer, say)
 * and share one database. Any JVM can resume any session, read or wait for any snapshot, and abort
 * a detached run that another JVM is executing.
 *
 * <pre>{@code
 * HikariDataSource pool = new HikariDataSource();
 * pool.setJdbcUrl("jdbc:postgresql://db:5432/app?user=baton");
 * PostgresSessionStore store = PostgresSessionStore.builder(pool).build();
 * Agent agent = baton.defineAgent("chat", prompt, AgentOptions.builder().sessionStore(store).build());
 * }</pre>
 *
 * <p>The application supplies the {@link DataSource}, pooled (HikariCP is what Baton's tests and
 * samples use), and with it the PostgreSQL JDBC driver, {@code org.postgresql:postgresql} 42.x: the
 * store reads notifications through the driver's {@code PGConnection}, so it works with that driver
 * only. The pool needs one connection beyond the application's other work, which the status
 * listener holds once anything subscribes (a pool's leak detection will report that connection;
 * {@link Builder#listenDataSource} can give the listener a data source of its own).
 *
 * <p><b>Tables.</b> In the configured schema ({@code public} by default): {@code baton_snapshots},
 * one row per snapshot, with a column for each field of the snapshot (its IDs, parent, timestamps,
 * heartbeat, status, finish reason, error as JSON, and the tenant) plus the session state without
 * its messages, as JSON; {@code baton_messages}, each message once; {@code baton_branches}, the
 * histories the messages belong to; {@code baton_sessions}, one row per session (its snapshot
 * count, first creation and last update), which triggers on {@code baton_snapshots} keep for {@link
 * #listSessions}; and {@code baton_schema_version}. An index on {@code (tenant, session_id,
 * created_at DESC, ..., snapshot_id DESC)} serves {@link #getLatestSnapshot}, and one on {@code
 * (tenant, updated_at, ..., session_id)} the pages of {@link #listSessions}. The store creates the
 * schema and the tables on first use, once, safely when several JVMs start together, and upgrades a
 * schema an earlier version created (adding {@code baton_sessions}, filled from the existing rows
 * while writes wait); teams that manage migrations run the published script {@code
 * dev/baton/store/postgres/schema.sql} (in this jar) themselves, again after each upgrade of the
 * library, and build the store with {@link Builder#createSchema createSchema(false)}. Timestamps
 * are stored exactly, to the nanosecond, and must lie in years 1 to 9999.
 *
 * <p><b>Messages are stored once.</b> A snapshot row does not hold its messages: it names a history
 * branch and how many of the branch's messages are its own, and a read puts the whole state back
 * together. A turn's commit compares the new history with the one its parent snapshot (or, for a
 * rewrite, the row itself) references, and writes only what differs, so its cost follows the new
 * messages, not the length of the conversation:
 *
 * <ul>
 *   <li>A history that continues the stored one where it ends appends its new messages to the
 *       branch.
 *   <li>A history that is a prefix of the stored one (trimmed at its end) writes no message.
 *   <li>A history that diverges (edited or trimmed at its end and then continued, or a second
 *       continuation of one parent, as when two branches grow from one snapshot) starts a new
 *       branch at the first message that differs; the messages before it stay in the branch it
 *       forks from. One trimmed at its start (a sliding window, a compaction) shares nothing and
 *       starts a new branch with all its messages.
 * </ul>
 *
 * <p>Stored messages are never changed, so every snapshot reads back exactly the messages it was
 * saved with. The comparison uses the message instances sessions share from turn to turn; a small
 * cache of recent histories (see {@link Builder#historyCacheSize}) supplies them without reading
 * the history back from the database.
 *
 * <p><b>Writes.</b> {@code saveSnapshot} follows the {@link SessionStore} contract. It locks the
 * row ({@code SELECT ... FOR UPDATE}), applies the update and writes the row and its new messages
 * in one transaction, so concurrent read-modify-writes of a row lose nothing, across JVMs too. Two
 * saves that create the same new row both run their update and one of them runs it again once the
 * other's row exists; a deadlock or serialization failure runs the transaction again too: the
 * update may run more than once, as the contract allows, and must be pure.
 *
 * <p><b>Latest snapshot.</b> The session's row with the greatest {@code createdAt}, ties going to
 * the greater snapshot ID in code-point order, whatever its status.
 *
 * <p><b>Tenants.</b> Every row belongs to a tenant, which {@link Builder#tenant} derives from each
 * call's context (from its auth, typically), as the file store's path prefix does: one tenant sees
 * none of another's rows, by ID or by session, and the same IDs can exist in two tenants.
 *
 * <p><b>Retention.</b> With {@link Builder#maxPersistedChainLength}, each save that adds a row to a
 * lineage follows {@code parentId} links back from it and deletes the rows more than {@code n - 1}
 * links behind, then deletes the history branches, with their messages, that no remaining row of
 * the session needs. Best effort, after the save has committed. Unlimited by default.
 *
 * <p><b>Status changes across JVMs.</b> A trigger on {@code baton_snapshots} notifies the channel
 * {@code baton_status_<schema>} in the transaction that changes a row's status, whoever makes the
 * change. Each store instance holds one connection that {@code LISTEN}s on it, from its first
 * subscription until {@link #close}, re-reads the status of the rows a notification names and
 * delivers the changes to its subscriptions ({@link #onSnapshotStatusChange}). That is how an abort
 * issued in one JVM stops the run another JVM is executing, and how {@code waitForSnapshot} wakes
 * across JVMs. When the listening connection drops, the store reconnects with an exponential
 * backoff ({@link Builder#reconnectBackoff}) and then re-reads every subscribed row, so the latest
 * status is never missed, only delivered late; it also re-reads them every {@link
 * Builder#recheckInterval} as a safety net. Heartbeats, expiry and fencing are ordinary saves, so
 * they work across JVMs as they do in one.
 *
 * <p><b>Errors.</b> IDs must be non-empty, well-formed UTF-16 (no lone surrogate), at most 256
 * bytes in UTF-8 and free of control characters, and tenants likewise; others are {@code
 * INVALID_ARGUMENT}. A database that cannot be reached, or a connection lost during a call, is
 * {@code UNAVAILABLE}; a row or message that does not decode, or a row whose reference to its
 * messages is impossible (a negative length, say), is {@code DATA_LOSS}, whether read, resumed or
 * rewritten; other database failures are {@code INTERNAL}. Messages that reach clients never carry
 * SQL or connection details; those stay in the (non-public) causes. Calls check their context's
 * cancellation before they start.
 *
 * <p>Thread-safe. Instances over the same database and schema, in one JVM or many, share their rows
 * and see each other's status changes. {@link #close} stops the listener; it does not close the
 * data source.
 */
public final class PostgresSessionStore implements SessionStore, SnapshotSubscriber, AutoCloseable {
  /** The tenant when none is configured. */
  public static final String DEFAULT_TENANT = "global";

  /** The schema when none is configured. */
  public static final String DEFAULT_SCHEMA = "public";

  /** The path, in this jar, of the script that creates the tables. */
  public static final String SCHEMA_SCRIPT = "dev/baton/store/postgres/schema.sql";

  /** How often the listener re-reads every subscribed row when no interval is configured. */
  public static final Duration DEFAULT_RECHECK_INTERVAL = Duration.ofSeconds(30);

  /** How many messages the history cache refers to when no size is configured. */
  public static final int DEFAULT_HISTORY_CACHE_SIZE = 10_000;

  private static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofMillis(100);
  private static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(10);

  private final DataSource dataSource;
  private final Function<ActionContext, String> tenant;
  private final Schema schema;
  private final RowReader reader;
  private final SessionTable sessions;
  private final SnapshotSaver saver;
  private final StatusFeed feed;

  private PostgresSessionStore(Builder builder) {
    this.dataSource = builder.dataSource;
    this.tenant = builder.tenant != null ? builder.tenant : context -> DEFAULT_TENANT;
    this.schema =
        new Schema(
            builder.schema != null ? builder.schema : DEFAULT_SCHEMA,
            builder.createSchema == null || builder.createSchema);
    SnapshotTable table = new SnapshotTable(schema);
    HistoryStore history =
        new HistoryStore(
            schema,
            new HistoryCache(
                builder.historyCacheSize != null
                    ? builder.historyCacheSize
                    : DEFAULT_HISTORY_CACHE_SIZE));
    this.reader = new RowReader(table, history);
    this.sessions = new SessionTable(schema);
    this.saver =
        new SnapshotSaver(
            dataSource,
            table,
            history,
            reader,
            builder.maxPersistedChainLength == null
                ? null
                : new Retention(schema, builder.maxPersistedChainLength));
    this.feed =
        new StatusFeed(
            dataSource,
            builder.listenDataSource != null ? builder.listenDataSource : dataSource,
            schema,
            table,
            builder.recheckInterval != null ? builder.recheckInterval : DEFAULT_RECHECK_INTERVAL,
            builder.initialBackoff != null ? builder.initialBackoff : DEFAULT_INITIAL_BACKOFF,
            builder.maxBackoff != null ? builder.maxBackoff : DEFAULT_MAX_BACKOFF);
  }

  /** A builder for a store over {@code dataSource}, which the application owns and closes. */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an invalid ID or tenant;
   *     {@code UNAVAILABLE} when the database cannot be reached; {@code DATA_LOSS} when the row
   *     does not decode
   */
  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    Ids.requireSnapshotId(snapshotId);
    String rowTenant = tenantOf(context);
    return withConnection(
        "read snapshot", context, connection -> reader.byId(connection, rowTenant, snapshotId));
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an empty or invalid session
   *     ID or tenant; {@code UNAVAILABLE} when the database cannot be reached
   */
  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    Ids.requireSessionId(sessionId);
    String rowTenant = tenantOf(context);
    return withConnection(
        "read the latest snapshot",
        context,
        connection -> reader.latest(connection, rowTenant, sessionId));
  }

  /**
   * {@inheritDoc}
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an invalid ID, session ID or
   *     tenant, a row without a session ID, or a timestamp outside years 1 to 9999; {@code
   *     UNAVAILABLE} when the database cannot be reached; {@code ABORTED} when the save kept
   *     conflicting with other writers
   */
  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    String id = SnapshotRules.idOrMinted(snapshotId);
    Ids.requireSnapshotId(id);
    String rowTenant = tenantOf(context);
    context.cancellation().throwIfCancelled();
    schema.ensureCreated(dataSource);
    return saver.save(rowTenant, id, update);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Reads {@code baton_sessions}, which triggers on {@code baton_snapshots} keep in the
   * transaction of every write, in index order from the token's position, joined with each
   * session's latest row: a page costs its own sessions, however many come before it.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an invalid tenant or a
   *     malformed page token; {@code UNAVAILABLE} when the database cannot be reached
   */
  @Override
  public SessionPage listSessions(ActionContext context, SessionQuery query) {
    String rowTenant = tenantOf(context);
    SessionListing.after(query); // a malformed token fails before a connection is taken
    return withConnection(
        "list sessions", context, connection -> sessions.page(connection, rowTenant, query));
  }

  /**
   * {@inheritDoc}
   *
   * <p>One query by the index that finds a session's latest row; the conversations, kept apart from
   * the rows, are not read.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an empty or invalid session
   *     ID or tenant; {@code UNAVAILABLE} when the database cannot be reached
   */
  @Override
  public List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    Ids.requireSessionId(sessionId);
    String rowTenant = tenantOf(context);
    return withConnection(
        "list a session's snapshots",
        context,
        connection -> sessions.rows(connection, rowTenant, sessionId));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The first value is read from the table; later ones arrive through the status listener, which
   * this call starts if it is not running yet. Subscriptions stop receiving changes when the store
   * is closed.
   *
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for an invalid ID or tenant;
   *     {@code UNAVAILABLE} when the database cannot be reached
   */
  @Override
  public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
    Ids.requireSnapshotId(snapshotId);
    String rowTenant = tenantOf(context);
    context.cancellation().throwIfCancelled();
    schema.ensureCreated(dataSource);
    return feed.subscribe(rowTenant, snapshotId);
  }

  /**
   * Stops the status listener and returns its connection to the pool. Idempotent. The store's other
   * calls keep working, but subscriptions no longer receive changes, and new ones only their first
   * value. The data source stays open.
   */
  @Override
  public void close() {
    feed.close();
  }

  /** The listening connection's server process ID while it listens; for tests. */
  @Nullable Integer listenerPid() {
    return feed.listenerPid();
  }

  /** Whether a thread waits to read and deliver statuses; for tests. */
  boolean deliveryWaiting() {
    return feed.deliveryWaiting();
  }

  private String tenantOf(ActionContext context) {
    return Ids.tenant(tenant.apply(context));
  }

  /** Runs a read with a connection of the pool. */
  private <T extends @Nullable Object> T withConnection(
      String what, ActionContext context, ConnectionWork<T> read) {
    context.cancellation().throwIfCancelled();
    schema.ensureCreated(dataSource);
    return ConnectionWork.run(dataSource, what, read);
  }

  /**
   * Options of a {@link PostgresSessionStore}. Each may be set at most once; a second call throws
   * {@link IllegalStateException}. Not thread-safe.
   */
  public static final class Builder {
    private final DataSource dataSource;
    private @Nullable Function<ActionContext, String> tenant;
    private @Nullable String schema;
    private @Nullable Integer maxPersistedChainLength;
    private @Nullable Boolean createSchema;
    private @Nullable DataSource listenDataSource;
    private @Nullable Duration recheckInterval;
    private @Nullable Duration initialBackoff;
    private @Nullable Duration maxBackoff;
    private @Nullable Integer historyCacheSize;

    private Builder(DataSource dataSource) {
      this.dataSource = dataSource;
    }

    /**
     * Derives the tenant of each call from its context (a tenant or organisation from its auth
     * context, say), so tenants cannot see each other's snapshots, by ID or by session. It runs on
     * every call. Its result is read as the file store reads a path prefix: split at {@code /} with
     * empty segments dropped, so {@code org-42/user-7} and {@code /org-42//user-7/} are one tenant;
     * a result with no segment (empty, {@code /}) or that is not a valid ID fails the call with
     * {@code INVALID_ARGUMENT}. Leave the option out to put every row in {@value
     * PostgresSessionStore#DEFAULT_TENANT}.
     */
    public Builder tenant(Function<ActionContext, String> tenant) {
      checkUnset(this.tenant, "tenant");
      this.tenant = tenant;
      return this;
    }

    /**
     * The schema that holds the tables; {@value PostgresSessionStore#DEFAULT_SCHEMA} by default.
     *
     * @throws IllegalArgumentException unless it is a lower-case SQL identifier ({@code
     *     [a-z_][a-z0-9_]*}) of at most 50 characters
     */
    public Builder schema(String schema) {
      checkUnset(this.schema, "schema");
      this.schema = Ids.schema(schema);
      return this;
    }

    /**
     * Keeps at most {@code n} rows of each lineage: after a save that adds a row, the rows more
     * than {@code n - 1} {@code parentId} links behind it are deleted, and so are the messages no
     * remaining row needs. Unlimited by default.
     *
     * @throws IllegalArgumentException when {@code n} is less than 1
     */
    public Builder maxPersistedChainLength(int n) {
      checkUnset(maxPersistedChainLength, "maxPersistedChainLength");
      if (n < 1) {
        throw new IllegalArgumentException("maxPersistedChainLength must be at least 1, got " + n);
      }
      this.maxPersistedChainLength = n;
      return this;
    }

    /**
     * Whether the store creates its schema and tables on first use (true, the default) or trusts
     * that they exist, created by running {@value PostgresSessionStore#SCHEMA_SCRIPT} in the schema
     * (false). With false and no tables, calls fail with {@code FAILED_PRECONDITION}.
     */
    public Builder createSchema(boolean create) {
      checkUnset(createSchema, "createSchema");
      this.createSchema = create;
      return this;
    }

    /**
     * Where the listening connection comes from; the store's data source by default. Give a direct
     * one when the store's goes through a proxy that pools connections per transaction (PgBouncer
     * in transaction mode, say), where {@code LISTEN} does not work.
     */
    public Builder listenDataSource(DataSource dataSource) {
      checkUnset(listenDataSource, "listenDataSource");
      this.listenDataSource = dataSource;
      return this;
    }

    /**
     * How often the listener re-reads every subscribed row even without notifications, which also
     * detects a connection that died silently; {@link
     * PostgresSessionStore#DEFAULT_RECHECK_INTERVAL} (30 s) by default.
     *
     * @throws IllegalArgumentException unless it is positive
     */
    public Builder recheckInterval(Duration interval) {
      checkUnset(recheckInterval, "recheckInterval");
      requirePositive(interval, "recheckInterval");
      this.recheckInterval = interval;
      return this;
    }

    /**
     * How long the listener waits before reconnecting after its connection failed: {@code initial}
     * at first, doubling at each failure in a row up to {@code max}. 100 ms and 10 s by default.
     *
     * @throws IllegalArgumentException unless both are positive and {@code initial <= max}
     */
    public Builder reconnectBackoff(Duration initial, Duration max) {
      checkUnset(initialBackoff, "reconnectBackoff");
      requirePositive(initial, "the initial reconnect backoff");
      requirePositive(max, "the maximum reconnect backoff");
      if (initial.compareTo(max) > 0) {
        throw new IllegalArgumentException(
            "the initial reconnect backoff " + initial + " exceeds the maximum " + max);
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    /**
     * How many messages, in all, the cache of recent histories may refer to; {@link
     * PostgresSessionStore#DEFAULT_HISTORY_CACHE_SIZE} by default. The cache holds references to
     * the messages sessions hold anyway. With 0, each commit reads its parent's history back to
     * compare, so commits still write only new messages but read the whole history.
     *
     * @throws IllegalArgumentException when {@code messages} is negative
     */
    public Builder historyCacheSize(int messages) {
      checkUnset(historyCacheSize, "historyCacheSize");
      if (messages < 0) {
        throw new IllegalArgumentException(
            "historyCacheSize must not be negative, got " + messages);
      }
      this.historyCacheSize = messages;
      return this;
    }

    /**
     * The store. It does not connect yet: the tables are made on first use.
     *
     * @throws IllegalStateException when the PostgreSQL JDBC driver is not on the class path
     */
    public PostgresSessionStore build() {
      try {
        Class.forName("org.postgresql.PGConnection", false, Builder.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "PostgresSessionStore needs the PostgreSQL JDBC driver (org.postgresql:postgresql)"
                + " on the class path",
            e);
      }
      return new PostgresSessionStore(this);
    }

    private static void requirePositive(Duration duration, String what) {
      if (!duration.isPositive()) {
        throw new IllegalArgumentException(what + " must be positive, got " + duration);
      }
    }

    private static void checkUnset(@Nullable Object current, String option) {
      if (current != null) {
        throw new IllegalStateException("cannot set " + option + " more than once");
      }
    }
  }
}
