package dev.baton.agent;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Where a server-managed agent keeps its snapshots. Every store follows this contract, which the
 * store contract kit in {@code baton-testing} ({@code SessionStoreContract}) checks:
 *
 * <ol>
 *   <li>{@code saveSnapshot} reads, calls the update and writes as one atomic step; concurrent
 *       read-modify-writes of one row lose no update.
 *   <li>When the update returns null nothing is written and {@code saveSnapshot} returns null.
 *   <li>The store owns identity: the {@code snapshotId} argument (or a minted ID) overrides the
 *       row's; on an update the existing row's {@code sessionId} is kept, otherwise the new row's
 *       is used; a row without a session ID is rejected with {@code INVALID_ARGUMENT} ("session ID
 *       is required"). A store never mints or infers a session ID.
 *   <li>An absent status is stored as {@code completed}.
 *   <li>Timestamps are stored as given.
 *   <li>Rows returned are values the caller may keep: later writes do not change them.
 * </ol>
 *
 * <p>Aborts, heartbeats and fencing are ordinary {@code saveSnapshot} calls, so every store
 * supports them without a method of its own. A store that also implements {@link
 * SnapshotSubscriber} supports detached runs and abort.
 *
 * <p>A failure's status tells the runtime whether to try again: {@code UNAVAILABLE} (the store
 * cannot be reached; report an outage so), {@code ABORTED} (a conflict) and {@code
 * DEADLINE_EXCEEDED} are retried for a while, any other status is final. A write reported failed
 * may have committed all the same, as when a connection drops before the commit is acknowledged;
 * the runtime then saves the same row again under its ID, which must leave the row as it was.
 *
 * <p>Every method takes the caller's context, as Go passes {@code ctx}: a store may scope rows by
 * tenant from its auth context, and should honour its cancellation in slow I/O. Implementations are
 * thread-safe: parallel invocations, heartbeats and waits use one store at once.
 */
public interface SessionStore {
  /**
   * The row with this ID, or null when there is none.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the store cannot accept the ID
   */
  @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId);

  /**
   * The session's row with the greatest {@code createdAt}, whatever its status (pending, failed and
   * aborted rows included); ties go to the greater snapshot ID. Rewriting an older row does not
   * make it the latest, because its {@code createdAt} is kept. Null when the session has no rows.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the session ID is empty
   */
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId);

  /**
   * Reads the row, applies {@code update}, and writes the result, as one atomic step, atomic
   * against every other writer of the same row.
   *
   * <p>{@code update} gets the existing row (or null) and returns the row to write (or null to
   * write nothing). It may run more than once under optimistic concurrency, so it must be pure: no
   * side effects, the same answer for the same input. Stores call it while holding their write
   * lock: it must be quick and must not call the store.
   *
   * @param snapshotId the row's ID, or null (or empty) to have the store mint one
   * @return the row as persisted, or null when {@code update} returned null and nothing was written
   * @throws BatonException {@code INVALID_ARGUMENT} for a row without a session ID or an ID the
   *     store cannot accept
   */
  @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update);

  /**
   * A page of the store's sessions, newest first by last update: by {@link
   * SessionSummary#updatedAt()}, then by session ID, greatest first. Each summary describes the
   * session's latest snapshot (as {@link #getLatestSnapshot} picks it) without reading its
   * conversation, so a page costs about as much however long its sessions are.
   *
   * <p>Paging is by position in that order, not by offset ({@link SessionQuery}): a session saved
   * while a client pages moves to the front, ahead of the token, so later pages never repeat it,
   * and no session that did not change is skipped.
   *
   * <p>Sessions are scoped as the store's reads are. A store that keys rows by tenant from the
   * context lists the context's tenant's sessions only. An agent lists through its principal's view
   * ({@link AgentSnapshots#sessions}), which passes the principal's key space as the query's {@link
   * SessionQuery#sessionIdPrefix()}, so another principal's sessions are never listed, and a call
   * without a principal lists none of a principal's.
   *
   * <p>A session belongs to the store, not to an agent: rows do not record which agent wrote them.
   * Agents that share one store therefore list the same sessions, each under its own name.
   *
   * <p>The default implementation lists nothing: it fails with {@code UNIMPLEMENTED}, so a store
   * written before this method keeps working for everything else.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a page token this store did not return;
   *     {@code UNIMPLEMENTED} when the store cannot list its sessions
   */
  default SessionPage listSessions(ActionContext context, SessionQuery query) {
    // The store's class name stays out: the message may reach a remote client.
    throw BatonException.of(Status.UNIMPLEMENTED, "this session store cannot list its sessions");
  }

  /**
   * Every row the store holds for a session, oldest first (by {@code createdAt}, then by snapshot
   * ID), branches included, each without its conversation: its state, when it has one, holds only
   * its {@link SessionState#usage()}. A session's rows cost about as much to list however long its
   * conversation is, so a caller can draw its tree of snapshots without reading each row.
   *
   * <p>Rows are scoped as {@link #listSessions} scopes sessions: by tenant from the context, and,
   * through an agent's view ({@link AgentSnapshots#rows}), by the context's principal.
   *
   * <p>The default implementation fails with {@code UNIMPLEMENTED}, so a store written before this
   * method keeps working for everything else.
   *
   * @return the rows, empty when the session has none
   * @throws BatonException {@code INVALID_ARGUMENT} when the session ID is empty or one the store
   *     cannot accept; {@code UNIMPLEMENTED} when the store cannot list a session's rows
   */
  default List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    throw BatonException.of(
        Status.UNIMPLEMENTED, "this session store cannot list a session's snapshots");
  }
}
