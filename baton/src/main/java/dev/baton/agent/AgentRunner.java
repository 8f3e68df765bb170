package dev.baton.agent;

import dev.baton.ai.Message;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import java.util.List;

/**
 * What an agent function works with during one invocation: the session, the invocation's context,
 * the loop over its inputs, and the stream to the client.
 *
 * <p>{@link #run} is the only place turns happen, and the end of each turn is the only routine
 * persistence point: changes made after the loop appear in the output but are never saved.
 *
 * <p>Thread-safe: tools running in parallel may stream chunks and change the session at once.
 * {@link #run} itself is called once, by the agent function's own thread.
 */
public final class AgentRunner {
  private final Invocation invocation;

  AgentRunner(Invocation invocation) {
    this.invocation = invocation;
  }

  public Session session() {
    return invocation.session();
  }

  /** The invocation's context: it carries the session, auth and cancellation. */
  public ActionContext context() {
    return invocation.workContext();
  }

  /**
   * Runs one turn per input until the client closes its input. A turn that fails ends with a failed
   * {@code turnEnd} and its error is thrown here; the function may catch it and call {@code run}
   * again to carry on with the next inputs.
   */
  public void run(TurnFunction turn) {
    AgentInput input;
    while ((input = invocation.nextInput()) != null) {
      invocation.runTurn(turn, input);
    }
  }

  /** Streams a model chunk to the client. */
  public void sendChunk(ModelResponseChunk chunk) {
    invocation.router().send(AgentStreamChunk.of(chunk));
  }

  /** Adds an artifact to the session (replacing one of the same name) and streams it. */
  public void sendArtifact(Artifact artifact) {
    session().addArtifact(artifact);
  }

  /** The usual result: the last message of the history and every artifact. */
  public AgentResult result() {
    List<Message> messages = session().messages();
    Message last = messages.isEmpty() ? null : messages.get(messages.size() - 1);
    return new AgentResult(last, session().artifacts(), null);
  }
}
