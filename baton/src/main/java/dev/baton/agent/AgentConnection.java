package dev.baton.agent;

import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
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
 * <p>Use from one client thread at a time.
 */
public final class AgentConnection implements AutoCloseable {
  private final Invocation invocation;
  private @Nullable JsonNode custom;

  AgentConnection(Invocation invocation) {
    this.invocation = invocation;
  }

  /**
   * Sends an input. {@code {"detach": true}} hands the work to the background: nothing more is
   * streamed and {@link #output()} answers with the pending snapshot.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} once the invocation has completed
   */
  public void send(AgentInput input) {
    if (input == null) {
      throw BatonException.invalidArgument("input must not be null");
    }
    invocation.send(input);
  }

  public void sendMessage(Message message) {
    send(AgentInput.of(message));
  }

  public void sendText(String text) {
    send(AgentInput.text(text));
  }

  public void sendResume(Resume resume) {
    send(AgentInput.resume(resume));
  }

  /** Hands the invocation to the background. */
  public void detach() {
    send(AgentInput.detachOnly());
  }

  /**
   * The chunks streamed so far and from now on, until the invocation settles. Each call returns an
   * iterator that continues where the last one stopped; leaving a loop early (say, at a {@code
   * turnEnd}) cancels nothing.
   */
  public Iterable<AgentStreamChunk> receive() {
    return () ->
        new Iterator<>() {
          private @Nullable AgentStreamChunk next;

          @Override
          public boolean hasNext() {
            if (next == null) {
              next = invocation.nextChunk();
              if (next != null) {
                track(next);
              }
            }
            return next != null;
          }

          @Override
          public AgentStreamChunk next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            AgentStreamChunk chunk = Objects.requireNonNull(next);
            next = null;
            return chunk;
          }
        };
  }

  /**
   * The custom state as the client sees it, kept up to date from the {@code customPatch} chunks
   * read so far; null before the first. A malformed patch leaves the last good value.
   */
  public @Nullable JsonNode custom() {
    return custom == null ? null : custom.deepCopy();
  }

  /**
   * Closes the input, waits for the invocation to settle (reading and dropping unread chunks) and
   * returns its output. Idempotent.
   */
  public AgentOutput output() {
    return invocation.awaitOutput(this::track);
  }

  /** Closes the input: the agent finishes the inputs it has and settles. */
  @Override
  public void close() {
    invocation.closeInput();
  }

  private void track(AgentStreamChunk chunk) {
    if (chunk.customPatch() == null) {
      return;
    }
    try {
      custom =
          JsonPatch.apply(custom == null ? Json.nodes().nullNode() : custom, chunk.customPatch());
    } catch (RuntimeException malformed) {
      // Keep the last good value; the next whole-document replace re-bases it.
    }
  }
}
