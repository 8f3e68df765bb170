/**
 * The bundled session stores: {@link dev.baton.agent.store.InMemorySessionStore} for tests and
 * single-process development, and {@link dev.baton.agent.store.FileSessionStore}, which keeps one
 * JSON file per snapshot and lets several processes share a directory. Both follow the contract of
 * {@link dev.baton.agent.SessionStore} and implement {@link dev.baton.agent.SnapshotSubscriber}, so
 * agents using them can detach and be aborted.
 */
@NullMarked
package dev.baton.agent.store;

import org.jspecify.annotations.NullMarked;
