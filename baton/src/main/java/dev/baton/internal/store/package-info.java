/**
 * What Baton's session stores share and users never name: the identity rules of a saved row and the
 * status subscriptions with their dedup gate. The bundled stores in {@code dev.baton.agent.store}
 * and the PostgreSQL store in {@code baton-postgres} use it. Not an API: its types may change in
 * any release, and once Baton ships module descriptors the package is exported only to Baton's own
 * store modules.
 */
@NullMarked
package dev.baton.internal.store;

import org.jspecify.annotations.NullMarked;
