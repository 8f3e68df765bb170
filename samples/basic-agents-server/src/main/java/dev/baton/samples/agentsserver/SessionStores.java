package dev.baton.samples.agentsserver;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.store.postgres.PostgresSessionStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where the served agents keep their sessions. In files under {@code .genkit/snapshots} ({@code
 * BATON_SNAPSHOT_DIR} picks another folder), a folder per agent, by default. With {@code
 * BATON_POSTGRES_URL} set to a JDBC URL, in PostgreSQL instead, through a small HikariCP pool, so
 * several copies of the server behind a load balancer share their sessions; each agent's rows are a
 * tenant of their own, as each had its folder. {@code BATON_POSTGRES_SCHEMA} optionally names the
 * schema ({@code public} by default); the store creates its tables there on first use.
 */
final class SessionStores implements AutoCloseable {
  private final @Nullable Path folder;
  private final @Nullable HikariDataSource pool;
  private final @Nullable String schema;
  private final String description;
  private final List<PostgresSessionStore> opened = new ArrayList<>();

  private SessionStores(
      @Nullable Path folder,
      @Nullable HikariDataSource pool,
      @Nullable String schema,
      String description) {
    this.folder = folder;
    this.pool = pool;
    this.schema = schema;
    this.description = description;
  }

  static SessionStores choose(Map<String, String> env) {
    String url = env.get("BATON_POSTGRES_URL");
    if (url == null || url.isBlank()) {
      Path folder = Path.of(env.getOrDefault("BATON_SNAPSHOT_DIR", ".genkit/snapshots"));
      return new SessionStores(folder, null, null, "in " + folder.toAbsolutePath());
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url.strip());
    config.setMaximumPoolSize(6);
    config.setPoolName("basic-agents-server");
    String schema = env.get("BATON_POSTGRES_SCHEMA");
    return new SessionStores(
        null,
        new HikariDataSource(config),
        schema == null || schema.isBlank() ? null : schema.strip(),
        "in PostgreSQL at " + withoutParameters(url.strip()));
  }

  /** The store of one agent. */
  synchronized SessionStore forAgent(String agent) {
    if (pool == null) {
      return FileSessionStore.builder(Objects.requireNonNull(folder).resolve(agent)).build();
    }
    PostgresSessionStore.Builder builder =
        PostgresSessionStore.builder(pool).tenant(context -> agent);
    if (schema != null) {
      builder.schema(schema);
    }
    PostgresSessionStore store = builder.build();
    opened.add(store);
    return store;
  }

  /** Where the sessions are, for the banner. */
  String description() {
    return description;
  }

  /** The URL up to its parameters, which may hold a user name and a password. */
  private static String withoutParameters(String url) {
    int query = url.indexOf('?');
    return query < 0 ? url : url.substring(0, query);
  }

  @Override
  public synchronized void close() {
    opened.forEach(PostgresSessionStore::close);
    if (pool != null) {
      pool.close();
    }
  }
}
