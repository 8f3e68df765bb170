package dev.baton.internal.agent;

import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;

/**
 * What an agent reached through another agent protocol than Genkit's (A2A) does for each of the
 * operations an {@link dev.baton.agent.Agent} offers, translated to and from that protocol. {@link
 * BridgedAgent} turns one into an agent that the Agents middleware delegates to like any other.
 *
 * <p>Each method follows the contract of the {@code Agent} operation it stands for: a failed turn
 * is a failed output, a snapshot that does not exist is {@code NOT_FOUND} (null for {@link #latest}
 * and {@link #abort}), a transport failure is {@code UNAVAILABLE}. Implementations are thread-safe.
 */
public interface AgentBridge {
  /** Runs one turn; see {@link dev.baton.agent.Agent#run}. */
  AgentOutput turn(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream);

  /** Reads a snapshot; see {@link dev.baton.agent.AgentSnapshots#get}. */
  SessionSnapshot get(ActionContext context, String snapshotId);

  /** The session's latest snapshot, or null; see {@link dev.baton.agent.AgentSnapshots#latest}. */
  @Nullable SessionSnapshot latest(ActionContext context, String sessionId);

  /** Waits until a snapshot settles; see {@link dev.baton.agent.AgentSnapshots#waitFor}. */
  SessionSnapshot waitFor(ActionContext context, String snapshotId);

  /** Aborts background work; see {@link dev.baton.agent.AgentSnapshots#abort}. */
  @Nullable SnapshotStatus abort(ActionContext context, String snapshotId);
}
