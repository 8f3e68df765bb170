package dev.baton.agent;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;

/**
 * An agent: it runs turns over a session, and is registered at {@code /agent/<name>} with its
 * companion actions ({@code /agent-snapshot/<name>} and {@code /agent-wait/<name>} when it has a
 * session store, {@code /agent-abort/<name>} when the store can also notify). Define one with
 * {@code baton.defineAgent(...)}; find a registered one with {@code baton.agent(name)}.
 *
 * <p>Run it one turn at a time ({@link #run}), or {@link #connect} and send several inputs over one
 * invocation. With a session store the agent is server-managed: every turn ends with a snapshot,
 * and a client resumes by snapshot or session ID. Without one it is client-managed: the output
 * carries the whole state for the client to send back.
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

  /** Runs one turn from a session source. */
  AgentOutput run(AgentInput input, AgentInit init);

  /** Runs one text turn in a fresh session. */
  default AgentOutput runText(String text) {
    return run(AgentInput.text(text), AgentInit.NEW);
  }

  /** Runs one text turn from a session source. */
  default AgentOutput runText(String text, AgentInit init) {
    return run(AgentInput.text(text), init);
  }

  /**
   * Opens an invocation that takes several inputs, one turn each. The init is resolved first: a bad
   * init throws here, as an error of the invocation itself.
   */
  AgentConnection connect(ActionContext context, AgentInit init);

  AgentConnection connect(AgentInit init);

  // ---- snapshots -----------------------------------------------------------------------------

  /**
   * A snapshot as clients see it: an absent status reads {@code completed}, a pending row whose
   * worker stopped heartbeating reads {@code expired}, and the state passes through the agent's
   * state transform.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} for an agent without a session store, {@code
   *     INVALID_ARGUMENT} for an empty ID, {@code NOT_FOUND} when the snapshot does not exist
   */
  SessionSnapshot getSnapshot(ActionContext context, String snapshotId);

  SessionSnapshot getSnapshot(String snapshotId);

  /**
   * The session's latest snapshot as clients see it, or null when the session has none.
   *
   * @throws BatonException as {@link #getSnapshot}
   */
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId);

  @Nullable SessionSnapshot getLatestSnapshot(String sessionId);

  /**
   * Waits until a snapshot settles ({@link SessionSnapshot#isSettled()}) and returns it: completed,
   * failed, expired, or aborted with its finish reason. The wait goes on through {@code aborting}:
   * an aborted row without a finish reason is a worker still saving its progress, and the wait ends
   * when that save lands or the worker stops heartbeating. Reads tolerate a few transient store
   * failures; the wait ends early when the context is cancelled.
   *
   * <p>A remote agent waits on its server's waitForSnapshot route. A server without one (Genkit JS)
   * is polled instead, and there the wait ends at the first status past {@code pending}: an aborted
   * row may come back before it has settled.
   *
   * @throws BatonException as {@link #getSnapshot}, and {@code CANCELLED} when the context is
   *     cancelled
   */
  SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId);

  SessionSnapshot waitForSnapshot(String snapshotId);

  /**
   * Aborts a detached run: a pending snapshot becomes {@code aborted}, and its worker stops and
   * saves its progress into it; any other snapshot is left as it is. Never blocks on the worker.
   *
   * @return the snapshot's status after the attempt, or null when the snapshot does not exist
   * @throws BatonException {@code FAILED_PRECONDITION} when the agent's store cannot abort
   *     background work
   */
  @Nullable SnapshotStatus abort(ActionContext context, String snapshotId);

  @Nullable SnapshotStatus abort(String snapshotId);

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
