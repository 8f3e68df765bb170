package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.ai.Metadata;
import dev.baton.middleware.agents.Agents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;

/**
 * Baton's settle notices ({@code notifySettled}): when a background task of the conversation has
 * settled since the conversation last heard of it, the first model call of the next turn gets a
 * short notice naming the task and its status, so the model need not poll. Each task is noticed
 * once: the notice is recorded in the conversation, as a text part of the turn's user message that
 * lists the tasks it names under {@value #KEY} in its metadata.
 *
 * <p>A task's settling is already known when a delegation or report in the history says it settled
 * (completed, failed, aborted, expired), or an earlier notice named it. The others are read, once
 * each, concurrently. Thread-safe.
 */
final class SettleNotices {
  static final String KEY = "backgroundTasksSettled";

  private final Agents config;
  private final Delegation delegation;

  SettleNotices(Agents config, Delegation delegation) {
    this.config = config;
    this.delegation = delegation;
  }

  /**
   * The iteration with a notice added to the turn's user message, in the history and in the
   * request, or the iteration as it was when nothing settled.
   */
  GenerateParams apply(ActionContext context, GenerateParams params, TaskScope scope) {
    List<Message> history = params.history();
    int turn = lastUserMessage(history);
    if (turn < 0) {
      return params;
    }
    Map<String, String> settled = settledSince(context, history, scope);
    if (settled.isEmpty()) {
      return params;
    }
    Message original = history.get(turn);
    Message noticed = withNotice(original, settled);
    List<Message> recorded = new ArrayList<>(history);
    recorded.set(turn, noticed);
    List<Message> sent = new ArrayList<>(params.request().messages());
    int inRequest = sent.indexOf(original);
    if (inRequest < 0) {
      return params;
    }
    sent.set(inRequest, noticed);
    return params.withHistory(recorded).withRequest(params.request().withMessages(sent));
  }

  /** The tasks of the conversation that settled since it last heard of them, with their status. */
  private Map<String, String> settledSince(
      ActionContext context, List<Message> history, TaskScope scope) {
    Set<String> known = knownSettled(history);
    List<String> open = new ArrayList<>();
    for (String id : scope.historyTaskIds()) {
      if (!known.contains(id)) {
        open.add(id);
      }
    }
    Map<String, String> settled = new ConcurrentHashMap<>();
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String id : open) {
        executor.execute(
            () -> {
              String status = statusOf(context, id);
              if (status != null) {
                settled.put(id, status);
              }
            });
      }
    }
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String id : open) {
      if (settled.containsKey(id)) {
        ordered.put(id, settled.get(id));
      }
    }
    return ordered;
  }

  /** The task's status when it has settled, or null while it runs or cannot be read. */
  private @Nullable String statusOf(ActionContext context, String id) {
    try {
      TaskId task = TaskId.parse(id, delegation.agentNames());
      Agent agent = AgentLookup.find(delegation.registry(), task.agent());
      SessionSnapshot row = agent.getSnapshot(context, task.snapshotId());
      String status =
          switch (row.statusOrCompleted()) {
            case PENDING -> null;
            case EXPIRED -> "expired";
            case FAILED -> "failed";
            case ABORTED -> row.isSettled() ? "aborted" : null;
            case COMPLETED -> TaskResults.completedStatus(row.finishReason());
          };
      return status;
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  /** The tasks the history already says have settled: in a tool result, or in a notice. */
  private Set<String> knownSettled(List<Message> history) {
    Set<String> settled = TaskScope.reportedSettled(history);
    for (Message message : history) {
      for (Part part : message.content()) {
        if (part instanceof TextPart text && text.metadata() != null) {
          text.metadata().path(KEY).valueStream().forEach(id -> settled.add(id.asString()));
        }
      }
    }
    return settled;
  }

  private Message withNotice(Message message, Map<String, String> settled) {
    StringBuilder text =
        new StringBuilder(
            "<background-tasks>\nThese background tasks have settled since you last heard of"
                + " them:\n");
    ArrayNode ids = Json.nodes().arrayNode();
    settled.forEach(
        (id, status) -> {
          text.append("  - ").append(id).append(": ").append(status).append('\n');
          ids.add(id);
        });
    text.append("Collect their results with ")
        .append(DelegationSetup.sharedToolName(config, BackgroundTasks.CHECK))
        .append(".\n</background-tasks>");
    List<Part> content = new ArrayList<>(message.content());
    content.add(new TextPart(text.toString(), Metadata.with(null, KEY, ids)));
    return message.withContent(content);
  }

  private static int lastUserMessage(List<Message> history) {
    for (int i = history.size() - 1; i >= 0; i--) {
      if (history.get(i).role() == Role.USER) {
        return i;
      }
    }
    return -1;
  }
}
