package dev.baton.internal.agent;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentResult;
import dev.baton.agent.BackgroundStream;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Status;
import dev.baton.internal.ai.GenerateRun;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.core.Timing;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background half of a detached invocation: it heartbeats the pending row, watches it for an
 * abort (which cancels the work), and when the work ends finalises the row in place. Starting the
 * watch and the final write are retried while the store fails transiently, for up to the heartbeat
 * timeout ({@link StoreRetry}).
 *
 * <p>Finalising is one atomic write. A row still pending becomes {@code completed} (finish reason:
 * the function's override, else the last turn's), {@code aborted} (finish reason {@code aborted})
 * with the error when a budget stopped the work, or {@code failed} with the error, carrying the
 * cumulative session state. A row that was aborted meanwhile stays aborted, since the abort wins,
 * but receives the progress the work made, so the task can be continued; its finish reason becomes
 * {@code aborted}, which is how readers tell a settled abort from one still saving.
 *
 * <p>Unlike Genkit, the heartbeat goes on after an abort (for at most a heartbeat timeout), so an
 * aborted row whose work is still unwinding is not mistaken for one whose worker died.
 *
 * <p>The run belongs to its Baton instance until its row is final: a close waits for it, and once
 * the grace period is over aborts it as an abort call would, so it settles as a resumable {@code
 * aborted} row with its progress.
 */
final class DetachedRun implements Heartbeats.Beating, Lifecycle.Work {
  private static final Logger log = LoggerFactory.getLogger(DetachedRun.class);

  private final LocalAgent agent;
  private final SessionStore store;
  private final ActionContext storeContext;
  private final Timing timing;
  private final SessionSnapshot pending;
  private final LiveSession session;
  private final Cancellation work;
  private final CompletableFuture<AgentResult> done;
  private final Supplier<@Nullable AgentFinishReason> lastTurnReason;
  private final AtomicBoolean beating = new AtomicBoolean();
  private final AtomicBoolean aborted = new AtomicBoolean();
  private final Lifecycle.Tracked tracked;
  private final @Nullable BackgroundStream follower;
  // The stop of the heartbeat an abort schedules; cancelled when the run ends, so the scheduler
  // does not hold this run (and its session) until it fires.
  private volatile @Nullable ScheduledFuture<?> stuckCheck;

  DetachedRun(
      LocalAgent agent,
      SessionStore store,
      ActionContext storeContext,
      SessionSnapshot pending,
      LiveSession session,
      Cancellation work,
      CompletableFuture<AgentResult> done,
      Supplier<@Nullable AgentFinishReason> lastTurnReason,
      @Nullable BackgroundStream follower) {
    this.agent = agent;
    this.store = store;
    this.storeContext = storeContext;
    this.timing = Timing.of(storeContext);
    this.pending = pending;
    this.session = session;
    this.work = work;
    this.done = done;
    this.lastTurnReason = lastTurnReason;
    this.follower = follower;
    this.tracked = agent.lifecycle().track(this);
  }

  /**
   * Starts the background half and returns at once. It holds no thread of its own while the work
   * runs: the heartbeat is the agent's shared timer, the abort watch a listener on the row's
   * status, and the row is finalised by the thread that completes the work. The row beats from
   * here, so it reads as live while the watch is set up on a virtual thread, retried through an
   * outage, without holding up the detach's answer.
   */
  void start() {
    Heartbeats heartbeats = agent.heartbeats();
    try {
      heartbeats.add(this);
      agent.lifecycle().start("baton-watch-" + pending.snapshotId(), () -> watch(heartbeats));
    } catch (RuntimeException closed) {
      // The instance closed while the turn that detached was still running.
      stopUnwatched(closed);
    }
  }

  @SuppressWarnings("FutureReturnValueIgnored") // finalizeRow logs its own failure
  private void watch(Heartbeats heartbeats) {
    String id = pending.snapshotId();
    StatusSubscription subscription;
    try {
      // A run that cannot watch has to stop: a brief outage should not cost it.
      subscription =
          StoreRetry.call(
              timing,
              Cancellation.never(),
              agent.options().heartbeatTimeout(),
              "agent \"" + agent.name() + "\": watch " + id + " for an abort",
              () -> ((SnapshotSubscriber) store).onSnapshotStatusChange(storeContext, id));
    } catch (RuntimeException e) {
      stopUnwatched(e);
      return;
    }
    try {
      subscription.listen(
          status -> {
            if (status == SnapshotStatus.ABORTED && aborted.compareAndSet(false, true)) {
              // The listener runs under the store's delivery lock; cancelling runs the work's
              // cancellation callbacks, which are not ours to trust with it.
              agent.lifecycle().start("baton-abort-" + id, () -> stop(heartbeats));
            }
          });
    } catch (RuntimeException e) {
      close(subscription);
      stopUnwatched(e);
      return;
    }
    done.whenComplete(
        (result, failure) -> {
          ScheduledFuture<?> check = stuckCheck;
          if (check != null) {
            check.cancel(false);
          }
          // A store's unsubscribe that throws must not keep the row pending nor a drain waiting.
          close(subscription);
          finalizeRow(
              result,
              failure instanceof CompletionException wrapped ? wrapped.getCause() : failure);
        });
  }

  /** Without a way to hear an abort the run must not go on unwatched: stop it and say why. */
  private void stopUnwatched(RuntimeException failure) {
    work.cancel();
    finalizeRow(null, failure);
  }

  private void close(StatusSubscription subscription) {
    try {
      subscription.close();
    } catch (RuntimeException e) {
      log.warn(
          "agent {}: closing the status subscription of {} failed",
          agent.name(),
          pending.snapshotId(),
          e);
    }
  }

  /**
   * Refreshes the row on a virtual thread of its own, so a slow store never delays other runs'
   * beats; a beat still running when the next is due makes that one skip, so a hung store piles
   * none up.
   */
  @Override
  public void beat() {
    if (beating.compareAndSet(false, true)) {
      try {
        agent.lifecycle().start("baton-beat-" + pending.snapshotId(), this::refresh);
      } catch (BatonException closed) {
        beating.set(false); // the instance is closing its threads: a last tick beats no more
      }
    }
  }

  private void refresh() {
    try {
      Snapshots.heartbeat(storeContext, store, pending.snapshotId(), timing.now());
    } catch (RuntimeException e) {
      // A worker whose heartbeats keep failing goes stale and reads as expired; that is the signal.
      log.warn("agent {}: heartbeat of {} failed", agent.name(), pending.snapshotId(), e);
    } finally {
      beating.set(false);
    }
  }

  /**
   * Cancels the work of a row that was aborted, possibly by another process. Genkit stops beating
   * there; Baton beats on while the work unwinds and saves its progress, so the row reads as still
   * saving (the task reports {@code aborting}), but only for a heartbeat timeout: a worker stuck in
   * a call that ignores cancellation must not keep its task from being continued for ever.
   */
  private void stop(Heartbeats heartbeats) {
    // Scheduled before the cancel, so the run's end always finds it to cancel.
    stuckCheck =
        heartbeats.schedule(
            () -> stopBeatingIfStuck(heartbeats), agent.options().heartbeatTimeout());
    work.cancel(BatonException.of(Status.ABORTED, "the task was aborted"));
  }

  /**
   * Aborts the run because its Baton instance is closing: the row becomes {@code aborted} as with
   * an abort call, and the work stops and saves its progress there. A row the store would not flip
   * still has its work stopped; it then settles {@code failed} with the reason.
   */
  @Override
  public void abort(BatonException reason) {
    if (!aborted.compareAndSet(false, true)) {
      return; // an abort is already under way
    }
    // On a thread of its own: a close aborts every run at once, and each abort is a store write.
    Runnable flip =
        () -> {
          try {
            Snapshots.abort(storeContext, store, pending.snapshotId(), timing.now());
            stop(agent.heartbeats());
          } catch (RuntimeException e) {
            log.warn(
                "agent {}: aborting {} on close failed", agent.name(), pending.snapshotId(), e);
            work.cancel(reason);
          }
        };
    try {
      agent.lifecycle().start("baton-abort-" + pending.snapshotId(), flip);
    } catch (BatonException closed) {
      flip.run(); // the instance has closed its threads: a run detached after its close
    }
  }

  private void stopBeatingIfStuck(Heartbeats heartbeats) {
    if (!done.isDone() && heartbeats.remove(this)) {
      log.warn(
          "agent {}: the aborted run of {} has not stopped after {}; its row no longer reads as"
              + " still saving",
          agent.name(),
          pending.snapshotId(),
          agent.options().heartbeatTimeout());
    }
  }

  /**
   * Writes the row's final state, retried for up to a heartbeat timeout. The row beats until the
   * write ends, so a waiter never reads as expired a run whose end is still being written; a beat
   * touches only a row not yet settled. A retry after an attempt that committed finds the row
   * settled and writes nothing.
   */
  private void finalizeRow(@Nullable AgentResult result, @Nullable Throwable failure) {
    BatonException error = failure == null ? null : Invocation.asError(failure);
    String id = pending.snapshotId();
    try {
      // Never cut short: the row must receive the work's end even after an abort.
      StoreRetry.call(
          timing,
          Cancellation.never(),
          agent.options().heartbeatTimeout(),
          "agent \"" + agent.name() + "\": finalise " + id,
          () ->
              store.saveSnapshot(storeContext, id, existing -> finalRow(existing, result, error)));
    } catch (RuntimeException e) {
      log.error("agent {}: finalising {} failed", agent.name(), id, e);
    } finally {
      agent.heartbeats().remove(this);
      tracked.close();
      endFollower();
    }
  }

  /** Tells the in-process observer, if any, that the work is over and its row final. */
  private void endFollower() {
    if (follower == null) {
      return;
    }
    try {
      follower.onEnd();
    } catch (RuntimeException e) {
      log.warn(
          "agent {}: the background stream of {} failed", agent.name(), pending.snapshotId(), e);
    }
  }

  /** The error to record on an aborted row: the abort's own cancellation is not worth keeping. */
  private static @Nullable ErrorInfo ownError(@Nullable BatonException error) {
    if (error == null || error.status() == Status.ABORTED || error.status() == Status.CANCELLED) {
      return null;
    }
    return Invocation.reported(error);
  }

  private @Nullable SessionSnapshot finalRow(
      @Nullable SessionSnapshot existing,
      @Nullable AgentResult result,
      @Nullable BatonException error) {
    if (existing == null) {
      return null;
    }
    Instant now = timing.now();
    SessionState state = session.state();
    SnapshotStatus status = existing.statusOrCompleted();
    if (status == SnapshotStatus.ABORTED) {
      if (existing.finishReason() == AgentFinishReason.ABORTED) {
        return null;
      }
      return existing
          .withFinishReason(AgentFinishReason.ABORTED)
          .withUpdatedAt(now)
          .withHeartbeatAt(null)
          .withState(state)
          .withError(ownError(error));
    }
    if (status != SnapshotStatus.PENDING) {
      return null;
    }
    SessionSnapshot base =
        SessionSnapshot.builder(existing.snapshotId(), existing.createdAt())
            .sessionId(existing.sessionId())
            .parentId(existing.parentId())
            .updatedAt(now)
            .status(SnapshotStatus.COMPLETED)
            .state(state)
            .build();
    if (error != null && GenerateRun.stoppedWith(error).isPresent()) {
      return base.withStatus(SnapshotStatus.ABORTED)
          .withFinishReason(AgentFinishReason.ABORTED)
          .withError(Invocation.reported(error));
    }
    if (error != null) {
      return base.withStatus(SnapshotStatus.FAILED)
          .withFinishReason(AgentFinishReason.FAILED)
          .withError(Invocation.reported(error));
    }
    AgentFinishReason reason =
        result != null && result.finishReason() != null
            ? result.finishReason()
            : lastTurnReason.get();
    return base.withFinishReason(reason);
  }
}
