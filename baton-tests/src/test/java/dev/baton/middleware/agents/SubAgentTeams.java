package dev.baton.middleware.agents;

import dev.baton.agent.SessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link SubAgentTeam}s a test makes, each closed with the test: a test class holds one in an
 * {@code @AutoClose} field.
 */
final class SubAgentTeams implements AutoCloseable {
  private final List<SubAgentTeam> made = new CopyOnWriteArrayList<>();

  /** A team on in-memory stores, forwarding the coder's interrupts. */
  SubAgentTeam inMemory() {
    return inMemory(true);
  }

  /**
   * @param forward whether the orchestrator forwards the coder's interrupts
   */
  SubAgentTeam inMemory(boolean forward) {
    return add(
        new SubAgentTeam(InMemorySessionStore.create(), InMemorySessionStore.create(), forward));
  }

  /** A forwarding team whose coder keeps its sessions in the store given. */
  SubAgentTeam withCoderStore(SessionStore coderStore) {
    return add(new SubAgentTeam(coderStore, InMemorySessionStore.create(), true));
  }

  SubAgentTeam add(SubAgentTeam team) {
    made.add(team);
    return team;
  }

  @Override
  public void close() {
    made.forEach(SubAgentTeam::close);
  }
}
