package dev.baton.a2a.internal.client;

import dev.baton.core.ActionContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The A2A tasks this process started, each with the principal whose call started it. An A2A agent
 * reached with the same headers for every caller cannot tell Baton's principals apart, so this is
 * where they are kept apart: a caller sees only its own principal's tasks and contexts, as Baton's
 * own stores scope sessions.
 *
 * <p>Bounded: the least recently used entries are forgotten first, and a forgotten task is unknown
 * to every caller. Thread-safe.
 */
final class StartedTasks {
  // Enough for every conversation a process keeps going.
  private static final int REMEMBERED = 10_000;

  /**
   * Who started a task, or the latest task of a context, and that task's ID: null for a context
   * whose turns the agent answered with messages alone.
   */
  private record Started(@Nullable String principal, @Nullable String taskId) {
    boolean belongsTo(ActionContext context) {
      return Objects.equals(principal, context.principal().orElse(null));
    }
  }

  // Both guarded by this.
  private final Map<String, Started> byTask = lastUsedFirst();
  private final Map<String, Started> latestByContext = lastUsedFirst();

  /** Records a task that the caller's principal started (or continued) in the given context. */
  synchronized void record(ActionContext context, String taskId, String contextId) {
    Started started = new Started(context.principal().orElse(null), taskId);
    byTask.put(taskId, started);
    latestByContext.put(contextId, started);
  }

  /**
   * Records a context that the caller's principal used with a turn the agent answered with a
   * message, not a task: the context is the principal's, and its latest task, if any, stays.
   */
  synchronized void recordContext(ActionContext context, String contextId) {
    Started latest = latestByContext.get(contextId);
    if (latest == null || !latest.belongsTo(context)) {
      latestByContext.put(contextId, new Started(context.principal().orElse(null), null));
    }
  }

  /** Whether the caller's principal started the task. */
  synchronized boolean isVisible(ActionContext context, String taskId) {
    Started started = byTask.get(taskId);
    return started != null && started.belongsTo(context);
  }

  /** The latest task the caller's principal started in the context, or null. */
  synchronized @Nullable String latest(ActionContext context, String contextId) {
    Started started = latestByContext.get(contextId);
    return started != null && started.belongsTo(context) ? started.taskId() : null;
  }

  /** Whether another principal's tasks run in the context: the caller may not continue it. */
  synchronized boolean isOthers(ActionContext context, String contextId) {
    Started started = latestByContext.get(contextId);
    return started != null && !started.belongsTo(context);
  }

  private static Map<String, Started> lastUsedFirst() {
    return new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Started> eldest) {
        return size() > REMEMBERED;
      }
    };
  }
}
