package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.SessionSnapshot;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateParams;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.middleware.agents.TaskMessages.Report;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

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
   * What the first model call of a turn hears of the tasks that settled: with forwarded interrupts
   * ({@link Agents#forwardInterrupts}), a task that stopped on a question asks it. The middleware
   * answers the model call itself with a check of those tasks ({@link #ask}), so the turn ends
   * interrupted on the check as if the model had made it; the other tasks are noticed when the
   * answered turn calls the model.
   *
   * @param answering whether the call resumes the conversation with answers, which it must give
   *     before anything asks again
   */
  Noticed notice(ActionContext context, GenerateParams params, TaskScope scope, boolean answering) {
    Map<String, String> settled = settledSince(context, params.history(), scope);
    List<String> asking =
        answering
            ? List.of()
            : settled.entrySet().stream()
                .filter(e -> e.getValue().equals(Report.INTERRUPTED))
                .map(Map.Entry::getKey)
                .toList();
    return new Noticed(apply(params, settled), asking);
  }

  /**
   * The iteration a notice leaves, and the interrupted tasks whose questions end the turn.
   *
   * @param params the iteration, with the notice when something settled
   * @param asking the interrupted tasks to check at once, in order; empty when none asks
   */
  record Noticed(GenerateParams params, List<String> asking) {}

  /**
   * The model response the middleware gives in place of the first model call when tasks ask: a
   * check of them, whose report of the first interrupted task ends the turn interrupted.
   */
  ModelResponse ask(GenerateParams params, List<String> asking) {
    ObjectNode input = Json.object();
    ArrayNode ids = input.putArray("taskIds");
    asking.forEach(ids::add);
    Message check =
        new Message(
            Role.MODEL,
            List.of(
                Part.toolRequest(
                    DelegationSetup.sharedToolName(config, BackgroundTasks.CHECK), KEY, input)));
    return ModelResponse.of(check, FinishReason.STOP).withRequest(params.request());
  }

  /**
   * The iteration with a notice added to the turn's user message, in the history and in the
   * request, or the iteration as it was when nothing settled.
   */
  private GenerateParams apply(GenerateParams params, Map<String, String> settled) {
    List<Message> history = params.history();
    int turn = lastUserMessage(history);
    if (turn < 0 || settled.isEmpty()) {
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
      SessionSnapshot row = agent.snapshots(context).get(task.snapshotId());
      String status =
          switch (row.statusOrCompleted()) {
            case PENDING -> null;
            case EXPIRED -> "expired";
            case FAILED -> "failed";
            case ABORTED -> row.isSettled() ? "aborted" : null;
            case COMPLETED ->
                config.forwardInterrupts()
                        && InterruptForwarding.canForward(context, agent)
                        && InterruptForwarding.wrapTask(context, agent, task, row, null) != null
                    ? Report.INTERRUPTED
                    : TaskResults.completedStatus(row.finishReason());
          };
      return status;
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  /**
   * The tasks the history already says have settled: in a tool result, in a notice, or as the task
   * of a question the conversation was asked ({@link InterruptForwarding#routing}).
   */
  private Set<String> knownSettled(List<Message> history) {
    Set<String> settled = TaskScope.reportedSettled(history);
    for (Message message : history) {
      for (ToolRequestPart request : message.toolRequests()) {
        JsonNode routing =
            InterruptForwarding.routing(
                request.metadata() == null ? null : request.metadata().get("interrupt"));
        if (routing != null) {
          settled.add(routing.path("taskId").asString());
        }
      }
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
