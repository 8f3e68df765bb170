package dev.baton.a2a;

import dev.baton.Baton;
import dev.baton.a2a.internal.client.A2aAgentDefinition;
import dev.baton.agent.Agent;
import java.net.URI;

/**
 * A2A agents as Baton sub-agents: {@code A2aAgents.define(baton, name, cardUrl)} reads the agent's
 * card and registers an {@link Agent} that the Agents middleware delegates to like any other, in
 * the foreground or in the background, with check, wait, abort and {@code continue_task}.
 *
 * <pre>{@code
 * Agent researcher = A2aAgents.define(baton, "researcher",
 *     URI.create("https://research.example/.well-known/agent-card.json"));
 * Agent orchestrator = baton.defineAgent("orchestrator",
 *     InlinePrompt.builder()
 *         .model("googleai/gemini-flash-latest")
 *         .use(Agents.builder().agents(researcher.ref()).build())
 *         .build());
 * }</pre>
 *
 * <p>The agent speaks A2A 0.3 over JSON-RPC. A turn is a {@code message/send}: a synchronous
 * delegation blocks until the task settles, a background one returns its running task, whose ID is
 * the snapshot ID (the task ID {@code <agent>:<A2A task ID>}); a check reads it with {@code
 * tasks/get}, a wait follows its events with {@code tasks/resubscribe} when the card says the agent
 * streams (and reads it every poll interval when not), an abort is {@code tasks/cancel}, and a
 * continuation is a new message in the task's context. A {@code failed} task reports failed with
 * the agent's message, an agent that cannot be reached {@code UNAVAILABLE}, a task the agent does
 * not know {@code unknown}. The module's documentation gives the whole mapping.
 */
public final class A2aAgents {
  private A2aAgents() {}

  /**
   * Reads the agent card at {@code cardUrl} and defines the agent it describes under {@code name},
   * with the card's description.
   *
   * @see #define(Baton, String, URI, A2aAgentOptions)
   */
  public static Agent define(Baton baton, String name, URI cardUrl) {
    return define(baton, name, cardUrl, A2aAgentOptions.DEFAULTS);
  }

  /**
   * Reads the agent card at {@code cardUrl} (with the options' headers) and defines the agent it
   * describes under {@code name}: its run action and its snapshot, wait and abort companions.
   *
   * <p>Baton follows the card's JSON-RPC interface only on the origin (scheme, host and port) the
   * card came from, so the headers given for the agent never go anywhere else.
   *
   * @throws IllegalStateException unless the instance was built with {@code experimental()}
   * @throws dev.baton.core.BatonException {@code UNAVAILABLE} when the card cannot be read, {@code
   *     FAILED_PRECONDITION} for a card without a JSON-RPC interface or whose interface is on
   *     another origin, {@code ALREADY_EXISTS} when an agent is already registered under the name
   */
  public static Agent define(Baton baton, String name, URI cardUrl, A2aAgentOptions options) {
    if (!baton.registry().isExperimental()) {
      throw new IllegalStateException(
          "A2aAgents.define: experimental features are not enabled. Build the instance with"
              + " Baton.builder().experimental() to use agents.");
    }
    return A2aAgentDefinition.define(baton.registry(), name, cardUrl, options);
  }
}
