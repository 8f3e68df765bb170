package dev.baton.store.postgres;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import dev.baton.testing.SessionStoreContract;
import dev.baton.testing.SnapshotFixtures;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The store contract against the real server, each test in a schema of its own, with a second
 * instance over the same schema as another JVM would open it; and what only this store promises:
 * schema creation, options, ID and tenant rules, its errors and its index.
 */
class PostgresSessionStoreTest extends SessionStoreContract {
  private static final Function<ActionContext, String> TENANT =
      context -> String.valueOf(context.auth().get("tenant"));

  private TestSchema schema;

  @Override
  protected SessionStore newStore() {
    schema = new TestSchema(TestDatabase.shared());
    return schema.open();
  }

  @Override
  protected SessionStore openSecondInstance() {
    return schema.open();
  }

  @Override
  protected boolean damage(String snapshotId, RowDamage damage) throws SQLException {
    schema.execute(
        switch (damage) {
          case UNDECODABLE ->
              "UPDATE {s}.baton_snapshots SET state = '[1, 2]' WHERE snapshot_id = ?";
          case NULL_MESSAGE ->
              "UPDATE {s}.baton_messages m SET message = 'null' FROM {s}.baton_snapshots s"
                  + " WHERE s.snapshot_id = ?"
                  + " AND m.branch_id = s.branch_id AND m.seq = s.history_length - 1";
          case NEGATIVE_HISTORY_LENGTH ->
              "UPDATE {s}.baton_snapshots SET history_length = -1 WHERE snapshot_id = ?";
        },
        snapshotId);
    return true;
  }

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  private ActionContext tenant(String name) {
    return context().withAuth(Map.of("tenant", name));
  }

  /** The rows in the schema's snapshot table; 0 when no call has made the table yet. */
  private long snapshotRows() throws SQLException {
    return schema.count("SELECT count(*) FROM pg_tables WHERE schemaname = '{s}'") == 0
        ? 0
        : schema.count("SELECT count(*) FROM {s}.baton_snapshots");
  }

  // ---- schema ----

  @Test
  void instancesStartingTogetherCreateTheTablesOnce() throws Exception {
    TestSchema fresh = new TestSchema(TestDatabase.shared());
    int instances = 6;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<SessionSnapshot>> saves = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < instances; i++) {
        PostgresSessionStore store = fresh.open();
        String id = "s" + i;
        saves.add(
            threads.submit(
                () -> {
                  start.await();
                  return save(store, row(id, "sess-1", at(1)));
                }));
      }
      start.countDown();
      for (Future<SessionSnapshot> save : saves) {
        assertThat(save.get(timeout().toMillis(), TimeUnit.MILLISECONDS)).isNotNull();
      }
      assertThat(fresh.count("SELECT count(*) FROM {s}.baton_snapshots")).isEqualTo(instances);
      assertThat(fresh.count("SELECT count(*) FROM {s}.baton_schema_version")).isOne();
    } finally {
      fresh.close();
    }
  }

  @Test
  void withoutSchemaCreationTheStoreUsesTablesMadeByThePublishedScript() throws Exception {
    TestSchema managed = new TestSchema(TestDatabase.shared());
    try {
      PostgresSessionStore store = managed.open(options -> options.createSchema(false));
      managed.execute("CREATE SCHEMA {s}");
      assertFailsWith(Status.FAILED_PRECONDITION, () -> store.getSnapshot(context(), "s1"));

      // What a team that manages migrations does: the script from the jar, in the schema.
      String script;
      try (InputStream in =
          getClass().getClassLoader().getResourceAsStream(PostgresSessionStore.SCHEMA_SCRIPT)) {
        script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      try (Connection connection = managed.dataSource.getConnection();
          Statement statement = connection.createStatement()) {
        connection.setAutoCommit(false);
        statement.execute("SET LOCAL search_path TO " + managed.name);
        statement.execute(script);
        connection.commit();
        connection.setAutoCommit(true);
      }

      SessionSnapshot saved = save(store, row("s1", "sess-1", at(1)));
      assertThat(store.getSnapshot(context(), "s1")).isEqualTo(saved);
      assertThat(managed.count("SELECT count(*) FROM {s}.baton_schema_version")).isOne();
    } finally {
      managed.close();
    }
  }

  @Test
  void theLatestQueryIsServedByTheSessionIndexWithoutSorting() throws SQLException {
    for (int i = 0; i < 20; i++) {
      save(row("s" + i, "sess-" + (i % 4), at(i)));
    }
    List<String> plan = new ArrayList<>();
    try (Connection connection = schema.dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL enable_seqscan = off");
      try (ResultSet lines =
          statement.executeQuery(
              "EXPLAIN SELECT snapshot_id FROM "
                  + schema.name
                  + ".baton_snapshots WHERE tenant = 'global' AND session_id = 'sess-1'"
                  + " ORDER BY created_at DESC, created_at_ns DESC, snapshot_id DESC LIMIT 1")) {
        while (lines.next()) {
          plan.add(lines.getString(1));
        }
      }
      connection.rollback();
      connection.setAutoCommit(true);
    }
    assertThat(String.join("\n", plan)).contains("baton_snapshots_latest").doesNotContain("Sort");
  }

  // ---- options ----

  @Test
  void optionSetTwiceRejected() {
    PostgresSessionStore.Builder builder =
        PostgresSessionStore.builder(schema.dataSource)
            .schema("a")
            .maxPersistedChainLength(2)
            .tenant(TENANT)
            .historyCacheSize(10);
    assertThatThrownBy(() -> builder.schema("b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set schema more than once");
    assertThatThrownBy(() -> builder.maxPersistedChainLength(3))
        .hasMessage("cannot set maxPersistedChainLength more than once");
    assertThatThrownBy(() -> builder.tenant(TENANT)).hasMessage("cannot set tenant more than once");
    assertThatThrownBy(() -> builder.historyCacheSize(1))
        .hasMessage("cannot set historyCacheSize more than once");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "Upper",
        "1abc",
        "a-b",
        "a;drop",
        "a.b",
        "abcdefghij_abcdefghij_abcdefghij_abcdefghij_abcdefg"
      })
  void invalidSchemaNamesRejected(String name) {
    assertThatThrownBy(() -> PostgresSessionStore.builder(schema.dataSource).schema(name))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void invalidOptionValuesRejected() {
    PostgresSessionStore.Builder builder = PostgresSessionStore.builder(schema.dataSource);
    assertThatThrownBy(() -> builder.maxPersistedChainLength(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.recheckInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.reconnectBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> builder.historyCacheSize(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  // ---- IDs ----

  @ParameterizedTest
  @ValueSource(strings = {"", "nul\u0000", "tab\tid", "newline\n"})
  void invalidSnapshotIdRejectedOnEveryCallBeforeAnythingIsWritten(String id) throws Exception {
    AtomicInteger updates = new AtomicInteger();

    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getSnapshot(context(), id));
    if (!id.isEmpty()) { // an empty ID on save means "mint one"
      assertFailsWith(
          Status.INVALID_ARGUMENT,
          () ->
              store()
                  .saveSnapshot(
                      context(),
                      id,
                      existing -> {
                        updates.incrementAndGet();
                        return row("x", "sess-1", at(1));
                      }));
    }
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> ((PostgresSessionStore) store()).onSnapshotStatusChange(context(), id));

    assertThat(updates).hasValue(0);
  }

  @Test
  void idsLongerThan256BytesRejected() throws SQLException {
    String tooLong = "é".repeat(129); // 258 bytes in UTF-8
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store().getSnapshot(context(), tooLong));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> save(row("s1", tooLong, at(1))).snapshotId());
    assertThat(snapshotRows()).isZero();

    String longest = "é".repeat(128);
    assertThat(save(row(longest, longest, at(1))).snapshotId()).isEqualTo(longest);
  }

  @ParameterizedTest
  @ValueSource(strings = {"../escape", "a/b", "a\\b", ".hidden", "foo..bar", "ünïcödé 🎉"})
  void pathCharactersAreValidIdsHere(String id) {
    SessionSnapshot saved = save(row(id, id, at(1)));

    assertThat(store().getSnapshot(context(), id)).isEqualTo(saved);
    assertThat(store().getLatestSnapshot(context(), id)).isEqualTo(saved);
  }

  @Test
  void invalidSessionIdRejectedBeforeAnythingIsWritten() throws SQLException {
    assertFailsWith(Status.INVALID_ARGUMENT, () -> save(row("s1", "bell\u0007", at(1))));
    assertFailsWith(
        Status.INVALID_ARGUMENT, () -> store().getLatestSnapshot(context(), "bell\u0007"));
    assertThat(snapshotRows()).isZero();
  }

  @Test
  void timestampsOutsideTheYearsOfRfc3339Rejected() throws SQLException {
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> save(row("s1", "sess-1", Instant.parse("+10000-01-01T00:00:00Z"))));
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () ->
            save(
                row("s1", "sess-1", at(1))
                    .withHeartbeatAt(Instant.parse("-0001-01-01T00:00:00Z"))));
    assertThat(snapshotRows()).isZero();

    Instant first = Instant.parse("0001-01-01T00:00:00Z");
    Instant last = Instant.parse("9999-12-31T23:59:59.999999999Z");
    SessionSnapshot extremes = save(row("s1", "sess-1", first).withUpdatedAt(last));
    assertThat(schema.open().getSnapshot(context(), "s1")).isEqualTo(extremes);
  }

  @Test
  void latestBreaksTiesInCodePointOrderWhateverTheCollationOfTheDatabase() throws SQLException {
    save(row("B", "sess-1", at(1)));
    save(row("a", "sess-1", at(1)));

    // "a" (U+0061) follows "B" (U+0042) in code-point order; most linguistic collations disagree.
    assertThat(store().getLatestSnapshot(context(), "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("a");
    // The test database may sort in code-point order anyway; the key columns must do so in any.
    assertThat(
            schema.count(
                "SELECT count(*) FROM information_schema.columns WHERE table_schema = '{s}'"
                    + " AND column_name IN ('tenant', 'snapshot_id', 'session_id')"
                    + " AND collation_name IS DISTINCT FROM 'C'"))
        .isZero();
  }

  // ---- tenants ----

  @Test
  void tenantsScopeReadsWritesAndSubscriptions() {
    PostgresSessionStore store = schema.open(options -> options.tenant(TENANT));
    SessionSnapshot mine = save(store, row("s1", "sess-1", at(1)));

    assertThat(store.getSnapshot(tenant("a"), "s1")).isNull();
    SessionSnapshot aRow =
        store.saveSnapshot(tenant("a"), "s1", existing -> row("s1", "sess-1", at(2)));

    assertThat(store.getSnapshot(tenant("a"), "s1")).isEqualTo(aRow);
    assertThat(store.getLatestSnapshot(tenant("a"), "sess-1")).isEqualTo(aRow);
    assertThat(store.getSnapshot(tenant("b"), "s1")).isNull();
    assertThat(store.getLatestSnapshot(tenant("b"), "sess-1")).isNull();
    assertThat(store.onSnapshotStatusChange(tenant("b"), "s1").isEnded()).isTrue();
    assertThat(SnapshotFixtures.abort(tenant("b"), store, "s1", at(3))).isNull();
    assertThat(store.getSnapshot(context(), "s1")).isEqualTo(mine);
  }

  @Test
  void nestedTenantsAreNormalisedAsFileStorePrefixesAre() {
    PostgresSessionStore store = schema.open(options -> options.tenant(TENANT));
    store.saveSnapshot(tenant("org-42/user-7"), "s1", existing -> row("s1", "sess-1", at(1)));

    assertThat(store.getLatestSnapshot(tenant("/org-42//user-7/"), "sess-1")).isNotNull();
    assertThat(store.getLatestSnapshot(tenant("org-42"), "sess-1")).isNull();
    assertThat(store.getSnapshot(tenant("org-42"), "s1")).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "/", "///", "tab\there", "org-\ud800"})
  void emptyOrInvalidTenantsRejected(String tenant) throws SQLException {
    PostgresSessionStore store = schema.open(options -> options.tenant(context -> tenant));

    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> store.saveSnapshot(context(), "s1", existing -> row("s1", "sess-1", at(1))));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.getSnapshot(context(), "s1"));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.getLatestSnapshot(context(), "sess-1"));
    assertFailsWith(Status.INVALID_ARGUMENT, () -> store.onSnapshotStatusChange(context(), "s1"));
    assertThat(snapshotRows()).isZero();
  }

  // ---- errors ----

  @Test
  void anUnreachableDatabaseIsUnavailableAndTheMessageNamesNoConnectionDetail() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/secret_db?user=secret_user&password=hunter2");
    config.setConnectionTimeout(250);
    config.setInitializationFailTimeout(-1);
    try (HikariDataSource unreachable = new HikariDataSource(config)) {
      PostgresSessionStore store = PostgresSessionStore.builder(unreachable).build();

      for (Runnable call :
          List.<Runnable>of(
              () -> store.getSnapshot(context(), "s1"),
              () -> save(store, row("s1", "sess-1", at(1))),
              () -> store.onSnapshotStatusChange(context(), "s1"))) {
        assertThatThrownBy(call::run)
            .isInstanceOfSatisfying(
                BatonException.class,
                e -> {
                  assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                  assertThat(e.toPublicErrorInfo().message())
                      .doesNotContain("127.0.0.1", "secret", "hunter2", "jdbc", "SELECT");
                });
      }
      store.close();
    }
  }

  @Test
  void aRowTheStoreCannotDecodeIsDataLoss() throws SQLException {
    save(row("bad-status", "sess-1", at(1)));
    save(row("bad-state", "sess-1", at(2)));
    schema.execute(
        "UPDATE {s}.baton_snapshots SET status = 'bogus' WHERE snapshot_id = 'bad-status'");
    schema.execute(
        "UPDATE {s}.baton_snapshots SET state = '[1, 2]' WHERE snapshot_id = 'bad-state'");

    for (String id : List.of("bad-status", "bad-state")) {
      assertThatThrownBy(() -> schema.open().getSnapshot(context(), id))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.DATA_LOSS);
                assertThat(e.isPublic()).isFalse();
              });
    }
  }

  // ---- agents over hostile IDs and damaged rows ----

  /**
   * An agent on a programmable model, in a Baton instance of its own (a JVM, say), over a store.
   */
  private record Chat(Agent agent, ProgrammableModel model) {
    static Chat over(SessionStore store) {
      Baton baton = Baton.builder().experimental().build();
      ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
      Agent agent =
          baton.defineAgent(
              "chat",
              InlinePrompt.builder().model("pm").build(),
              AgentOptions.builder().sessionStore(store).build());
      return new Chat(agent, model);
    }

    AgentOutput turn(String text, AgentInit init) {
      return agent.runText(text, init);
    }
  }

  @Test
  void aTurnOnASessionIdThatIsNotWellFormedIsRefusedNotResumedFromTheRowItAliases() {
    Chat chat = Chat.over(store());
    chat.model().respondText("hi");
    AgentOutput aliased = chat.turn("hello", AgentInit.ofSession("?abc"));

    assertFailsWith(
        Status.INVALID_ARGUMENT, () -> chat.turn("hello", AgentInit.ofSession("\ud800abc")));
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> chat.turn("hello", AgentInit.ofSnapshot(aliased.snapshotId() + "\udfff")));
    assertThat(chat.model().calls()).isEqualTo(1);
  }

  @Test
  void aMessageStoredAsJsonNullIsDataLossForReadsAndTurns() throws SQLException {
    Chat chat = Chat.over(store());
    chat.model().respondText("answer");
    AgentOutput first = chat.turn("question", AgentInit.NEW);
    schema.execute("UPDATE {s}.baton_messages SET message = 'null' WHERE seq = 1");
    // A store that has not cached the history reads it from the table, as another JVM would.
    Chat elsewhere = Chat.over(schema.open());

    assertFailsWith(Status.DATA_LOSS, () -> elsewhere.agent().snapshots().get(first.snapshotId()));
    assertFailsWith(
        Status.DATA_LOSS, () -> elsewhere.turn("go on", AgentInit.ofSession(first.sessionId())));
    assertThat(elsewhere.model().calls()).isZero();
  }

  @Test
  void aNegativeHistoryLengthIsDataLossNotAnEmptyHistory() throws SQLException {
    Chat chat = Chat.over(store());
    chat.model().respondText("answer");
    AgentOutput first = chat.turn("question", AgentInit.NEW);
    schema.execute("UPDATE {s}.baton_snapshots SET history_length = -1");

    assertFailsWith(Status.DATA_LOSS, () -> chat.agent().snapshots().get(first.snapshotId()));
    assertFailsWith(
        Status.DATA_LOSS, () -> chat.turn("go on", AgentInit.ofSession(first.sessionId())));
    assertFailsWith(
        Status.DATA_LOSS, () -> chat.turn("go on", AgentInit.ofSnapshot(first.snapshotId())));
    assertThat(chat.model().calls()).isEqualTo(1);
  }

  @Test
  void aStatusChangedBySqlOutsideTheStoreReachesSubscribers() throws Exception {
    save(row("s1", "sess-1", at(1), PENDING));

    try (var subscription =
        ((PostgresSessionStore) store()).onSnapshotStatusChange(context(), "s1")) {
      awaitStatus(subscription, PENDING);
      schema.execute("UPDATE {s}.baton_snapshots SET status = 'aborted' WHERE snapshot_id = 's1'");
      awaitStatus(subscription, ABORTED);
    }
  }
}
