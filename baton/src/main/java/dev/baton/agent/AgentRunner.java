package dev.baton.agent;

import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;

/**
 * What an agent function works with during one invocation: the session, the invocation's context,
 * the loop over its inputs, and the stream to the client.
 *
 * <p>{@link #run} is the only place turns happen, and the end of each turn is the only routine
 * persistence point: changes made after the loop appear in the output but are never saved.
 *
 * <p>Baton implements this interface. Thread-safe: tools running in parallel may stream chunks and
 * change the session at once. {@link #run} itself is called by the agent function's own thread.
 */
public interface AgentRunner {
  Session session();

  /** The invocation's context: it carries the session, auth and cancellation. */
  ActionContext context();

  /**
   * Runs one turn per input until the client closes its input. A turn that fails ends with a failed
   * {@code turnEnd} and its error is thrown here; the function may catch it and call {@code run}
   * again to carry on with the next inputs.
   */
  void run(TurnFunction turn);

  /** Streams a model chunk to the client. */
  void sendChunk(ModelResponseChunk chunk);

  /** Adds an artifact to the session (replacing one of the same name) and streams it. */
  void sendArtifact(Artifact artifact);

  /** The usual result: the last message of the history and every artifact. */
  AgentResult result();
}
