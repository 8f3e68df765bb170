package dev.baton.spring.autoconfigure.internal;

import dev.baton.Baton;
import dev.baton.agent.SessionStore;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.spring.autoconfigure.BatonProperties;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * Chooses and creates the session store from {@code baton.store.*} and what the application has:
 * {@code auto} takes PostgreSQL when {@code baton-postgres} is on the class path and the context
 * has one {@link DataSource}, else the file store when a directory is set, else memory; a forced
 * type that cannot be created fails the start with a message that says what is missing.
 */
public final class SessionStores {
  private static final Logger log = LoggerFactory.getLogger(SessionStores.class);
  private static final String POSTGRES_STORE = "dev.baton.store.postgres.PostgresSessionStore";

  private final BatonProperties.Store config;
  private final Supplier<@Nullable DataSource> dataSource;
  private final boolean postgresPresent;

  /**
   * @param dataSource the context's single {@code DataSource}, or null; asked only when PostgreSQL
   *     may be chosen
   * @param classLoader where {@code baton-postgres} is looked for
   */
  public SessionStores(
      BatonProperties.Store config,
      Supplier<@Nullable DataSource> dataSource,
      @Nullable ClassLoader classLoader) {
    this.config = Objects.requireNonNull(config, "config");
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.postgresPresent = ClassUtils.isPresent(POSTGRES_STORE, classLoader);
  }

  /** The store {@code baton.store.type} asks for. */
  public SessionStore create() {
    SessionStore store =
        switch (config.type()) {
          case MEMORY -> InMemorySessionStore.create();
          case FILE -> file(requireDirectory());
          case POSTGRES -> PostgresStores.create(requirePostgres(), config.postgres());
          case AUTO -> automatic();
        };
    log.info("Baton keeps sessions in {}", store.getClass().getSimpleName());
    return store;
  }

  /**
   * Reads a PostgreSQL store once, at start: the read creates its tables when it may, or fails when
   * they are missing and it may not, so that the start fails rather than the first turn. Other
   * stores need nothing.
   *
   * @param store the context's store, or null when it has none or several
   * @param baton the context's Baton instance, whose root context the read runs in, or null
   */
  public static void checkAtStart(@Nullable SessionStore store, @Nullable Baton baton) {
    if (store != null && baton != null && store.getClass().getName().equals(POSTGRES_STORE)) {
      store.getSnapshot(baton.context(), "baton-start-check");
    }
  }

  private SessionStore automatic() {
    DataSource pool = postgresPresent ? dataSource.get() : null;
    if (pool != null) {
      return PostgresStores.create(pool, config.postgres());
    }
    Path directory = config.file().directory();
    return directory != null ? file(directory) : InMemorySessionStore.create();
  }

  private Path requireDirectory() {
    Path directory = config.file().directory();
    if (directory == null) {
      throw new IllegalStateException(
          "baton.store.type=file needs baton.store.file.directory: the folder to keep sessions in");
    }
    return directory;
  }

  private DataSource requirePostgres() {
    if (!postgresPresent) {
      throw new IllegalStateException(
          "baton.store.type=postgres needs dev.baton:baton-postgres on the class path");
    }
    DataSource pool = dataSource.get();
    if (pool == null) {
      throw new IllegalStateException(
          "baton.store.type=postgres needs a DataSource bean (set spring.datasource.url, or mark"
              + " one of several DataSource beans @Primary)");
    }
    return pool;
  }

  private static SessionStore file(Path directory) {
    return FileSessionStore.builder(directory).build();
  }
}
