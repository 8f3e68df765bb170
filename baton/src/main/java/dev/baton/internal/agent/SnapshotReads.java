package dev.baton.internal.agent;

import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.core.Timing;
import dev.baton.internal.store.SnapshotRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading an agent's snapshots the way clients see them: shaped (an absent status reads {@code
 * completed}, a stale pending row {@code expired}), passed through the agent's state transform,
 * stamped with the row's session ID. Reads never write.
 */
final class SnapshotReads {
  private static final Logger log = LoggerFactory.getLogger(SnapshotReads.class);
  private static final Set<Status> DEAD_ENDS =
      Set.of(Status.NOT_FOUND, Status.INVALID_ARGUMENT, Status.FAILED_PRECONDITION);
  private static final int TRANSIENT_FAILURES_TOLERATED = 3;

  private final String agent;
  private final SessionStore store;
  private final AgentOptions options;
  private final Lifecycle lifecycle;
  private final Timing timing;

  SnapshotReads(
      String agent, SessionStore store, AgentOptions options, Lifecycle lifecycle, Timing timing) {
    this.agent = agent;
    this.store = store;
    this.options = options;
    this.lifecycle = lifecycle;
    this.timing = timing;
  }

  /** The getSnapshot companion: by ID (the session ID, if given, must match) or by session. */
  SessionSnapshot get(ActionContext context, GetSnapshotRequest request) {
    String snapshotId = emptyToNull(request.snapshotId());
    String sessionId = emptyToNull(request.sessionId());
    if (snapshotId == null && sessionId == null) {
      throw BatonException.invalidArgument("getSnapshot: snapshotId or sessionId is required");
    }
    if (snapshotId == null) {
      SessionSnapshot latest = store.getLatestSnapshot(context, Objects.requireNonNull(sessionId));
      if (latest == null) {
        throw BatonException.notFound(
            "getSnapshot: no snapshot found for session \"%s\"", sessionId);
      }
      return shape(latest);
    }
    SessionSnapshot row = store.getSnapshot(context, snapshotId);
    if (row == null) {
      throw BatonException.notFound("getSnapshot: snapshot \"%s\" not found", snapshotId);
    }
    if (sessionId != null && !sessionId.equals(row.sessionId())) {
      throw BatonException.invalidArgument(
          "getSnapshot: snapshot \"%s\" does not belong to session \"%s\"", snapshotId, sessionId);
    }
    return shape(row);
  }

  /**
   * The waitForSnapshot companion: returns once the snapshot is terminal (completed, failed,
   * aborted or expired; none of those is an error). Store notifications only trigger a re-read; the
   * wait also re-reads every heartbeat interval while subscribed, so an expired worker ends it, and
   * every poll interval without a subscription. Up to three transient failures in a row are
   * tolerated, each followed by a re-read after the poll interval; NOT_FOUND, INVALID_ARGUMENT and
   * FAILED_PRECONDITION end the wait at once. A subscription that fails counts as such a failure
   * and is made again before the next read, so a wait that starts during a brief outage rides it
   * out as reads do. A read that takes longer than {@code waitReadTimeout} is given up and counts
   * as a transient failure. An aborted row whose worker is still saving its progress is not settled
   * yet: the wait returns when the worker's last write lands (read every poll interval, since that
   * write leaves the status as it was), or when it stops beating.
   *
   * @throws BatonException {@code CANCELLED} when the caller's context is cancelled
   */
  SessionSnapshot waitFor(ActionContext context, GetSnapshotRequest request) {
    String snapshotId = emptyToNull(request.snapshotId());
    if (snapshotId == null) {
      throw BatonException.invalidArgument("waitForSnapshot: snapshotId is required");
    }
    StatusSubscription subscription = null;
    // Rung by a status notification; a fresh one is hung before each read, so a change between the
    // read and the wait after it cuts that wait short.
    AtomicReference<CountDownLatch> bell = new AtomicReference<>(new CountDownLatch(1));
    try {
      int failures = 0;
      // An aborted row whose worker is saving its progress changes only its finish reason when the
      // save lands, which no status notification reports: poll it at the poll interval.
      boolean aborting = false;
      Instant lastProgressLog = timing.now();
      for (boolean first = true; ; first = false) {
        if (!first) {
          boolean notified = subscription != null && !subscription.isEnded();
          Duration pause =
              notified && failures == 0 && !aborting
                  ? options.heartbeatInterval()
                  : options.waitPollInterval();
          timing.pause(context.cancellation(), pause, bell.get());
        }
        bell.set(new CountDownLatch(1));
        SessionSnapshot row;
        try {
          // Subscribed before the read, so a change between the two cannot go unnoticed.
          if (subscription == null) {
            subscription = subscribe(context, snapshotId);
            subscription.listen(status -> bell.get().countDown());
          }
          row = boundedRead(context, request);
          failures = 0;
        } catch (RuntimeException e) {
          context.cancellation().throwIfCancelled();
          BatonException error = BatonException.from(e);
          if (Thread.currentThread().isInterrupted()) {
            throw error; // the waiting thread itself was interrupted: stop, do not retry
          }
          if (DEAD_ENDS.contains(error.status()) || ++failures > TRANSIENT_FAILURES_TOLERATED) {
            throw error;
          }
          log.debug(
              "waitForSnapshot: transient failure {}/{}",
              failures,
              TRANSIENT_FAILURES_TOLERATED,
              e);
          continue;
        }
        if (row.isSettled()) {
          return row;
        }
        // A shaped aborted row that has not settled is still being saved by a live worker.
        aborting = row.statusOrCompleted() == SnapshotStatus.ABORTED;
        Instant now = timing.now();
        if (Duration.between(lastProgressLog, now).compareTo(Duration.ofSeconds(30)) > 0) {
          log.info("agent {}: still waiting for snapshot {}", agent, row.snapshotId());
          lastProgressLog = now;
        }
      }
    } finally {
      if (subscription != null) {
        subscription.close();
      }
    }
  }

  /** The row's status changes, or an ended subscription when the store cannot notify. */
  private StatusSubscription subscribe(ActionContext context, String snapshotId) {
    return store instanceof SnapshotSubscriber subscriber
        ? subscriber.onSnapshotStatusChange(context, snapshotId)
        : StatusSubscription.ended();
  }

  /**
   * One read of a wait, given up after {@code waitReadTimeout} (30 s by default, Genkit's bound) so
   * a hung store connection becomes a transient failure rather than a wait that never ends. The
   * read runs on a virtual thread of the agent's Baton instance, interrupted when it is given up or
   * the caller cancels; a store that ignores interrupts keeps that thread until it answers.
   */
  private SessionSnapshot boundedRead(ActionContext context, GetSnapshotRequest request) {
    FutureTask<SessionSnapshot> read = new FutureTask<>(() -> get(context, request));
    lifecycle.start("baton-wait-read", read);
    Duration bound = options.waitReadTimeout();
    try (var stop = context.cancellation().onCancel(() -> read.cancel(true))) {
      return read.get(bound.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw BatonException.from(e.getCause() == null ? e : e.getCause());
    } catch (TimeoutException e) {
      read.cancel(true);
      throw BatonException.of(
          Status.DEADLINE_EXCEEDED, "reading the snapshot took longer than %s", bound);
    } catch (CancellationException e) {
      context.cancellation().throwIfCancelled();
      throw BatonException.from(e);
    } catch (InterruptedException e) {
      read.cancel(true);
      Thread.currentThread().interrupt();
      throw BatonException.from(e);
    }
  }

  /** Shapes a row for a client; a failing state transform fails the read with its status. */
  SessionSnapshot shape(SessionSnapshot row) {
    SessionSnapshot shaped = row.shaped(timing.now(), options.heartbeatTimeout());
    SessionState state = shaped.state();
    if (state == null) {
      return shaped;
    }
    UnaryOperator<SessionState> transform = options.stateTransform();
    SessionState view = transform == null ? state : transform.apply(state);
    return shaped.withState(view.withSessionId(row.sessionId()));
  }

  /**
   * A page of the agent's sessions, each shaped as its latest snapshot would be: a dead worker's
   * pending session reads {@code expired}, its aborted one settled.
   */
  SessionPage list(ActionContext context, SessionQuery query) {
    SessionPage page = store.listSessions(context, query);
    return new SessionPage(
        page.sessions().stream().map(this::shape).toList(), page.nextPageToken());
  }

  /**
   * A session's rows without their conversations, each shaped as {@link #shape} shapes a row but
   * for the state transform, which is written for whole states.
   */
  List<SessionSnapshot> rows(ActionContext context, String sessionId) {
    SnapshotRules.requireSessionId(sessionId);
    return store.listSnapshots(context, sessionId).stream()
        .map(row -> row.shaped(timing.now(), options.heartbeatTimeout()))
        .toList();
  }

  private SessionSummary shape(SessionSummary summary) {
    SessionSnapshot latest =
        SessionSnapshot.builder(summary.latestSnapshotId(), summary.createdAt())
            .heartbeatAt(summary.heartbeatAt())
            .status(summary.status())
            .finishReason(summary.finishReason())
            .build()
            .shaped(timing.now(), options.heartbeatTimeout());
    return summary.toBuilder()
        .status(latest.statusOrCompleted())
        .finishReason(latest.finishReason())
        .build();
  }

  private static @Nullable String emptyToNull(@Nullable String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
