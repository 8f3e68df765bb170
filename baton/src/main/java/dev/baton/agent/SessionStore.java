package dev.baton.agent;

/**
 * Where a server-managed agent keeps its snapshots. Every store follows this contract, which the
 * store contract kit in {@code baton-testing} checks:
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
 * <p>Aborts, heartbeats and fencing are ordinary {@code saveSnapshot} calls (see {@link
 * Snapshots}). A store that also implements {@link SnapshotSubscriber} supports detached runs and
 * abort. Implementations are thread-safe.
 */
public interface SessionStore extends SnapshotReader, SnapshotWriter {}
