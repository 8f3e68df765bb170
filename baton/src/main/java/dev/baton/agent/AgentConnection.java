package dev.baton.agent;

import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.core.BatonException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The client end of an agent invocation that takes several inputs: send inputs, read the chunks
 * they produce, then take the output.
 *
 * <pre>{@code
 * try (AgentConnection conn = agent.connect(ctx, AgentInit.NEW)) {
 *   conn.sendText("hello");
 *   for (AgentStreamChunk chunk : conn.receive()) {
 *     if (chunk.turnEnd() != null) break;      // the turn is over; the invocation is not
 *   }
 *   conn.sendText("and then?");
 *   AgentOutput out = conn.output();
 * }
 * }</pre>
 *
 * <p>Baton implements this interface. Use a connection from one client thread at a time.
 */
public interface AgentConnection extends AutoCloseable {
  /**
   * Sends an input. {@code {"detach": true}} hands the work to the background: nothing more is
   * streamed and {@link #output()} answers with the pending snapshot.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} once the invocation has completed
   */
  void send(AgentInput input);

  default void sendMessage(Message message) {
    send(AgentInput.of(message));
  }

  default void sendText(String text) {
    send(AgentInput.text(text));
  }

  default void sendResume(Resume resume) {
    send(AgentInput.resume(resume));
  }

  /** Hands the invocation to the background. */
  default void detach() {
    send(AgentInput.detachOnly());
  }

  /**
   * The chunks streamed so far and from now on, until the invocation settles. Each call returns an
   * iterator that continues where the last one stopped; leaving a loop early (say, at a {@code
   * turnEnd}) cancels nothing.
   */
  Iterable<AgentStreamChunk> receive();

  /**
   * The custom state as the client sees it, kept up to date from the {@code customPatch} chunks
   * read so far; null before the first. A malformed patch leaves the last good value.
   */
  @Nullable JsonNode custom();

  /**
   * Closes the input, waits for the invocation to settle (reading and dropping unread chunks) and
   * returns its output. Idempotent.
   */
  AgentOutput output();

  /** Closes the input: the agent finishes the inputs it has and settles. */
  @Override
  void close();
}
