package dev.baton.a2a.internal.server;

import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.Artifact;
import dev.baton.agent.BackgroundStream;
import dev.baton.internal.agent.LiveSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The tasks of one served agent whose turns run in this process, each with what its turn has made
 * so far: a turn runs detached, and its {@link Feed} follows it ({@link BackgroundStream}) until
 * its row is final, so that streams and reads see its artifacts as they appear. A task another
 * process runs has no feed here; its artifacts show once it settles.
 *
 * <p>Thread-safe.
 */
final class LiveTasks {
  private final ConcurrentHashMap<String, Feed> feeds = new ConcurrentHashMap<>();

  /** A feed for a turn about to start; {@linkplain Feed#register register} it under its task. */
  Feed open() {
    return new Feed();
  }

  /** The feed of a task whose turn runs here, or null. Callers check the principal first. */
  @Nullable Feed get(String taskId) {
    return feeds.get(taskId);
  }

  /**
   * A turn's artifacts as they appear, in the order its session took them. Its chunks arrive on the
   * turn's threads; a watcher hears of each change and reads the feed on its own thread.
   */
  final class Feed implements BackgroundStream {
    private final ReentrantLock lock = new ReentrantLock();
    private final List<Artifact> added = new ArrayList<>();
    private final List<Runnable> watchers = new CopyOnWriteArrayList<>();
    private @Nullable String taskId;
    private boolean ended;

    private Feed() {}

    @Override
    public void onChunk(AgentStreamChunk chunk) {
      Artifact artifact = chunk.artifact();
      if (artifact == null) {
        return;
      }
      lock.lock();
      try {
        added.add(artifact);
      } finally {
        lock.unlock();
      }
      watchers.forEach(Runnable::run);
    }

    @Override
    public void onEnd() {
      lock.lock();
      try {
        ended = true;
        if (taskId != null) {
          feeds.remove(taskId, this);
        }
      } finally {
        lock.unlock();
      }
      watchers.forEach(Runnable::run);
    }

    /** Files the feed under its task, unless the turn is already over. */
    void register(String taskId) {
      lock.lock();
      try {
        this.taskId = taskId;
        if (!ended) {
          feeds.put(taskId, this);
        }
      } finally {
        lock.unlock();
      }
    }

    /**
     * The session's artifacts now: {@code before} with the turn's added as the session adds them.
     */
    List<Artifact> session(List<Artifact> before) {
      lock.lock();
      try {
        List<Artifact> session = before;
        for (Artifact artifact : added) {
          session = LiveSession.merge(session, artifact);
        }
        return session;
      } finally {
        lock.unlock();
      }
    }

    /**
     * Runs {@code onChange} after each artifact the turn adds and once at its end, on the turn's
     * thread: it must be quick. Closing the watch stops it.
     */
    Watch watch(Runnable onChange) {
      watchers.add(onChange);
      return () -> watchers.remove(onChange);
    }
  }

  /** A watch of a feed, closed when the watcher is done. */
  interface Watch extends AutoCloseable {
    @Override
    void close();
  }
}
