package dev.baton.agent;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;

/**
 * An agent: it runs turns over a session, and is registered at {@code /agent/<name>} with its
 * companion actions ({@code /agent-snapshot/<name>} and {@code /agent-wait/<name>} when it has a
 * session store, {@code /agent-abort/<name>} when the store can also notify). Define one with
 * {@code baton.defineAgent(...)}; find a registered one with {@code baton.agent(name)}.
 *
 * <p>Run it one turn at a time ({@link #run}, or {@link #runText} for the common case), or {@link
 * #connect} and send several inputs over one invocation; read, await and abort its snapshots
 * through {@link #snapshots}. With a session store the agent is server-managed: every turn ends
 * with a snapshot, and a client resumes by snapshot or session ID. Without one it is
 * client-managed: the output carries the whole state for the client to send back.
 *
 * <pre>{@code
 * AgentOutput first = agent.runText("What limits binary search?");
 * AgentOutput next = agent.runText("And interpolation search?", AgentInit.ofSession(first.sessionId()));
 * }</pre>
 *
 * <p>The methods without a context run in a fresh root context of the agent's Baton instance. Baton
 * implements this interface; it is not meant to be implemented elsewhere. Thread-safe: one agent
 * serves any number of concurrent invocations.
 */
public interface Agent extends Action<AgentInput, AgentOutput, AgentStreamChunk> {

  // ---- running -------------------------------------------------------------------------------

  /**
   * Runs one turn and returns the output, streaming the turn's chunks to {@code stream}. A failed
   * turn is a failed output, not an exception; a bad init and a cancelled context are exceptions.
   *
   * <p>A detach input returns at once with the pending snapshot ({@code finishReason: detached})
   * while the work goes on in the background. An agent that cannot run work in the background (it
   * has no session store, or one that cannot subscribe to snapshots; a remote agent whose server
   * refuses the detach) returns a failed output instead, whose error is {@code
   * FAILED_PRECONDITION}; a local agent then runs none of the input.
   */
  AgentOutput run(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream);

  /** Runs one turn in a fresh session. */
  @Override
  default AgentOutput run(
      ActionContext context, AgentInput input, StreamCallback<AgentStreamChunk> stream) {
    return run(context, input, AgentInit.NEW, stream);
  }

  /** Runs one text turn in a fresh session, in a root context; it does not stream. */
  default AgentOutput runText(String text) {
    return runText(text, AgentInit.NEW);
  }

  /**
   * Runs one text turn from a session source, in a root context; it does not stream. Use {@link
   * #run(ActionContext, AgentInput, AgentInit, StreamCallback)} for a principal, cancellation or a
   * stream.
   */
  AgentOutput runText(String text, AgentInit init);

  /**
   * Opens an invocation that takes several inputs, one turn each. The init is resolved first: a bad
   * init throws here, as an error of the invocation itself. Without a context of your own, pass
   * {@code baton.context()}.
   */
  AgentConnection connect(ActionContext context, AgentInit init);

  // ---- snapshots -----------------------------------------------------------------------------

  /**
   * The agent's snapshots under {@code context}: its principal sees only its own sessions, and
   * cancelling it ends a wait.
   */
  AgentSnapshots snapshots(ActionContext context);

  /** The agent's snapshots in a root context, which carries no principal. */
  AgentSnapshots snapshots();

  // ---- description ---------------------------------------------------------------------------

  /** What the agent does, or null. Orchestrators show it to their models. */
  @Nullable String description();

  /**
   * What the agent supports, or null when that is unknown (a remote agent that declared nothing).
   */
  @Nullable AgentMetadata metadata();

  /** A reference carrying this agent's name and description, for the Agents middleware. */
  default AgentRef ref() {
    return new AgentRef(name(), description());
  }
}
