package dev.baton.agent;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The snapshots of one agent, under one context: read one, read a session's latest, wait for one to
 * settle, abort a background run, list the sessions. These are the operations of the companions
 * Genkit serves beside an agent ({@code getSnapshot}, {@code waitForSnapshot}, {@code abort}); a
 * remote agent calls its server's.
 *
 * <pre>{@code
 * AgentOutput pending = agent.run(ctx, AgentInput.text("Summarise the logs").withDetach(true));
 * SessionSnapshot done = agent.snapshots(ctx).waitFor(pending.snapshotId());
 * }</pre>
 *
 * <p>Get one with {@link Agent#snapshots(ActionContext)}: every call runs under that context, so a
 * principal it carries sees only its own sessions (another's read as {@code NOT_FOUND}), and
 * cancelling it ends a wait. {@link Agent#snapshots()} runs in a root context. Baton implements
 * this interface. Thread-safe.
 */
public interface AgentSnapshots {

  /**
   * A snapshot as clients see it: an absent status reads {@code completed}, a pending row whose
   * worker stopped heartbeating reads {@code expired}, and the state passes through the agent's
   * state transform.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} for an agent without a session store, {@code
   *     INVALID_ARGUMENT} for an empty ID, {@code NOT_FOUND} when the snapshot does not exist
   */
  SessionSnapshot get(String snapshotId);

  /**
   * The session's latest snapshot as clients see it, or null when the session has none.
   *
   * @throws BatonException as {@link #get}
   */
  @Nullable SessionSnapshot latest(String sessionId);

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
   * @throws BatonException as {@link #get}, and {@code CANCELLED} when the context is cancelled
   */
  SessionSnapshot waitFor(String snapshotId);

  /**
   * Aborts a detached run: a pending snapshot becomes {@code aborted}, and its worker stops and
   * saves its progress into it; any other snapshot is left as it is. Never blocks on the worker.
   *
   * @return the snapshot's status after the attempt, or null when the snapshot does not exist
   * @throws BatonException {@code FAILED_PRECONDITION} when the agent cannot abort background work
   *     (its store cannot tell a running worker to stop; a remote agent's server has no abort
   *     route)
   */
  @Nullable SnapshotStatus abort(String snapshotId);

  /**
   * A page of the agent's sessions, newest first by last update, as its store lists them ({@link
   * SessionStore#listSessions}): only the context's principal's sessions (or, without a principal,
   * only sessions started without one), each summarised from its latest snapshot shaped as {@link
   * #get} shapes it, so a session whose worker stopped heartbeating reads {@code expired}. The
   * status filter applies to the stored status, before shaping.
   *
   * <p>Agents that share a store list the same sessions: a store does not record which agent wrote
   * a row.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} for an agent without a session store and for
   *     one served by another process (remote, or bridged from another protocol); {@code
   *     INVALID_ARGUMENT} for a malformed page token; {@code UNIMPLEMENTED} when the store cannot
   *     list its sessions
   */
  SessionPage sessions(SessionQuery query);

  /**
   * Every snapshot of one of the principal's sessions, oldest first, branches included, each
   * without its conversation (its state holds only its usage), shaped as {@link #get} shapes it but
   * for the state transform, which sees whole states only ({@link SessionStore#listSnapshots}).
   *
   * @return the rows, empty when the principal has no such session
   * @throws BatonException {@code FAILED_PRECONDITION} for an agent without a session store and for
   *     one served by another process; {@code INVALID_ARGUMENT} for an empty session ID; {@code
   *     UNIMPLEMENTED} when the store cannot list a session's rows
   */
  List<SessionSnapshot> rows(String sessionId);
}
