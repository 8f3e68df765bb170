package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.Message;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Part;
import dev.baton.ai.Resume;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A2A's task operations on one agent, under one request's context (its principal and cancellation).
 * Every message starts a detached turn, so a task exists, and reads as {@code working}, from the
 * moment it is sent; waiting for it is waiting for its snapshot to settle.
 */
final class AgentTasks {
  private final Agent agent;
  private final ActionContext context;
  private final AgentSnapshots snapshots;

  AgentTasks(Agent agent, ActionContext context) {
    this.agent = agent;
    this.context = context;
    this.snapshots = agent.snapshots(context);
  }

  /**
   * Starts the turn a message asks for: a new session, the next turn of its context, or the answer
   * to the interrupt of the task it names.
   *
   * @return the ID of the new task
   */
  String start(Message message) {
    AgentInit init;
    AgentInput input;
    if (message.taskId() != null) {
      SessionSnapshot asked = find(message.taskId());
      if (message.contextId() != null && !message.contextId().equals(asked.sessionId())) {
        throw BatonException.invalidArgument("the task is not in the message's context");
      }
      if (TaskMapping.state(asked) != TaskState.INPUT_REQUIRED || isAnswered(asked)) {
        throw new NotContinuable();
      }
      init = AgentInit.ofSnapshot(asked.snapshotId());
      input = AgentInput.resume(answer(asked, message));
    } else {
      init = message.contextId() == null ? AgentInit.NEW : AgentInit.ofSession(message.contextId());
      input = AgentInput.of(TaskMapping.userMessage(message));
    }
    AgentOutput output = agent.run(context, input.withDetach(true), init, chunk -> {});
    if (output.isFailed() && output.error() != null) {
      // A refused detach or resume names the last good snapshot: not a task this message started.
      throw output.error().toException();
    }
    if (output.snapshotId() == null) {
      throw BatonException.internal("a detached turn answered without its snapshot", null);
    }
    return output.snapshotId();
  }

  /** The task as it stands now. */
  Task get(String taskId) {
    return TaskMapping.task(find(taskId));
  }

  /** Waits for the task to settle: to end, or to need input. */
  Task await(String taskId) {
    return TaskMapping.task(snapshots.waitFor(taskId));
  }

  /**
   * Cancels a running task (Baton's abort): it reads {@code canceled} from now on, and its worker
   * saves what it did.
   */
  Task cancel(String taskId) {
    SessionSnapshot before = find(taskId);
    if (before.status() != SnapshotStatus.PENDING) {
      throw new NotCancelable();
    }
    SnapshotStatus after = snapshots.abort(taskId);
    if (after == null) {
      throw BatonException.notFound("no such task");
    }
    return get(taskId);
  }

  /**
   * Whether the session went on from the task: its answer (or any later message in its context)
   * started a newer turn, so answering it again would run its tools a second time.
   */
  private boolean isAnswered(SessionSnapshot asked) {
    String sessionId = asked.sessionId();
    SessionSnapshot latest = sessionId == null ? null : snapshots.latest(sessionId);
    return latest != null && !latest.snapshotId().equals(asked.snapshotId());
  }

  private SessionSnapshot find(String taskId) {
    if (taskId.isEmpty()) {
      throw BatonException.notFound("no such task");
    }
    return snapshots.get(taskId);
  }

  private static Resume answer(SessionSnapshot asked, Message message) {
    List<ToolRequestPart> interrupts = TaskMapping.interrupts(asked);
    JsonNode answer = TaskMapping.interruptAnswer(message);
    ToolResponsePart[] responses =
        interrupts.stream()
            .map(
                request ->
                    Part.toolResponse(
                        request.toolRequest().name(), request.toolRequest().ref(), answer))
            .toArray(ToolResponsePart[]::new);
    return Resume.respond(responses);
  }

  /**
   * A message for a task that is not waiting for input, or whose input was given: A2A's invalid
   * request.
   */
  static final class NotContinuable extends BatonException {
    private static final long serialVersionUID = 1L;

    NotContinuable() {
      super(Status.FAILED_PRECONDITION, "the task is not waiting for input");
    }
  }

  /** A cancel of a task that is over: A2A's task-not-cancelable. */
  static final class NotCancelable extends BatonException {
    private static final long serialVersionUID = 1L;

    NotCancelable() {
      super(Status.FAILED_PRECONDITION, "the task is not running, so it cannot be canceled");
    }
  }
}
