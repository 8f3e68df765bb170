package dev.baton.internal.agent;

import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** The {@link AgentConnection} of one invocation; one client thread at a time. */
final class Connection implements AgentConnection {

  /** The client's side of an invocation, local or remote. */
  interface Source {
    /** Sends an input; see {@link AgentConnection#send}. */
    void send(AgentInput input);

    /** The next chunk, or null once the invocation has settled; blocks until one of the two. */
    @Nullable AgentStreamChunk nextChunk();

    /** Closes the input and waits for the output, handing remaining chunks to {@code sink}. */
    AgentOutput awaitOutput(StreamCallback<AgentStreamChunk> sink);

    /** No more input. */
    void closeInput();
  }

  private final Source invocation;
  private @Nullable JsonNode custom;

  Connection(Source invocation) {
    this.invocation = invocation;
  }

  @Override
  public void send(AgentInput input) {
    if (input == null) {
      throw BatonException.invalidArgument("input must not be null");
    }
    invocation.send(input);
  }

  @Override
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

  @Override
  public @Nullable JsonNode custom() {
    return custom == null ? null : custom.deepCopy();
  }

  @Override
  public AgentOutput output() {
    return invocation.awaitOutput(this::track);
  }

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
          JsonPatch.apply(
              custom == null ? Json.nodes().nullNode() : custom,
              JsonPatchOperation.listOf(chunk.customPatch()));
    } catch (RuntimeException malformed) {
      // Keep the last good value; the next whole-document replace re-bases it.
    }
  }
}
