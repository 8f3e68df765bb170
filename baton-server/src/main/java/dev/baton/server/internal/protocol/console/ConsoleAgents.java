package dev.baton.server.internal.protocol.console;

import dev.baton.agent.SessionSnapshot;
import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.LocalAgent;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the console shows: the served local agents with a session store, and the rows the caller can
 * read of theirs. Stateless.
 */
final class ConsoleAgents {
  private ConsoleAgents() {}

  /** The agents the console shows, by name. */
  static Map<String, LocalAgent> agents(Registry registry, Predicate<String> serves) {
    Map<String, LocalAgent> agents = new TreeMap<>();
    for (Action<?, ?, ?> action : registry.actions()) {
      LocalAgent local = shown(action, serves);
      if (local != null) {
        agents.put(local.name(), local);
      }
    }
    return agents;
  }

  /** The agent of this name if the console shows it, or null. */
  static @Nullable LocalAgent agent(Registry registry, Predicate<String> serves, String name) {
    return shown(registry.lookup(ActionType.AGENT, name).orElse(null), serves);
  }

  private static @Nullable LocalAgent shown(
      @Nullable Action<?, ?, ?> action, Predicate<String> serves) {
    return action instanceof LocalAgent local && local.store() != null && serves.test(local.name())
        ? local
        : null;
  }

  /** A read of a row, or null when the row is gone (or another principal's). */
  static @Nullable SessionSnapshot orNull(Supplier<? extends @Nullable SessionSnapshot> read) {
    try {
      return read.get();
    } catch (BatonException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
      return null;
    }
  }
}
