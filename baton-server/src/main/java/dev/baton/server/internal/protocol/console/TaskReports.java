package dev.baton.server.internal.protocol.console;

import dev.baton.agent.Agent;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionType;
import dev.baton.core.Registry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The sub-agent tasks a conversation's tool responses report. The Agents middleware answers each
 * delegation, each {@code continue_task} and each background report with the task's ID, {@code
 * <agent>:<snapshotId>}, so the tasks of a turn are the IDs in the tool responses of the messages
 * it added. Stateless.
 */
final class TaskReports {
  private TaskReports() {}

  /** A task as the orchestrator's tool responses report it. */
  record Reported(@Nullable String name, boolean background, @Nullable String status) {}

  /** The agent a task ID names, and the snapshot in that agent's store. */
  record Located(Agent agent, String snapshotId) {}

  /** The task IDs the tool responses report, in the order first reported, with what they say. */
  static Map<String, Reported> of(List<Message> messages) {
    Map<String, Reported> tasks = new LinkedHashMap<>();
    for (Message message : messages) {
      if (message.role() != Role.TOOL) {
        continue;
      }
      for (ToolResponsePart part : message.toolResponses()) {
        JsonNode output = part.toolResponse().output();
        if (output != null) {
          collect(output, tasks, 0);
        }
      }
    }
    return tasks;
  }

  /**
   * The agent of the registry a task ID names, and its snapshot, or null when no agent has the
   * name. The agent's name may itself hold ':': the longest name that exists wins.
   */
  static @Nullable Located locate(Registry registry, String taskId) {
    for (int at = taskId.lastIndexOf(':'); at > 0; at = taskId.lastIndexOf(':', at - 1)) {
      if (registry.lookup(ActionType.AGENT, taskId.substring(0, at)).orElse(null)
          instanceof Agent found) {
        return new Located(found, taskId.substring(at + 1));
      }
    }
    return null;
  }

  /**
   * Collects the objects with a {@code taskId} in a tool's output: the output itself (a
   * delegation's or continuation's result), or the reports in its arrays (a check or a wait).
   */
  private static void collect(JsonNode node, Map<String, Reported> tasks, int depth) {
    if (depth > 3) {
      return;
    }
    if (node.isArray()) {
      node.forEach(element -> collect(element, tasks, depth + 1));
      return;
    }
    if (!node.isObject()) {
      return;
    }
    JsonNode taskId = node.get("taskId");
    if (taskId != null && taskId.isString() && !taskId.asString().isEmpty()) {
      String status = node.path("status").isString() ? node.get("status").asString() : null;
      String name = node.path("name").isString() ? node.get("name").asString() : null;
      tasks.merge(
          taskId.asString(),
          // The first report of a task is its delegation's: pending there means background.
          new Reported(name, "pending".equals(status), status),
          (first, later) ->
              new Reported(
                  first.name() != null ? first.name() : later.name(),
                  first.background(),
                  later.status() != null ? later.status() : first.status()));
      return;
    }
    node.forEach(child -> collect(child, tasks, depth + 1));
  }
}
