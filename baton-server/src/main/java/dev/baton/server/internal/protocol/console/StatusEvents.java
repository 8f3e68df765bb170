package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.agent.LocalAgent;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The console's live events: an SSE stream with an {@code event: status} frame whenever a task the
 * principal can see changes status while it runs ({@code pending} or {@code aborting}).
 *
 * <p>Each second the stream lists the agents' pending sessions, to find tasks that started, and
 * subscribes to each new one's status in its store ({@link SnapshotSubscriber}), so that a change
 * (completed, failed, aborting, aborted) is sent as soon as the store reports it. A task whose
 * worker stops heartbeating changes no row: the same second's re-read of every watched task shows
 * it {@code expired}, as an agent's reads do. A task stops being watched once it has settled.
 *
 * <p>The stream ends when the client goes away or the server shuts down. Not thread-safe: one per
 * request, except that subscriptions wake it from the stores' threads.
 */
final class StatusEvents {
  private static final Logger log = LoggerFactory.getLogger(StatusEvents.class);
  private static final Duration TICK = Duration.ofSeconds(1);
  private static final long KEEP_ALIVE_TICKS = 15;
  private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

  private record Task(String agent, String snapshotId) {}

  private static final class Watched {
    private final String sessionId;
    private final @Nullable StatusSubscription subscription;
    private String status = "";

    Watched(String sessionId, @Nullable StatusSubscription subscription) {
      this.sessionId = sessionId;
      this.subscription = subscription;
    }
  }

  private final Map<String, LocalAgent> agents;
  private final ActionContext context;
  private final Transport transport;
  private final Cancellation cancellation;
  private final BooleanSupplier draining;
  private final Map<Task, Watched> watched = new HashMap<>();
  // Settled tasks still listed pending: a dead worker's row stays pending in its store, and is not
  // watched again.
  private final Set<Task> settled = new HashSet<>();
  private final LinkedBlockingQueue<Task> changed = new LinkedBlockingQueue<>();

  StatusEvents(
      Map<String, LocalAgent> agents,
      ActionContext context,
      Transport transport,
      Cancellation cancellation,
      BooleanSupplier draining) {
    this.agents = agents;
    this.context = context;
    this.transport = transport;
    this.cancellation = cancellation;
    this.draining = draining;
  }

  /** Streams until the client goes or the server drains, then ends the answer. */
  void run() {
    Throwable failure = null;
    try {
      transport.setStatus(200);
      transport.setHeader("Content-Type", "text/event-stream");
      transport.setHeader("Cache-Control", "no-store");
      transport.setHeader("X-Accel-Buffering", "no");
      Answers.secure(transport);
      transport.write(new byte[0], false);
      transport.watchClient(cancellation::cancel);
      // A wake-up for the wait below, which is not a task.
      Cancellation.Registration wake = cancellation.onCancel(() -> changed.offer(new Task("", "")));
      try {
        stream();
      } finally {
        wake.close();
      }
      transport.write(new byte[0], true);
    } catch (IOException | InterruptedException gone) {
      failure = gone;
      if (gone instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    } finally {
      watched.values().forEach(StatusEvents::unsubscribe);
      transport.complete(failure, transport.stopWatching());
    }
  }

  private void stream() throws IOException, InterruptedException {
    long ticks = 0;
    while (!cancellation.isCancelled() && !draining.getAsBoolean()) {
      discover();
      for (Task task : Set.copyOf(watched.keySet())) {
        check(task);
      }
      if (++ticks % KEEP_ALIVE_TICKS == 0) {
        transport.write(KEEP_ALIVE, false);
      }
      Task woken = changed.poll(TICK.toMillis(), TimeUnit.MILLISECONDS);
      Set<Task> woke = new HashSet<>();
      while (woken != null) {
        woke.add(woken);
        woken = changed.poll();
      }
      for (Task task : woke) {
        if (watched.containsKey(task)) {
          check(task);
        }
      }
    }
  }

  /**
   * Watches the pending tasks not watched yet, and forgets the settled tasks no longer listed
   * pending, so that the stream keeps only what its stores still list.
   */
  private void discover() throws IOException {
    Set<Task> listed = new HashSet<>();
    for (Map.Entry<String, LocalAgent> entry : agents.entrySet()) {
      String agent = entry.getKey();
      for (SessionSummary session : pendingSessions(agent, entry.getValue())) {
        Task task = new Task(agent, session.latestSnapshotId());
        listed.add(task);
        if (!watched.containsKey(task) && !settled.contains(task)) {
          watched.put(task, new Watched(session.sessionId(), subscribe(entry.getValue(), task)));
          check(task);
        }
      }
    }
    settled.retainAll(listed);
  }

  private Iterable<SessionSummary> pendingSessions(String agent, LocalAgent local) {
    try {
      return local
          .snapshots(context)
          .sessions(
              SessionQuery.firstPage()
                  .withStatus(SnapshotStatus.PENDING)
                  .withLimit(SessionQuery.MAX_LIMIT))
          .sessions();
    } catch (BatonException e) {
      if (e.status() != Status.UNIMPLEMENTED && e.status() != Status.FAILED_PRECONDITION) {
        throw e;
      }
      log.debug("agent {} cannot list its sessions: no live events for it", agent, e);
      return Set.of();
    }
  }

  private @Nullable StatusSubscription subscribe(LocalAgent agent, Task task) {
    SessionStore store = agent.store();
    if (!(store instanceof SnapshotSubscriber subscriber)) {
      return null;
    }
    StatusSubscription subscription = subscriber.onSnapshotStatusChange(context, task.snapshotId());
    subscription.listen(status -> changed.offer(task));
    return subscription;
  }

  /** Sends the task's status when it changed; stops watching it once it has settled. */
  private void check(Task task) throws IOException {
    Watched watch = watched.get(task);
    LocalAgent agent = agents.get(task.agent());
    if (watch == null || agent == null) {
      return;
    }
    AgentSnapshots snapshots = agent.snapshots(context);
    String status;
    try {
      SessionSnapshot row = snapshots.get(task.snapshotId());
      status = Views.status(row);
    } catch (BatonException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
      unsubscribe(watched.remove(task));
      return;
    }
    if (!status.equals(watch.status)) {
      watch.status = status;
      send(task, watch.sessionId, status);
    }
    if (!Views.isLive(status)) {
      settled.add(task);
      unsubscribe(watched.remove(task));
    }
  }

  private void send(Task task, String sessionId, String status) throws IOException {
    ObjectNode data = Json.object();
    data.put("agent", task.agent());
    data.put("sessionId", sessionId);
    data.put("snapshotId", task.snapshotId());
    data.put("status", status);
    // Jackson writes a tree on one line, escaping line breaks inside strings.
    byte[] frame =
        ("event: status\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8);
    transport.write(frame, false);
  }

  private static void unsubscribe(@Nullable Watched watch) {
    if (watch != null && watch.subscription != null) {
      watch.subscription.close();
    }
  }
}
