package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.a2a.internal.wire.Artifact;
import dev.baton.a2a.internal.wire.DataPart;
import dev.baton.a2a.internal.wire.Message;
import dev.baton.a2a.internal.wire.Part;
import dev.baton.a2a.internal.wire.Parts;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.a2a.internal.wire.TaskStatus;
import dev.baton.a2a.internal.wire.TextPart;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.core.Action;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A2A 0.3 in Baton's terms, in one place, so that another version of the protocol is another
 * mapping rather than a rewrite:
 *
 * <ul>
 *   <li>a {@code contextId} is a Baton session ID, and a task ID the ID of the snapshot its first
 *       turn writes (a turn runs detached, so the ID exists from its start); the answers to its
 *       questions continue it in later rows, which {@link TaskChain} links;
 *   <li>a task's state is its snapshot's: {@code pending} is {@code working}, {@code aborted} is
 *       {@code canceled}, {@code failed} and {@code expired} are {@code failed}, and a completed
 *       turn that ended on an interrupt is {@code input-required};
 *   <li>parts map as {@link Parts} maps them, except an interrupt, which the client sees as a data
 *       part {@code {"interrupt": {"name", "input", "data"}}} naming what the agent asks;
 *   <li>a task's artifacts are those its turns created or changed (its session's artifacts less
 *       those held unchanged before its first turn), each named by its Baton name;
 *   <li>a status message is known by the row that wrote it ({@code <snapshot ID>-status}), never by
 *       the task.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
public final class TaskMapping {
  private TaskMapping() {}

  /** The A2A state of a snapshot as clients see it. */
  public static TaskState state(SessionSnapshot snapshot) {
    return switch (snapshot.statusOrCompleted()) {
      case PENDING -> TaskState.WORKING;
      case ABORTED -> TaskState.CANCELED;
      case FAILED, EXPIRED -> TaskState.FAILED;
      case COMPLETED ->
          snapshot.finishReason() == AgentFinishReason.INTERRUPTED
              ? TaskState.INPUT_REQUIRED
              : snapshot.finishReason() == AgentFinishReason.FAILED
                  ? TaskState.FAILED
                  : snapshot.finishReason() == AgentFinishReason.ABORTED
                      ? TaskState.CANCELED
                      : TaskState.COMPLETED;
    };
  }

  /**
   * A task as its latest row shows it ({@link TaskChain}). A running task carries no message yet; a
   * settled one carries the turn's last model message, or for a failed one the error's public
   * message. A task whose state is not its row's (an answer is on its way, or a cancel ended the
   * question) carries none: the row's message is the question, which no longer stands.
   *
   * @param taskId the task's ID, the snapshot of its first turn, whichever row is its latest
   * @param state the task's state, as its chain reads it
   * @param before the session's artifacts before the task's first turn
   * @param session the session's artifacts now: the latest row's, or for a running turn what it has
   *     made so far
   * @param historyFrom where the task's messages start in the row's: the count of its first row's
   *     parent
   */
  public static Task task(
      String taskId,
      SessionSnapshot row,
      TaskState state,
      List<dev.baton.agent.Artifact> before,
      List<dev.baton.agent.Artifact> session,
      int historyFrom) {
    // Every stored snapshot names its session; the fallback only satisfies the type.
    String contextId = Objects.requireNonNullElse(row.sessionId(), "");
    // Each round of the task has its own message, known by the row that wrote it: the same at
    // every read, and never the task's ID, which is its first row's.
    String messageId = row.snapshotId() + "-status";
    Message message = null;
    if (state == TaskState.FAILED) {
      message = agentText(messageId, taskId, contextId, failureText(row.error()));
    } else if (state == state(row) && row.status() != SnapshotStatus.PENDING) {
      message = lastModelMessage(messageId, taskId, contextId, row);
    }
    return new Task(
        taskId,
        contextId,
        new TaskStatus(state, message, row.updatedAt()),
        turnArtifacts(before, session),
        history(taskId, contextId, row, historyFrom),
        null);
  }

  /**
   * The task's user and agent messages, from its first on, each known by the task and its place in
   * it ({@code <task ID>-<index>}), the same at every read since a session only appends. A message
   * of no parts that travel (a tool call, only reasoning) is left out, since A2A requires parts.
   */
  private static List<Message> history(
      String taskId, String contextId, SessionSnapshot row, int historyFrom) {
    List<dev.baton.ai.Message> messages = row.state() == null ? List.of() : row.state().messages();
    List<Message> history = new ArrayList<>();
    for (int i = historyFrom; i < messages.size(); i++) {
      dev.baton.ai.Message message = messages.get(i);
      Message.Role role =
          switch (message.role()) {
            case USER -> Message.Role.USER;
            case MODEL -> Message.Role.AGENT;
            default -> null;
          };
      List<Part> parts = role == null ? List.of() : parts(message.content());
      if (role != null && !parts.isEmpty()) {
        history.add(
            new Message(
                role,
                parts,
                taskId + "-" + (i - historyFrom),
                taskId,
                contextId,
                null,
                null,
                null));
      }
    }
    return history;
  }

  /** A task with only the last {@code length} messages of its history; null keeps them all. */
  public static Task withHistoryLength(Task task, @Nullable Integer length) {
    List<Message> history = task.history();
    if (length == null || history == null || history.size() <= length) {
      return task;
    }
    return new Task(
        task.id(),
        task.contextId(),
        task.status(),
        task.artifacts(),
        history.subList(history.size() - length, history.size()),
        task.metadata());
  }

  /**
   * The artifacts turns created or changed, in session order: a named one that the session did not
   * hold as it is now before them, and an unnamed one past the earlier count, since unnamed
   * artifacts are only ever appended.
   */
  private static List<Artifact> turnArtifacts(
      List<dev.baton.agent.Artifact> before, List<dev.baton.agent.Artifact> session) {
    List<Artifact> artifacts = new ArrayList<>();
    for (int i = 0; i < session.size(); i++) {
      dev.baton.agent.Artifact artifact = session.get(i);
      boolean made = artifact.name() == null ? i >= before.size() : !before.contains(artifact);
      Artifact mapped = made ? artifact(artifact, i) : null;
      // A2A requires parts: an artifact of none that travel (only reasoning, say) stays here.
      if (mapped != null && !mapped.parts().isEmpty()) {
        artifacts.add(mapped);
      }
    }
    return artifacts;
  }

  /**
   * A Baton artifact as an A2A one: its name is its ID, since Baton names an artifact uniquely in
   * its session; an unnamed one is known by its place.
   */
  private static Artifact artifact(dev.baton.agent.Artifact artifact, int index) {
    String id = artifact.name() == null ? "artifact-" + index : artifact.name();
    return new Artifact(id, artifact.name(), null, parts(artifact.parts()), null, null);
  }

  /** A client's message as a Baton user message. */
  public static dev.baton.ai.Message userMessage(Message message) {
    List<dev.baton.ai.Part> content = Parts.toBaton(message.parts());
    if (content.isEmpty()) {
      throw BatonException.invalidArgument("the message has no parts");
    }
    return new dev.baton.ai.Message(Role.USER, content);
  }

  /**
   * What answers an interrupt: a message's one data part as it is, otherwise its text, as a JSON
   * string.
   */
  public static JsonNode interruptAnswer(Message message) {
    if (message.parts().size() == 1 && message.parts().getFirst() instanceof DataPart data) {
      return data.data();
    }
    StringBuilder text = new StringBuilder();
    for (Part part : message.parts()) {
      if (part instanceof TextPart t) {
        text.append(t.text());
      }
    }
    return Json.nodes().stringNode(text.toString());
  }

  /** The interrupted tool requests of a turn that ended on an interrupt, in order. */
  public static List<ToolRequestPart> interrupts(SessionSnapshot snapshot) {
    dev.baton.ai.Message last = lastModel(snapshot);
    return last == null
        ? List.of()
        : last.toolRequests().stream().filter(TaskMapping::isInterrupt).toList();
  }

  /**
   * The card of a served agent at {@code url}: one skill that is the agent itself, then one for
   * each of the tools named to it, and the security schemes its requests are authenticated by (any
   * one of them suffices).
   *
   * @param tools the tools the card lists as skills, each as registered
   * @param securitySchemes the schemes by name, in the specification's shapes; empty for none
   */
  public static AgentCard card(
      Agent agent,
      String name,
      String url,
      List<Action<?, ?, ?>> tools,
      Map<String, ObjectNode> securitySchemes) {
    String description = orElse(agent.description(), name);
    List<String> modes = List.of("text/plain", "application/json");
    List<AgentCard.Skill> skills = new ArrayList<>();
    skills.add(new AgentCard.Skill(name, name, description, List.of("baton"), null, null, null));
    for (Action<?, ?, ?> tool : tools) {
      String toolName = tool.name();
      skills.add(
          new AgentCard.Skill(
              toolName,
              toolName,
              orElse(tool.descriptor().description(), toolName),
              List.of("baton", "tool"),
              null,
              null,
              null));
    }
    return new AgentCard(
        AgentCard.PROTOCOL_VERSION,
        name,
        description,
        url,
        AgentCard.JSONRPC_TRANSPORT,
        "1.0.0",
        new AgentCard.Capabilities(true, false, false, null),
        modes,
        modes,
        skills,
        securitySchemes.isEmpty() ? null : securitySchemes,
        securitySchemes.isEmpty()
            ? null
            : securitySchemes.keySet().stream()
                .map(scheme -> Map.of(scheme, List.<String>of()))
                .toList(),
        null,
        null,
        null,
        null,
        null);
  }

  private static String orElse(@Nullable String text, String fallback) {
    return text == null || text.isEmpty() ? fallback : text;
  }

  private static List<Part> parts(List<dev.baton.ai.Part> parts) {
    return Parts.toA2a(parts, TaskMapping::a2aPart);
  }

  /** Parts as a client sees them: the shared mapping, and an interrupt as the question it asks. */
  private static @Nullable Part a2aPart(dev.baton.ai.Part part) {
    return part instanceof ToolRequestPart request && isInterrupt(request)
        ? new DataPart(interrupt(request), null)
        : Parts.toA2a(part);
  }

  private static ObjectNode interrupt(ToolRequestPart request) {
    ObjectNode interrupt = Json.object();
    interrupt.put("name", request.toolRequest().name());
    interrupt.set("input", request.toolRequest().input());
    ObjectNode metadata = request.metadata();
    interrupt.set("data", metadata == null ? null : metadata.get("interrupt"));
    ObjectNode part = Json.object();
    part.set("interrupt", interrupt);
    return part;
  }

  private static boolean isInterrupt(ToolRequestPart request) {
    ObjectNode metadata = request.metadata();
    return metadata != null && metadata.has("interrupt");
  }

  private static @Nullable Message lastModelMessage(
      String messageId, String taskId, String contextId, SessionSnapshot snapshot) {
    dev.baton.ai.Message last = lastModel(snapshot);
    List<Part> parts = last == null ? List.of() : parts(last.content());
    // A2A requires parts: an answer of none that travel (only reasoning, say) sends no message.
    return parts.isEmpty() ? null : Message.fromAgent(messageId, parts, taskId, contextId);
  }

  private static dev.baton.ai.@Nullable Message lastModel(SessionSnapshot snapshot) {
    if (snapshot.state() == null) {
      return null;
    }
    List<dev.baton.ai.Message> messages = snapshot.state().messages();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i).role() == Role.MODEL) {
        return messages.get(i);
      }
      if (messages.get(i).role() == Role.USER) {
        return null;
      }
    }
    return null;
  }

  private static Message agentText(String messageId, String taskId, String contextId, String text) {
    return Message.fromAgent(messageId, List.of(new TextPart(text, null)), taskId, contextId);
  }

  /** A failure's message when it is meant for clients, else its status's generic text. */
  private static String failureText(@Nullable ErrorInfo error) {
    if (error == null) {
      return "the task failed";
    }
    Status status = Status.fromName(error.status()).orElse(Status.UNKNOWN);
    return status == Status.INTERNAL || status == Status.UNKNOWN
        ? BatonException.genericMessage(status)
        : error.message();
  }
}
