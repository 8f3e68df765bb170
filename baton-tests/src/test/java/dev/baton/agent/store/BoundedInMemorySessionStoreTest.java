package dev.baton.agent.store;

import dev.baton.agent.SessionStore;
import dev.baton.testing.SessionStoreContract;

/** The store contract holds for an in-memory store with bounds the contract's tests stay within. */
class BoundedInMemorySessionStoreTest extends SessionStoreContract {
  @Override
  protected SessionStore newStore() {
    return InMemorySessionStore.builder().maxPersistedChainLength(100).maxSessions(100).build();
  }
}
