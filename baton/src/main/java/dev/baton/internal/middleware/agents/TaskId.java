package dev.baton.internal.middleware.agents;

import dev.baton.core.BatonException;
import java.util.Collection;
import org.jspecify.annotations.Nullable;

/**
 * A background task's ID, {@code <agent>:<snapshotId>}: the sub-agent and the snapshot that tracks
 * the task. The ID is self-contained, so a conversation's history is enough to find its tasks.
 *
 * @param agent the sub-agent's name
 * @param snapshotId the snapshot of the sub-agent's session that tracks the task
 */
record TaskId(String agent, String snapshotId) {

  /**
   * Parses an ID against the configured agents: the longest agent name followed by {@code :}, so a
   * name that itself contains {@code :} still works, then a non-empty snapshot ID.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when no configured agent matches
   */
  static TaskId parse(String id, Collection<String> agents) {
    String match = null;
    for (String agent : agents) {
      if (id.length() > agent.length() + 1
          && id.startsWith(agent)
          && id.charAt(agent.length()) == ':'
          && (match == null || agent.length() > match.length())) {
        match = agent;
      }
    }
    if (match == null) {
      throw BatonException.invalidArgument(
          "task ID \"%s\" does not match any configured agent (expected \"<agent>:<snapshotId>\")",
          id);
    }
    return new TaskId(match, id.substring(match.length() + 1));
  }

  /** The ID of the task a run of {@code agent} left in {@code snapshotId}, or null without one. */
  static @Nullable String of(String agent, @Nullable String snapshotId) {
    return snapshotId == null || snapshotId.isEmpty() ? null : agent + ":" + snapshotId;
  }

  @Override
  public String toString() {
    return agent + ":" + snapshotId;
  }
}
