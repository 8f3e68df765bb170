package dev.baton.store.postgres;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.baton.Baton;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.core.ActionContext;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the listing of the PostgreSQL store promises beyond the contract kit's cases: the sessions
 * table follows every write, its index serves a page without sorting, tenants stay apart, and a
 * schema made by the first version of the script is upgraded with the sessions it already held.
 */
class PostgresSessionListingTest {
  private final ActionContext context = Baton.builder().build().context();
  private final TestSchema schema = new TestSchema(TestDatabase.shared());

  @AfterEach
  void dropSchema() throws SQLException {
    schema.close();
  }

  private static SessionSnapshot save(
      SessionStore store, ActionContext context, SessionSnapshot r) {
    return Objects.requireNonNull(store.saveSnapshot(context, r.snapshotId(), existing -> r));
  }

  private static List<String> ids(SessionPage page) {
    return page.sessions().stream().map(SessionSummary::sessionId).toList();
  }

  @Test
  void retentionCountsOnlyTheRowsItKeeps() {
    PostgresSessionStore store = schema.open(options -> options.maxPersistedChainLength(2));
    save(store, context, row("t1", "sess-1", at(1)));
    save(store, context, withParentId(row("t2", "sess-1", at(2)), "t1"));
    save(store, context, withParentId(row("t3", "sess-1", at(3)), "t2"));

    SessionSummary summary =
        store.listSessions(context, SessionQuery.firstPage()).sessions().get(0);

    assertThat(summary.turns()).isEqualTo(2);
    assertThat(summary.latestSnapshotId()).isEqualTo("t3");
  }

  @Test
  void tenantsListOnlyTheirOwnSessions() {
    PostgresSessionStore store =
        schema.open(options -> options.tenant(c -> String.valueOf(c.auth().get("tenant"))));
    ActionContext acme = context.withAuth(Map.of("tenant", "acme"));
    ActionContext globex = context.withAuth(Map.of("tenant", "globex"));
    save(store, acme, row("a1", "shared-id", at(1)));
    save(store, globex, row("g1", "shared-id", at(2)));
    save(store, globex, row("g2", "globex-only", at(3)));

    assertThat(ids(store.listSessions(acme, SessionQuery.firstPage())))
        .containsExactly("shared-id");
    assertThat(ids(store.listSessions(globex, SessionQuery.firstPage())))
        .containsExactly("globex-only", "shared-id");
  }

  @Test
  void aPageIsServedByTheSessionIndexWithoutSorting() throws SQLException {
    PostgresSessionStore store = schema.open();
    for (int i = 0; i < 20; i++) {
      save(store, context, row("s" + i, "sess-" + i, at(i)));
    }
    String position =
        store.listSessions(context, SessionQuery.firstPage().withLimit(5)).nextPageToken();
    SessionQuery next = SessionQuery.firstPage().withLimit(5).withPageToken(position);
    assertThat(ids(store.listSessions(context, next)))
        .containsExactly("sess-14", "sess-13", "sess-12", "sess-11", "sess-10");

    List<String> plan = new ArrayList<>();
    try (Connection connection = schema.dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL enable_seqscan = off");
      try (ResultSet lines =
          statement.executeQuery(
              "EXPLAIN SELECT session_id FROM "
                  + schema.name
                  + ".baton_sessions WHERE tenant = 'global'"
                  + " AND (tenant, updated_at, updated_at_ns, session_id)"
                  + " < ('global', now(), 0::smallint, 'sess-9')"
                  + " ORDER BY tenant DESC, updated_at DESC, updated_at_ns DESC, session_id DESC"
                  + " LIMIT 6")) {
        while (lines.next()) {
          plan.add(lines.getString(1));
        }
      }
      connection.rollback();
      connection.setAutoCommit(true);
    }
    assertThat(String.join("\n", plan))
        .contains("Index", "baton_sessions_recent")
        .doesNotContain("Sort");
  }

  @Test
  void aSchemaOfTheFirstVersionIsUpgradedWithTheSessionsItHeld() throws Exception {
    schema.execute("CREATE SCHEMA {s}");
    runScript("dev/baton/store/postgres/schema-v1.sql");
    PostgresSessionStore old = schema.open(options -> options.createSchema(false));
    save(old, context, row("a1", "sess-a", at(1)));
    save(old, context, withParentId(row("a2", "sess-a", at(5)), "a1"));
    save(old, context, row("b1", "sess-b", at(3)).withUpdatedAt(at(9)));

    PostgresSessionStore upgraded = schema.open();
    SessionPage page = upgraded.listSessions(context, SessionQuery.firstPage());

    assertThat(page.sessions())
        .extracting(
            SessionSummary::sessionId,
            SessionSummary::turns,
            SessionSummary::createdAt,
            SessionSummary::updatedAt)
        .containsExactly(tuple("sess-b", 1, at(3), at(9)), tuple("sess-a", 2, at(1), at(5)));
    assertThat(schema.count("SELECT count(*) FROM {s}.baton_schema_version WHERE version = 2"))
        .isOne();

    // Writes after the upgrade, by either instance, keep the sessions table.
    save(old, context, withParentId(row("a3", "sess-a", at(20)), "a2"));
    assertThat(ids(upgraded.listSessions(context, SessionQuery.firstPage())))
        .containsExactly("sess-a", "sess-b");
    assertThat(upgraded.listSessions(context, SessionQuery.firstPage()).sessions().get(0).turns())
        .isEqualTo(3);
  }

  /** Runs a script from the test classpath in the test's schema, as a team's migration would. */
  private void runScript(String resource) throws Exception {
    String script;
    try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
      script = new String(Objects.requireNonNull(in).readAllBytes(), StandardCharsets.UTF_8);
    }
    try (Connection connection = schema.dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute("SET LOCAL search_path TO " + schema.name);
      statement.execute(script);
      connection.commit();
      connection.setAutoCommit(true);
    }
  }
}
