/**
 * A PostgreSQL session store for Baton: {@link dev.baton.store.postgres.PostgresSessionStore}. The
 * application supplies the {@code DataSource} and the PostgreSQL JDBC driver.
 */
module dev.baton.store.postgres {
  requires transitive dev.baton;
  requires transitive java.sql;
  // The driver comes with the application's DataSource; the store needs it for LISTEN/NOTIFY.
  requires static org.postgresql.jdbc;
  requires org.slf4j;

  exports dev.baton.store.postgres;
}
