package dev.baton.a2a.internal.client;

import dev.baton.a2a.internal.wire.Message;
import dev.baton.a2a.internal.wire.Part;
import dev.baton.a2a.internal.wire.Parts;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.DataPart;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/**
 * How an A2A 0.3 agent's tasks read as Baton's snapshots and outputs, and Baton's messages as A2A
 * messages. A task is a snapshot of the session its {@code contextId} names:
 *
 * <ul>
 *   <li>{@code submitted}, {@code working}: {@code pending};
 *   <li>{@code completed}: {@code completed}, its answer the status message (or the last agent
 *       message of its history);
 *   <li>{@code input-required}: {@code completed} with the agent's question as its answer, so that
 *       the orchestrator reads the question and answers it by continuing the task; a question put
 *       in data parts only (a Baton agent's interrupt) has their JSON as its text too, since an
 *       orchestrator's model reads a sub-agent's answer as text;
 *   <li>{@code failed}, {@code rejected}, {@code auth-required} and any state Baton does not know:
 *       {@code failed}, with the status message's text as the error;
 *   <li>{@code canceled}: {@code aborted}, settled.
 * </ul>
 *
 * <p>Parts map as {@link Parts} maps them.
 */
final class TaskTranslation {
  private TaskTranslation() {}

  /** Whether the task has stopped running: terminal, or waiting for input. */
  static boolean isSettled(Task task) {
    return isSettled(task.status().state());
  }

  /** Whether a task in this state has stopped running: terminal, or waiting for input. */
  static boolean isSettled(TaskState state) {
    return state != TaskState.SUBMITTED && state != TaskState.WORKING;
  }

  /** The task as a snapshot of its context. */
  static SessionSnapshot snapshot(Task task, Instant now) {
    Instant at = Objects.requireNonNullElse(task.status().timestamp(), now);
    SessionSnapshot.Builder row =
        SessionSnapshot.builder(task.id(), at).sessionId(task.contextId()).state(state(task));
    return switch (task.status().state()) {
      case SUBMITTED, WORKING -> row.status(SnapshotStatus.PENDING).heartbeatAt(at).build();
      case COMPLETED, INPUT_REQUIRED ->
          row.status(SnapshotStatus.COMPLETED).finishReason(AgentFinishReason.STOP).build();
      case CANCELED ->
          row.status(SnapshotStatus.ABORTED).finishReason(AgentFinishReason.ABORTED).build();
      case FAILED, REJECTED, AUTH_REQUIRED, UNKNOWN ->
          row.status(SnapshotStatus.FAILED)
              .finishReason(AgentFinishReason.FAILED)
              .error(failure(task))
              .build();
    };
  }

  /** A settled task as a turn's output; a running one as a detached turn's. */
  static AgentOutput output(Task task) {
    return switch (task.status().state()) {
      case SUBMITTED, WORKING -> AgentOutput.detached(task.contextId(), task.id());
      case COMPLETED, INPUT_REQUIRED ->
          AgentOutput.of(
              task.contextId(), task.id(), AgentFinishReason.STOP, answer(task), artifacts(task));
      case CANCELED ->
          AgentOutput.aborted(
              task.contextId(),
              task.id(),
              answer(task),
              artifacts(task),
              ErrorInfo.of(Status.ABORTED, "the A2A task was canceled"));
      case FAILED, REJECTED, AUTH_REQUIRED, UNKNOWN ->
          AgentOutput.failed(task.contextId(), task.id(), failure(task));
    };
  }

  /** An agent's direct answer, without a task: a completed turn that leaves no snapshot. */
  static AgentOutput output(Message message, @Nullable String sentContextId) {
    String contextId = message.contextId() != null ? message.contextId() : sentContextId;
    if (contextId == null || contextId.isEmpty()) {
      throw new BatonException(
          Status.UNAVAILABLE, "the A2A agent answered with a message outside any context");
    }
    return AgentOutput.of(contextId, null, AgentFinishReason.STOP, baton(message), List.of());
  }

  /**
   * Baton's message as the user's A2A message.
   *
   * @param contextId the context it continues, or null for a new one
   * @param taskId the task it answers (one waiting for input), or null
   * @param referenceTaskId a settled task it follows, or null
   */
  static Message a2a(
      dev.baton.ai.Message message,
      @Nullable String contextId,
      @Nullable String taskId,
      @Nullable String referenceTaskId) {
    List<Part> parts = Parts.toA2a(message.content());
    if (parts.isEmpty()) {
      throw BatonException.invalidArgument(
          "the message has no text, media or data for an A2A agent");
    }
    return new Message(
        Message.Role.USER,
        parts,
        UUID.randomUUID().toString(),
        taskId,
        contextId,
        referenceTaskId == null ? null : List.of(referenceTaskId),
        null,
        null);
  }

  /** The last user message of the task's history, to send again, or null. */
  static dev.baton.ai.@Nullable Message lastUserMessage(Task task) {
    dev.baton.ai.Message last = null;
    for (Message message : history(task)) {
      if (message.role() == Message.Role.USER) {
        last = baton(message);
      }
    }
    return last;
  }

  private static dev.baton.ai.Message baton(Message message) {
    Role role = message.role() == Message.Role.USER ? Role.USER : Role.MODEL;
    return new dev.baton.ai.Message(role, Parts.toBaton(message.parts()));
  }

  /** The answer: the status message, or the last agent message of the history; null for none. */
  private static dev.baton.ai.@Nullable Message answer(Task task) {
    if (task.status().message() != null) {
      return status(task);
    }
    dev.baton.ai.Message last = null;
    for (Message message : history(task)) {
      if (message.role() == Message.Role.AGENT) {
        last = baton(message);
      }
    }
    return last;
  }

  /**
   * The status message; that of a task waiting for input, when it says nothing in text, followed by
   * its data parts' JSON as text, or the question would not reach an orchestrator's model.
   */
  private static dev.baton.ai.@Nullable Message status(Task task) {
    Message status = task.status().message();
    if (status == null) {
      return null;
    }
    dev.baton.ai.Message message = baton(status);
    if (task.status().state() != TaskState.INPUT_REQUIRED || !message.text().isBlank()) {
      return message;
    }
    List<dev.baton.ai.Part> parts = new ArrayList<>(message.content());
    for (dev.baton.ai.Part part : message.content()) {
      if (part instanceof DataPart data) {
        parts.add(dev.baton.ai.Part.text(Json.write(data.data())));
      }
    }
    return new dev.baton.ai.Message(message.role(), parts);
  }

  private static List<Artifact> artifacts(Task task) {
    List<Artifact> artifacts = new ArrayList<>();
    if (task.artifacts() != null) {
      for (dev.baton.a2a.internal.wire.Artifact artifact : task.artifacts()) {
        artifacts.add(Artifact.of(artifact.name(), Parts.toBaton(artifact.parts())));
      }
    }
    return artifacts;
  }

  private static List<Message> history(Task task) {
    return task.history() == null ? List.of() : task.history();
  }

  /**
   * The session as the task shows it: its history, then its status message when the history does
   * not hold it already, and its artifacts.
   */
  private static SessionState state(Task task) {
    List<dev.baton.ai.Message> messages = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Message message : history(task)) {
      seen.add(message.messageId());
      messages.add(baton(message));
    }
    Message status = task.status().message();
    if (status != null && !seen.contains(status.messageId())) {
      messages.add(Objects.requireNonNull(status(task)));
    }
    return SessionState.empty()
        .withSessionId(task.contextId())
        .withMessages(messages)
        .withArtifacts(artifacts(task));
  }

  private static ErrorInfo failure(Task task) {
    Message status = task.status().message();
    String text = status == null ? "" : baton(status).text();
    String said = text.isBlank() ? "" : ": " + text;
    return switch (task.status().state()) {
      case FAILED -> ErrorInfo.of(Status.UNKNOWN, text.isBlank() ? "the A2A task failed" : text);
      case REJECTED ->
          ErrorInfo.of(Status.FAILED_PRECONDITION, "the agent rejected the task" + said);
      case AUTH_REQUIRED ->
          ErrorInfo.of(Status.UNAUTHENTICATED, "the agent asks for authentication" + said);
      default -> ErrorInfo.of(Status.UNKNOWN, "the A2A task ended in an unknown state" + said);
    };
  }
}
