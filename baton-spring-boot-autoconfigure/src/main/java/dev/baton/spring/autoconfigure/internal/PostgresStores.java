package dev.baton.spring.autoconfigure.internal;

import dev.baton.agent.SessionStore;
import dev.baton.spring.autoconfigure.BatonProperties;
import dev.baton.store.postgres.PostgresSessionStore;
import javax.sql.DataSource;

/**
 * Creates the PostgreSQL store. Apart from {@link SessionStores} so that only this class names
 * {@code baton-postgres}'s types, and it is loaded only when they are on the class path.
 */
final class PostgresStores {
  private PostgresStores() {}

  static SessionStore create(DataSource dataSource, BatonProperties.Postgres config) {
    return PostgresSessionStore.builder(dataSource)
        .schema(config.schema())
        .createSchema(config.createSchema())
        .build();
  }
}
