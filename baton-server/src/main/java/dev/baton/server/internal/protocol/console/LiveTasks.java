package dev.baton.server.internal.protocol.console;

import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SessionSummary;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.LocalAgent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The live statuses of the tasks the console's event streams show, found by one poller per console
 * however many streams are open, and sent to each stream as {@code event: status} frames for the
 * tasks its principal can see.
 *
 * <p>The streams of one principal share a {@link Watcher}: each second the poller lists, as that
 * principal, the agents' pending sessions, to find tasks that started, and subscribes to each new
 * one's status in its store ({@link SnapshotSubscriber}), so that a change (completed, failed,
 * aborting, aborted) goes out as soon as the store reports it. A task whose worker stops
 * heartbeating changes no row: the same second's re-read of every watched task shows it {@code
 * expired}, as an agent's reads do. A task stops being watched once it has settled. The poller runs
 * while a stream is open: it ends when the last one leaves, which every stream does when the server
 * shuts down.
 *
 * <p>Thread-safe.
 */
final class LiveTasks {
  private static final Logger log = LoggerFactory.getLogger(LiveTasks.class);
  private static final Duration TICK = Duration.ofSeconds(1);

  /** A stream's place among the subscribers; closing it leaves. */
  interface Subscription extends AutoCloseable {
    @Override
    void close();
  }

  private record Task(String agent, String snapshotId) {}

  /** A task whose status the store reported changed. */
  private record Woken(Watcher watcher, Task task) {}

  private final Registry registry;
  private final Supplier<Map<String, LocalAgent>> agents;
  private final LinkedBlockingQueue<Woken> woken = new LinkedBlockingQueue<>();
  // Guarded by this: the watchers by principal ("" for none), and the poller while it runs.
  private final Map<String, Watcher> watchers = new HashMap<>();
  private @Nullable Thread poller;

  /**
   * @param agents the agents whose tasks are shown, read again each second
   */
  LiveTasks(Registry registry, Supplier<Map<String, LocalAgent>> agents) {
    this.registry = registry;
    this.agents = agents;
  }

  /**
   * Sends {@code frames} the status frames of the tasks {@code principal} can see: first the
   * current status of each one running, then each change, until the returned handle is closed.
   * {@code frames} is called on the poller's thread and must not block.
   */
  Subscription subscribe(@Nullable String principal, Consumer<byte[]> frames) {
    String key = principal == null ? "" : principal;
    Watcher watcher;
    synchronized (this) {
      watcher = watchers.computeIfAbsent(key, k -> new Watcher(principal));
      if (poller == null) {
        poller = Thread.ofVirtual().name("baton-console-events").start(this::poll);
      }
    }
    watcher.join(frames);
    return () -> leave(key, watcher, frames);
  }

  private void leave(String key, Watcher watcher, Consumer<byte[]> frames) {
    boolean last;
    synchronized (this) {
      last = watcher.leave(frames);
      if (last) {
        watchers.remove(key, watcher);
      }
    }
    if (last) {
      watcher.close();
    }
  }

  private void poll() {
    try {
      while (true) {
        List<Watcher> active;
        synchronized (this) {
          if (watchers.isEmpty()) {
            poller = null;
            return;
          }
          active = List.copyOf(watchers.values());
        }
        active.forEach(Watcher::tick);
        Set<Woken> changed = new HashSet<>();
        for (Woken next = woken.poll(TICK.toMillis(), TimeUnit.MILLISECONDS);
            next != null;
            next = woken.poll()) {
          changed.add(next);
        }
        changed.forEach(change -> change.watcher().check(change.task()));
      }
    } catch (InterruptedException stopped) {
      synchronized (this) {
        poller = null;
      }
      Thread.currentThread().interrupt();
    }
  }

  /** The running tasks of one principal, and its open streams. */
  private final class Watcher {
    private final ActionContext context;
    private final List<Consumer<byte[]>> streams = new CopyOnWriteArrayList<>();
    // Read and written on the poller's thread, and read by join under this watcher's lock.
    private final Map<Task, Watched> watched = new LinkedHashMap<>();
    // Settled tasks still listed pending: a dead worker's row stays pending in its store, and is
    // not watched again.
    private final Set<Task> settled = new HashSet<>();
    private volatile boolean closed;

    Watcher(@Nullable String principal) {
      ActionContext root = ActionContext.root(registry);
      this.context =
          principal == null ? root : root.withAuth(Map.of(ActionContext.PRINCIPAL, principal));
    }

    synchronized void join(Consumer<byte[]> frames) {
      streams.add(frames);
      watched.forEach(
          (task, watch) -> {
            if (!watch.status.isEmpty()) {
              frames.accept(frame(task, watch.sessionId, watch.status));
            }
          });
    }

    /**
     * @return whether that was its last stream
     */
    boolean leave(Consumer<byte[]> frames) {
      streams.remove(frames);
      return streams.isEmpty();
    }

    synchronized void close() {
      closed = true;
      watched.values().forEach(Watched::unsubscribe);
      watched.clear();
    }

    /** Watches the tasks that started, and re-reads each watched one. */
    synchronized void tick() {
      if (closed) {
        return;
      }
      try {
        Map<String, LocalAgent> shown = agents.get();
        Set<Task> listed = new HashSet<>();
        shown.forEach(
            (agent, local) -> {
              for (SessionSummary session : pendingSessions(agent, local)) {
                Task task = new Task(agent, session.latestSnapshotId());
                listed.add(task);
                if (!watched.containsKey(task) && !settled.contains(task)) {
                  watched.put(task, new Watched(session.sessionId(), subscribe(local, task)));
                }
              }
            });
        settled.retainAll(listed);
        Set.copyOf(watched.keySet()).forEach(this::check);
      } catch (RuntimeException e) {
        // The next second tries again; the streams stay open.
        log.warn("the console could not read the running tasks", e);
      }
    }

    /** Sends the task's status when it changed; stops watching it once it has settled. */
    synchronized void check(Task task) {
      Watched watch = watched.get(task);
      LocalAgent agent = agents.get().get(task.agent());
      if (closed || watch == null) {
        return;
      }
      String status;
      try {
        if (agent == null) {
          throw BatonException.notFound("the console shows no agent \"%s\"", task.agent());
        }
        status = Views.status(agent.snapshots(context).get(task.snapshotId()));
      } catch (BatonException e) {
        if (e.status() != Status.NOT_FOUND) {
          log.warn("the console could not read task {}", task, e);
          return;
        }
        stopWatching(task);
        return;
      }
      if (!status.equals(watch.status)) {
        watch.status = status;
        byte[] frame = frame(task, watch.sessionId, status);
        streams.forEach(stream -> stream.accept(frame));
      }
      if (!Views.isLive(status)) {
        settled.add(task);
        stopWatching(task);
      }
    }

    private void stopWatching(Task task) {
      Watched watch = watched.remove(task);
      if (watch != null) {
        watch.unsubscribe();
      }
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
      StatusSubscription subscription =
          subscriber.onSnapshotStatusChange(context, task.snapshotId());
      subscription.listen(status -> woken.offer(new Woken(this, task)));
      return subscription;
    }
  }

  private static final class Watched {
    private final String sessionId;
    private final @Nullable StatusSubscription subscription;
    private String status = "";

    Watched(String sessionId, @Nullable StatusSubscription subscription) {
      this.sessionId = sessionId;
      this.subscription = subscription;
    }

    void unsubscribe() {
      if (subscription != null) {
        subscription.close();
      }
    }
  }

  private static byte[] frame(Task task, String sessionId, String status) {
    ObjectNode data = Json.object();
    data.put("agent", task.agent());
    data.put("sessionId", sessionId);
    data.put("snapshotId", task.snapshotId());
    data.put("status", status);
    // Jackson writes a tree on one line, escaping line breaks inside strings.
    return ("event: status\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8);
  }
}
