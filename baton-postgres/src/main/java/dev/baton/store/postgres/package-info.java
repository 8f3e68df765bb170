/**
 * A session store in PostgreSQL, {@link dev.baton.store.postgres.PostgresSessionStore}, for agents
 * that run on several JVMs and share one database: snapshots, messages stored once per session
 * history, and status changes delivered across JVMs through {@code LISTEN/NOTIFY}.
 */
@NullMarked
package dev.baton.store.postgres;

import org.jspecify.annotations.NullMarked;
