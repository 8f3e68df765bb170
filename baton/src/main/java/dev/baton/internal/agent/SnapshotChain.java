package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.ErrorInfo;
import dev.baton.internal.core.Timing;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The snapshots one invocation of a server-managed agent writes: a row at each turn's end, chained
 * by {@code parentId}, and the pending row a detach hands the work over with. After the hand-off no
 * turn end writes a row: the detached run finalises the pending one instead.
 *
 * <p>A turn that fails, or that a budget stops, leaves a {@code failed} or {@code aborted} row that
 * holds its progress, a handle to continue from, on a branch of its own: the chain goes on from the
 * last good row, as if the turn had not run, so that is what a failed turn answers and what the
 * next turn chains off.
 *
 * <p>A turn end's save is retried while the store fails transiently, for up to the agent's
 * heartbeat timeout ({@link StoreRetry}): the row's ID and content are fixed before the first
 * attempt, so an attempt that committed although it was reported failed is simply written again.
 *
 * <p>Thread-safe: the worker saves turn ends while the client side reads the tip and detaches.
 */
final class SnapshotChain {
  private static final Logger log = LoggerFactory.getLogger(SnapshotChain.class);

  private final String agent;
  private final @Nullable SessionStore store;
  private final Timing timing;
  private final ActionContext storeContext;
  private final Duration retryBound;
  private final Cancellation work;
  // Guards the tip and the hand-off. A lock rather than a monitor: it is held across the store
  // write (an fsync, say), which would pin a virtual thread's carrier before JDK 24.
  private final ReentrantLock lock = new ReentrantLock();
  private @Nullable String tip;
  private @Nullable String lastGood;
  private @Nullable String unfinished;
  private boolean handedOff;

  /**
   * @param clientContext the client's context: store calls keep its auth (for tenancy) but not its
   *     cancellation, since they outlive the client
   * @param resumed the snapshot the invocation resumed, which the first row chains off, or null
   * @param lastGood the last good snapshot before the first turn (differs from {@code resumed} when
   *     a continuation resumes a failed or aborted row), or null
   * @param retryBound how long a row's save is retried while the store fails transiently
   * @param work the invocation's work: once it is cancelled (an abort, a cancelled client) a turn
   *     end's save stops retrying, so the turn ends as cancelled without waiting out the outage
   */
  SnapshotChain(
      String agent,
      @Nullable SessionStore store,
      ActionContext clientContext,
      @Nullable String resumed,
      @Nullable String lastGood,
      Duration retryBound,
      Cancellation work) {
    this.agent = agent;
    this.store = store;
    this.storeContext = clientContext.withCancellation(Cancellation.never());
    this.timing = Timing.of(clientContext);
    this.tip = resumed;
    this.lastGood = lastGood;
    this.retryBound = retryBound;
    this.work = work;
  }

  /** The context store calls run in. */
  ActionContext storeContext() {
    return storeContext;
  }

  /**
   * The row the next one chains off: the last completed row of the chain, or the row the invocation
   * resumed; null before the first.
   */
  @Nullable String tip() {
    lock.lock();
    try {
      return tip;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The last good snapshot: the last completed row of the chain, or the one before the first turn;
   * null when nothing was committed. A continuation of a failed row resumes that row, but its
   * outputs name the last good snapshot until a turn completes.
   */
  @Nullable String lastGood() {
    lock.lock();
    try {
      return lastGood;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The row that keeps the progress of the last turn, when that turn did not finish and its row was
   * saved; null otherwise.
   */
  @Nullable String unfinished() {
    lock.lock();
    try {
      return unfinished;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Saves a turn's end under the ID reserved for it. Nothing is written for a client-managed agent
   * or after the hand-off.
   *
   * @return the saved row's ID, or null when nothing was saved
   * @throws BatonException with the store's status and visibility when the row could not be saved
   *     (an outage that outlasted the retries is {@code UNAVAILABLE}): the turn is not done
   */
  @Nullable String saveTurnEnd(
      String reserved, String sessionId, SessionState state, @Nullable AgentFinishReason reason) {
    return save(
        reserved,
        retryBound,
        parent ->
            SessionSnapshot.completed(reserved, sessionId, parent, timing.now(), reason, state));
  }

  /**
   * Saves the progress of a turn that did not finish under the ID reserved for it: a {@code failed}
   * row for a failed turn, an {@code aborted} one (finish reason {@code aborted}, so it reads as
   * settled) for a turn a budget stopped, with the state the turn reached (its input included) and
   * the error. It is the handle a caller continues the work from ({@code AgentInit.continueFrom});
   * its parent is the last good snapshot, which stays the chain's tip. The save is tried once, and
   * a failure logged: the turn has failed anyway. Nothing is written for a client-managed agent or
   * after the hand-off.
   *
   * @param reason {@link AgentFinishReason#FAILED} or {@link AgentFinishReason#ABORTED}
   * @return the saved row's ID, or null when nothing was saved
   */
  @Nullable String saveUnfinishedTurn(
      String reserved,
      String sessionId,
      SessionState state,
      AgentFinishReason reason,
      ErrorInfo error) {
    SnapshotStatus status =
        reason == AgentFinishReason.ABORTED ? SnapshotStatus.ABORTED : SnapshotStatus.FAILED;
    try {
      // One attempt: the turn has failed whether or not its progress is kept, and a detach waits
      // for this write.
      return save(
          reserved,
          Duration.ZERO,
          parent ->
              SessionSnapshot.builder(reserved, timing.now())
                  .sessionId(sessionId)
                  .parentId(parent)
                  .status(status)
                  .finishReason(reason)
                  .error(error)
                  .state(state)
                  .build());
    } catch (BatonException e) {
      log.warn("agent {}: saving the progress of a turn that did not finish failed", agent, e);
      return null;
    }
  }

  /** Saves a row chained off the tip, retrying it for up to {@code retryFor}. */
  private @Nullable String save(
      String reserved, Duration retryFor, Function<@Nullable String, SessionSnapshot> rowAfter) {
    if (store == null) {
      return null;
    }
    lock.lock();
    try {
      if (handedOff) {
        return null;
      }
      SessionSnapshot row = rowAfter.apply(tip);
      unfinished = null;
      SessionSnapshot saved;
      try {
        saved =
            StoreRetry.call(
                timing,
                work,
                retryFor,
                "agent \"" + agent + "\": save snapshot " + reserved,
                () -> store.saveSnapshot(storeContext, reserved, existing -> row));
      } catch (RuntimeException e) {
        throw storeFailure("save the turn's snapshot", e);
      }
      if (saved != null && row.statusOrCompleted() == SnapshotStatus.COMPLETED) {
        tip = saved.snapshotId();
        lastGood = tip;
      } else if (saved != null) {
        unfinished = saved.snapshotId();
      }
      return saved == null ? null : saved.snapshotId();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Hands the chain to a detached run: turn ends stop writing rows, and a pending row chained off
   * the tip is saved under a new ID. A turn-end write in flight finishes first, its retries
   * included, so the pending row chains off it and records the state that follows it.
   *
   * @param handedOver the state the run is handed, read once the chain no longer moves; the pending
   *     row records it, so that a run whose worker dies before its final write can be re-attempted
   * @throws BatonException with the store's own status and visibility when the pending row cannot
   *     be saved: an outage must not read as "cannot detach"
   */
  SessionSnapshot handOff(
      SessionStore store, String sessionId, String pendingId, Supplier<SessionState> handedOver) {
    String parent;
    SessionState state;
    lock.lock();
    try {
      handedOff = true;
      parent = tip;
      state = handedOver.get();
    } finally {
      lock.unlock();
    }
    SessionSnapshot pending =
        SessionSnapshot.pending(pendingId, sessionId, parent, timing.now()).withState(state);
    try {
      store.saveSnapshot(storeContext, pendingId, existing -> pending);
    } catch (RuntimeException e) {
      throw storeFailure("detach: save pending snapshot", e);
    }
    return pending;
  }

  /**
   * A store's failure as this chain reports it: the store's status and visibility, so that an
   * outage reads as one and a store's message (a file path, say) does not reach a client.
   */
  private BatonException storeFailure(String what, RuntimeException e) {
    BatonException cause = BatonException.from(e);
    return new BatonException(
        cause.status(),
        "agent \"" + agent + "\": " + what + ": " + cause.getMessage(),
        cause.details(),
        cause.isPublic(),
        e);
  }
}
