package dev.baton.internal.agent;

import dev.baton.agent.Agent;
import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;

/** Finds registered agents, with the errors Genkit gives for a missing or mistaken name. */
public final class AgentLookup {
  private AgentLookup() {}

  /**
   * The agent registered under a name.
   *
   * @throws BatonException {@code NOT_FOUND} when nothing is registered under it ("agent "x" not
   *     found in registry"), {@code INVALID_ARGUMENT} when what is registered is not an agent
   */
  public static Agent find(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.AGENT, name)
            .orElseThrow(() -> BatonException.notFound("agent \"%s\" not found in registry", name));
    if (!(action instanceof Agent agent)) {
      throw BatonException.invalidArgument("\"%s\" is registered but is not an agent", name);
    }
    return agent;
  }
}
