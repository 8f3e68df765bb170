package dev.baton.internal.agent;

import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An agent served by another process and reached through another agent protocol than Genkit's: an
 * {@link AgentBridge} translates each operation. The agent is server-managed and abortable, so the
 * Agents middleware delegates to it as to any remote agent, background tasks and {@code
 * continue_task} included, and its companions serve its snapshots to Baton's own clients.
 *
 * <p>As for a {@link RemoteAgent}, the Baton instance tracks each turn: a closing instance refuses
 * it, and cancels it once the grace period is over; a connection sends its inputs one turn at a
 * time.
 *
 * <p>Thread-safe.
 */
public final class BridgedAgent extends ServedAgent {
  private final AgentBridge bridge;

  private BridgedAgent(
      String name, @Nullable String description, AgentBridge bridge, Registry registry) {
    super(name, description, metadataOf(true, StateManagement.SERVER, null), registry);
    this.bridge = Objects.requireNonNull(bridge, "bridge");
  }

  /** Defines the agent: registers its run action and its three companions. */
  public static BridgedAgent define(
      Registry registry, String name, @Nullable String description, AgentBridge bridge) {
    BridgedAgent agent = new BridgedAgent(name, description, bridge, registry);
    agent.register(true, true, agent::getSnapshotAction);
    return agent;
  }

  @Override
  public AgentOutput run(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    Objects.requireNonNull(input, "input");
    try {
      return tracked(context, turn -> bridge.turn(turn, input, init, stream));
    } finally {
      // Detached work runs on the agent's own server: nothing of it streams here.
      endFollowed(stream);
    }
  }

  @Override
  SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return bridge.get(context, requireId(snapshotId));
  }

  @Override
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    return bridge.latest(context, requireId(sessionId));
  }

  @Override
  SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId) {
    return bridge.waitFor(context, requireId(snapshotId));
  }

  @Override
  @Nullable SnapshotStatus abort(ActionContext context, String snapshotId) {
    return bridge.abort(context, requireId(snapshotId));
  }

  private SessionSnapshot getSnapshotAction(ActionContext context, GetSnapshotRequest request) {
    if (request.snapshotId() != null && !request.snapshotId().isEmpty()) {
      return getSnapshot(context, request.snapshotId());
    }
    String sessionId = requireId(request.sessionId());
    SessionSnapshot latest = getLatestSnapshot(context, sessionId);
    if (latest == null) {
      throw BatonException.notFound("getSnapshot: session \"%s\" not found", sessionId);
    }
    return latest;
  }

  @Override
  public String toString() {
    return "BridgedAgent[" + name() + "]";
  }
}
