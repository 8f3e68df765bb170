package dev.baton.a2a.internal.client;

import dev.baton.a2a.A2aAgentOptions;
import dev.baton.agent.Agent;
import dev.baton.core.ActionContext;
import dev.baton.core.Registry;
import dev.baton.internal.agent.BridgedAgent;
import dev.baton.internal.core.DefaultRegistry;
import java.net.URI;
import java.util.Objects;

/** Defines an A2A agent as a Baton agent: reads its card, then registers the bridged agent. */
public final class A2aAgentDefinition {
  private A2aAgentDefinition() {}

  /**
   * Reads the card at {@code cardUrl} in a root context of {@code registry} and registers the agent
   * under {@code name}.
   *
   * @throws dev.baton.core.BatonException what reading the card failed with ({@code UNAVAILABLE}
   *     when it cannot be reached), or {@code FAILED_PRECONDITION} for a card Baton cannot follow
   */
  public static Agent define(Registry registry, String name, URI cardUrl, A2aAgentOptions options) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cardUrl, "cardUrl");
    Objects.requireNonNull(options, "options");
    String who = "A2A agent \"" + name + "\"";
    JsonRpcCalls calls = new JsonRpcCalls(who, options, DefaultRegistry.lifecycle(registry));
    CardEndpoint card = CardEndpoint.of(cardUrl, calls.card(ActionContext.root(registry), cardUrl));
    A2aBridge bridge =
        new A2aBridge(
            who,
            card.endpoint(),
            card.streaming(),
            calls,
            options.waitPollInterval(),
            DefaultRegistry.timing(registry));
    String description = options.description() != null ? options.description() : card.description();
    return BridgedAgent.define(registry, name, description, bridge);
  }
}
