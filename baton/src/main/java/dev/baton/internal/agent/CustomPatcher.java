package dev.baton.internal.agent;

import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionState;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Streams a session's changes to its client: each artifact added, and each custom-state change as a
 * JSON patch. The first patch of a turn replaces the whole document at {@code ""}, re-basing the
 * client; later ones are diffs against the last value sent, and an empty diff sends nothing. The
 * client sees the state through the agent's state transform, if it has one; a transform that fails
 * fails the invocation closed.
 */
final class CustomPatcher implements LiveSession.Listener {
  private final LiveSession session;
  private final ChunkStream router;
  private final @Nullable UnaryOperator<SessionState> transform;
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable JsonNode lastSent;
  private boolean turnStart = true;

  CustomPatcher(
      LiveSession session, ChunkStream router, @Nullable UnaryOperator<SessionState> transform) {
    this.session = session;
    this.router = router;
    this.transform = transform;
  }

  void startTurn() {
    lock.lock();
    try {
      turnStart = true;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void customChanged(@Nullable JsonNode custom) {
    // The session is read again here, under this lock, rather than trusting the value passed in:
    // with concurrent changes the last patch sent must carry the latest state. A lock rather than a
    // monitor, since sending may block on a slow client.
    lock.lock();
    try {
      JsonNode clientView;
      try {
        clientView =
            transform == null ? session.custom() : transform.apply(session.state()).custom();
      } catch (RuntimeException e) {
        router.failClosed(BatonException.from(e));
        return;
      }
      JsonNode value = clientView == null ? Json.nodes().nullNode() : clientView;
      List<JsonPatchOperation> patch;
      if (turnStart || lastSent == null) {
        patch = List.of(JsonPatchOperation.replace("", value));
        turnStart = false;
      } else {
        patch = JsonPatch.diff(lastSent, value);
      }
      lastSent = value;
      if (!patch.isEmpty()) {
        router.send(AgentStreamChunk.ofCustomPatch(Json.toTree(patch)));
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void artifactAdded(Artifact artifact) {
    router.send(AgentStreamChunk.of(artifact));
  }
}
