package dev.baton.internal.agent;

import dev.baton.agent.AgentInit;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.core.RandomIds;
import dev.baton.internal.core.Timing;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Resolves an invocation's init into the session it starts from. A failure here fails the
 * invocation itself (a 4xx over HTTP), not a turn.
 *
 * <p>Rules, checked in this order: {@code state} excludes both IDs; only a client-managed agent
 * takes {@code state}; only a server-managed one takes IDs; a {@code snapshotId} must exist and
 * belong to the {@code sessionId} given with it; a {@code sessionId} alone resumes the session's
 * latest row or starts the session under that ID. A pending row is refused (an expired row reads
 * pending here), since its run may still be writing.
 *
 * <p>A failed or aborted row never strands its session. A plain turn from one (the session's latest
 * row, or the failed row an older Baton answered a failed turn with) carries on from the last good
 * state: that of the row's nearest completed ancestor, or an empty session when nothing was
 * committed before it. A {@linkplain AgentInit#isContinuation() continuation} carries on from the
 * progress the row itself saved instead.
 */
final class SessionLoader {
  /**
   * The session an invocation starts from.
   *
   * @param resumedSnapshotId the row the invocation carries on from, which its first turn's row
   *     chains off; null when it starts from an empty session
   * @param lastGoodSnapshotId the last good snapshot as the invocation starts: the resumed row, or,
   *     when a continuation resumes a failed or aborted row, that row's nearest completed ancestor;
   *     null when nothing was committed before
   */
  record Loaded(
      String sessionId,
      SessionState state,
      @Nullable String resumedSnapshotId,
      @Nullable String lastGoodSnapshotId) {

    Loaded(String sessionId, SessionState state) {
      this(sessionId, state, null, null);
    }
  }

  private SessionLoader() {}

  /**
   * @param heartbeatTimeout when a pending or aborting row's worker counts as gone
   */
  static Loaded load(
      String agent,
      @Nullable SessionStore store,
      AgentInit init,
      ActionContext context,
      Duration heartbeatTimeout) {
    if (store != null) {
      // The principal keys every row of the session: one the store cannot take fails the call
      // now, rather than the save at the end of a turn that has already run.
      PrincipalScopedStore.requireWellFormedPrincipal(context);
    }
    boolean hasIds = init.sessionId() != null || init.snapshotId() != null;
    if (init.state() != null && hasIds) {
      throw BatonException.invalidArgument(
          "state is mutually exclusive with session ID and snapshot ID in the init of agent \"%s\"",
          agent);
    }
    if (init.state() != null) {
      if (store != null) {
        throw BatonException.failedPrecondition(
            "Cannot send 'state' to agent \"%s\": state provided but agent has a session store"
                + " configured (server-managed state); use snapshot ID instead",
            agent);
      }
      SessionState state = init.state();
      String id =
          state.sessionId() != null && !state.sessionId().isEmpty() ? state.sessionId() : newId();
      return new Loaded(id, state.withSessionId(id));
    }
    if (init.snapshotId() != null) {
      SessionStore rows = requireStore(agent, store, "snapshotId");
      SessionSnapshot row = rows.getSnapshot(context, init.snapshotId());
      if (row == null) {
        throw BatonException.notFound("snapshot \"%s\" not found", init.snapshotId());
      }
      if (init.sessionId() != null && !init.sessionId().equals(row.sessionId())) {
        throw BatonException.invalidArgument(
            "snapshot \"%s\" does not belong to session \"%s\"",
            init.snapshotId(), init.sessionId());
      }
      return resume(rows, row, init.isContinuation(), context, heartbeatTimeout);
    }
    if (init.sessionId() != null) {
      SessionStore rows = requireStore(agent, store, "sessionId");
      SessionSnapshot row = rows.getLatestSnapshot(context, init.sessionId());
      if (row == null) {
        return new Loaded(init.sessionId(), SessionState.empty().withSessionId(init.sessionId()));
      }
      if (!init.sessionId().equals(row.sessionId())) {
        throw new BatonException(
            Status.INTERNAL,
            "session store returned snapshot \""
                + row.snapshotId()
                + "\" of another session for session \""
                + init.sessionId()
                + "\", which violates the GetLatestSnapshot contract",
            null,
            false,
            null);
      }
      return resume(rows, row, init.isContinuation(), context, heartbeatTimeout);
    }
    String id = newId();
    return new Loaded(id, SessionState.empty().withSessionId(id));
  }

  private static Loaded resume(
      SessionStore store,
      SessionSnapshot row,
      boolean continuation,
      ActionContext context,
      Duration heartbeatTimeout) {
    String lastGoodId = row.snapshotId();
    switch (row.statusOrCompleted()) {
      case PENDING, EXPIRED ->
          throw BatonException.failedPrecondition(
              "snapshot \"%s\" is still pending: its detached invocation is still running; wait"
                  + " for it to finalize or abort it before resuming",
              row.snapshotId());
      case FAILED, ABORTED -> {
        Loaded lastGood = lastGood(store, row, context);
        if (!continuation) {
          return lastGood;
        }
        if (row.isAborting(Timing.of(context).now(), heartbeatTimeout)) {
          throw BatonException.failedPrecondition(
              "snapshot \"%s\" is still being aborted: its worker is saving its progress; wait for"
                  + " it to settle before continuing",
              row.snapshotId());
        }
        lastGoodId = lastGood.lastGoodSnapshotId();
      }
      case COMPLETED -> {}
    }
    // A row that saved no state (one an older Baton aborted before its worker saved anything)
    // carries on from the last good state before it.
    SessionState state = row.state() != null ? row.state() : lastGood(store, row, context).state();
    return loaded(row, state, row.snapshotId(), lastGoodId);
  }

  /**
   * Where a plain turn from a failed or aborted row carries on: the state of its nearest completed
   * ancestor, or an empty session when nothing was committed before it. When retention has deleted
   * the ancestors (or, in a store no Baton wrote, their lineage loops), the row's own saved
   * progress is the most that is left.
   */
  private static Loaded lastGood(SessionStore store, SessionSnapshot row, ActionContext context) {
    Set<String> seen = new HashSet<>();
    SessionSnapshot at = row;
    while (seen.add(at.snapshotId())) {
      String parentId = at.parentId();
      if (parentId == null || parentId.isEmpty()) {
        return loaded(row, SessionState.empty(), null, null);
      }
      SessionSnapshot parent = store.getSnapshot(context, parentId);
      if (parent == null || !Objects.equals(parent.sessionId(), row.sessionId())) {
        // Deleted by retention, or (in a store no Baton wrote) another session's row: either way
        // not this session's history.
        break;
      }
      if (parent.statusOrCompleted() == SnapshotStatus.COMPLETED && parent.state() != null) {
        return loaded(row, parent.state(), parent.snapshotId(), parent.snapshotId());
      }
      at = parent;
    }
    SessionState progress = row.state();
    return loaded(
        row,
        progress != null ? progress : SessionState.empty(),
        row.snapshotId(),
        row.snapshotId());
  }

  /** The session of a resumed row; a legacy row without a session ID gets a fresh one. */
  private static Loaded loaded(
      SessionSnapshot row,
      SessionState state,
      @Nullable String resumed,
      @Nullable String lastGood) {
    String id = row.sessionId() != null && !row.sessionId().isEmpty() ? row.sessionId() : newId();
    return new Loaded(id, state.withSessionId(id), resumed, lastGood);
  }

  private static SessionStore requireStore(
      String agent, @Nullable SessionStore store, String field) {
    if (store == null) {
      throw BatonException.failedPrecondition(
          "Cannot use '%s' with agent \"%s\": it has no session store (client-managed state);"
              + " send the session state instead",
          field, agent);
    }
    return store;
  }

  private static String newId() {
    return RandomIds.uuid();
  }
}
