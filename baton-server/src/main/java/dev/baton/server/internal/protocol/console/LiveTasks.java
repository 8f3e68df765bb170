package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionPage;
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
import java.util.ArrayList;
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
 * tasks its caller can see.
 *
 * <p>The streams of one caller (the same auth context: principal, tenant and whatever else a store
 * may scope by) share a {@link Watcher}: every {@link #LISTING} the poller lists, as that caller,
 * all the agents' pending sessions, page after page, to find tasks that started, and subscribes to
 * each new one's status in its store ({@link SnapshotSubscriber}), so that a change (completed,
 * failed, aborting, aborted) goes out as soon as the store reports it. A task whose worker stops
 * heartbeating changes no row: the re-read of every watched task each {@link #TICK} shows it {@code
 * expired}, as an agent's reads do. A task stops being watched once it has settled. The poller runs
 * while a stream is open: it ends when the last one leaves, which every stream does when the server
 * shuts down. A store failure is logged and tried again on the next pass; it ends no stream and
 * does not stop the poller.
 *
 * <p>Thread-safe.
 */
final class LiveTasks {
  private static final Logger log = LoggerFactory.getLogger(LiveTasks.class);

  /** How often the watched tasks are read again, to find the ones whose worker died. */
  private static final Duration TICK = Duration.ofSeconds(1);

  /**
   * How often the pending sessions are listed, to find the tasks that started: less often than the
   * re-reads, as the listing reads every pending session of every agent.
   */
  private static final Duration LISTING = Duration.ofSeconds(5);

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
  // Guarded by this: the watchers by their caller's auth context, and the poller while it runs.
  private final Map<Map<String, Object>, Watcher> watchers = new HashMap<>();
  private @Nullable Thread poller;

  /**
   * @param agents the agents whose tasks are shown, read again each second
   */
  LiveTasks(Registry registry, Supplier<Map<String, LocalAgent>> agents) {
    this.registry = registry;
    this.agents = agents;
  }

  /**
   * Sends {@code frames} the status frames of the tasks a caller of this auth context can see:
   * first the current status of each one running, then each change, until the returned handle is
   * closed. {@code frames} is called on the poller's thread and must not block.
   */
  Subscription subscribe(Map<String, ?> auth, Consumer<byte[]> frames) {
    Map<String, Object> key = Map.copyOf(auth);
    Watcher watcher;
    synchronized (this) {
      watcher = watchers.computeIfAbsent(key, Watcher::new);
      // Joined under this lock: a stream that leaves in between would close the watcher found.
      // Lock order is this, then the watcher's.
      watcher.join(frames);
      if (poller == null) {
        poller = Thread.ofVirtual().name("baton-console-events").start(this::poll);
      }
    }
    return () -> leave(key, watcher, frames);
  }

  private void leave(Map<String, Object> key, Watcher watcher, Consumer<byte[]> frames) {
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
            return;
          }
          active = List.copyOf(watchers.values());
        }
        try {
          pass(active);
        } catch (RuntimeException e) {
          // One failure ends no stream: the next pass tries again.
          log.warn("the console's live events could not read the running tasks", e);
        }
      }
    } catch (InterruptedException stopped) {
      Thread.currentThread().interrupt();
    } finally {
      // However the poller ends, the next stream to open starts another.
      synchronized (this) {
        if (poller == Thread.currentThread()) {
          poller = null;
        }
      }
    }
  }

  /** Re-reads each watcher's tasks, then waits up to a tick for the changes the stores report. */
  private void pass(List<Watcher> active) throws InterruptedException {
    long now = System.nanoTime();
    active.forEach(watcher -> watcher.tick(now));
    Set<Woken> changed = new HashSet<>();
    for (Woken next = woken.poll(TICK.toMillis(), TimeUnit.MILLISECONDS);
        next != null;
        next = woken.poll()) {
      changed.add(next);
    }
    changed.forEach(change -> change.watcher().check(change.task()));
  }

  /** The running tasks of one caller, and its open streams. */
  private final class Watcher {
    private final ActionContext context;
    private final List<Consumer<byte[]>> streams = new CopyOnWriteArrayList<>();
    // Read and written on the poller's thread, and read by join under this watcher's lock.
    private final Map<Task, Watched> watched = new LinkedHashMap<>();
    // Settled tasks still listed pending: a dead worker's row stays pending in its store, and is
    // not watched again.
    private final Set<Task> settled = new HashSet<>();
    private volatile boolean closed;
    // On the poller's thread: when the pending sessions are listed next (System.nanoTime), or
    // null for at once.
    private @Nullable Long nextListing;

    Watcher(Map<String, Object> auth) {
      this.context = ActionContext.root(registry).withAuth(auth);
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

    /**
     * Watches the tasks that started, when the listing is due, and re-reads each watched one.
     *
     * @param now {@link System#nanoTime} at the pass's start
     */
    synchronized void tick(long now) {
      if (closed) {
        return;
      }
      try {
        if (nextListing == null || now - nextListing >= 0) {
          nextListing = now + LISTING.toNanos();
          list();
        }
      } catch (RuntimeException e) {
        // The next listing tries again; the watched tasks are still read, and the streams stay
        // open.
        log.warn("the console could not list the running tasks", e);
      }
      Set.copyOf(watched.keySet()).forEach(this::check);
    }

    private void list() {
      Set<Task> listed = new HashSet<>();
      agents
          .get()
          .forEach(
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
    }

    /** Sends the task's status when it changed; stops watching it once it has settled. */
    synchronized void check(Task task) {
      Watched watch = watched.get(task);
      if (closed || watch == null) {
        return;
      }
      String status;
      try {
        LocalAgent agent = agents.get().get(task.agent());
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
      } catch (RuntimeException e) {
        // A store's own failure (a broken connection, say): the next re-read tries again.
        log.warn("the console could not read task {}", task, e);
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

    /** Every pending session of the agent the caller can see, read a page at a time. */
    private List<SessionSummary> pendingSessions(String agent, LocalAgent local) {
      try {
        AgentSnapshots snapshots = local.snapshots(context);
        List<SessionSummary> pending = new ArrayList<>();
        SessionQuery query =
            SessionQuery.firstPage()
                .withStatus(SnapshotStatus.PENDING)
                .withLimit(SessionQuery.MAX_LIMIT);
        while (true) {
          SessionPage page = snapshots.sessions(query);
          pending.addAll(page.sessions());
          if (page.nextPageToken() == null || page.sessions().isEmpty()) {
            return pending;
          }
          query = query.withPageToken(page.nextPageToken());
        }
      } catch (BatonException e) {
        if (e.status() != Status.UNIMPLEMENTED && e.status() != Status.FAILED_PRECONDITION) {
          throw e;
        }
        log.debug("agent {} cannot list its sessions: no live events for it", agent, e);
        return List.of();
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
