package dev.baton.internal.middleware.agents;

import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The background tasks one conversation may act on: those this generate call minted, and those a
 * delegation or {@code continue_task} result in the request's history carries. There is no task
 * registry: the history is the record, so an orchestrator rebuilt from scratch finds its tasks in
 * it, and text that merely mentions a task ID (a sub-agent's answer, a retrieved document) cannot
 * steer the tools at another conversation's task. Each task keeps the label it was launched with.
 *
 * <p>Thread-safe: the tools of one turn run in parallel.
 */
final class TaskScope {
  /** A task of this conversation, with the label it was launched with, if any. */
  record Known(@Nullable String label) {}

  private final Set<String> resultTools;
  private final Map<String, Known> minted = new ConcurrentHashMap<>();
  private volatile List<Message> history = List.of();
  // The tasks the history carries, read once per history the model is sent.
  private volatile @Nullable Map<String, Known> fromHistory;
  // The tasks the history's tool results report settled, read once per history too.
  private volatile @Nullable Set<String> settledInHistory;

  /**
   * @param resultTools the names of the tools whose results carry task IDs: this instance's
   *     delegation tools and its continue tool
   */
  TaskScope(Set<String> resultTools) {
    this.resultTools = Set.copyOf(resultTools);
  }

  /** Takes the conversation the current model call was sent as the record of earlier tasks. */
  @SuppressWarnings("ReferenceEquality") // the same list object, which is cheaper to tell
  void see(List<Message> messages) {
    if (messages != history) {
      history = messages;
      fromHistory = null;
      settledInHistory = null;
    }
  }

  /** The conversation the current model call was sent. */
  List<Message> history() {
    return history;
  }

  /** Records a task this call started, under its label. */
  void mint(String taskId, @Nullable String label) {
    minted.put(taskId, new Known(label));
  }

  /** The task if this conversation knows it, or null. */
  @Nullable Known find(String taskId) {
    Known known = minted.get(taskId);
    return known != null ? known : historyTasks().get(taskId);
  }

  /** The tasks the history's delegation and continue results carry, in no particular order. */
  Set<String> historyTaskIds() {
    return historyTasks().keySet();
  }

  /**
   * Whether a tool result in the conversation the current model call was sent reports the task
   * settled already: a report from a check or wait, or a delegation's own result.
   */
  boolean reportedSettled(String taskId) {
    Set<String> settled = settledInHistory;
    if (settled == null) {
      settled = reportedSettled(history);
      settledInHistory = settled;
    }
    return settled.contains(taskId);
  }

  /**
   * The tasks that tool results in {@code messages} report settled (completed, failed, aborted or
   * expired): a delegation or continue result's own status, or an entry of a report's {@code
   * tasks}.
   */
  static Set<String> reportedSettled(List<Message> messages) {
    Set<String> settled = new HashSet<>();
    for (Message message : messages) {
      if (message.role() != Role.TOOL) {
        continue;
      }
      for (ToolResponsePart part : message.toolResponses()) {
        JsonNode output = part.toolResponse().output();
        if (output == null) {
          continue;
        }
        if (isSettled(output.path("status").asString(null)) && output.path("taskId").isString()) {
          settled.add(output.path("taskId").asString());
        }
        for (JsonNode report : output.path("tasks")) {
          if (isSettled(report.path("status").asString(null))) {
            settled.add(report.path("taskId").asString());
          }
        }
      }
    }
    return settled;
  }

  private static boolean isSettled(@Nullable String status) {
    return status != null
        && switch (status) {
          case "completed", "failed", "aborted", "expired" -> true;
          default -> false;
        };
  }

  private Map<String, Known> historyTasks() {
    Map<String, Known> tasks = fromHistory;
    if (tasks == null) {
      tasks = new HashMap<>();
      for (Message message : history) {
        if (message.role() != Role.TOOL) {
          continue;
        }
        for (ToolResponsePart part : message.toolResponses()) {
          ToolResponse response = part.toolResponse();
          if (!resultTools.contains(response.name())) {
            continue;
          }
          JsonNode output = response.output();
          if (output != null && output.path("taskId").isString()) {
            tasks.put(
                output.path("taskId").asString(), new Known(output.path("name").asString(null)));
          }
        }
      }
      fromHistory = tasks;
    }
    return tasks;
  }
}
