package dev.baton.samples.basicagents;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.store.postgres.PostgresSessionStore;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where the coordinator keeps its sessions. In memory by default; with {@code BATON_POSTGRES_URL}
 * set to a JDBC URL ({@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}, say) in
 * PostgreSQL, through a small HikariCP pool, so several copies of the sample on several machines
 * share their sessions. {@code BATON_POSTGRES_SCHEMA} optionally names the schema ({@code public}
 * by default); the store creates its tables there on first use.
 *
 * @param store the store the coordinator uses
 * @param pool the pool behind a PostgreSQL store, closed with this object; null in memory
 * @param label what the chat's banner says, or null to say nothing (in memory, as before)
 */
record Sessions(SessionStore store, @Nullable HikariDataSource pool, @Nullable String label)
    implements AutoCloseable {

  static Sessions choose(Map<String, String> env) {
    String url = env.get("BATON_POSTGRES_URL");
    if (url == null || url.isBlank()) {
      return new Sessions(InMemorySessionStore.create(), null, null);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url.strip());
    config.setMaximumPoolSize(4);
    config.setPoolName("basic-agents");
    HikariDataSource pool = new HikariDataSource(config);
    PostgresSessionStore.Builder store = PostgresSessionStore.builder(pool);
    String schema = env.get("BATON_POSTGRES_SCHEMA");
    if (schema != null && !schema.isBlank()) {
      store.schema(schema.strip());
    }
    return new Sessions(store.build(), pool, "PostgreSQL at " + withoutParameters(url.strip()));
  }

  /** The URL up to its parameters, which may hold a user name and a password. */
  private static String withoutParameters(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  @Override
  public void close() {
    if (store instanceof PostgresSessionStore postgres) {
      postgres.close();
    }
    if (pool != null) {
      pool.close();
    }
  }
}
