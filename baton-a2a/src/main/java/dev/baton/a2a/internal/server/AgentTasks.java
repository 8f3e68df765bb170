package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.Message;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.Artifact;
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
import org.jspecify.annotations.Nullable;
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
  private final LiveTasks live;

  AgentTasks(Agent agent, ActionContext context, LiveTasks live) {
    this.agent = agent;
    this.context = context;
    this.snapshots = agent.snapshots(context);
    this.live = live;
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
    LiveTasks.Feed feed = live.open();
    AgentOutput output = agent.run(context, input.withDetach(true), init, feed);
    if (output.isFailed() && output.error() != null) {
      // A refused detach or resume names the last good snapshot: not a task this message started.
      throw output.error().toException();
    }
    if (output.snapshotId() == null) {
      throw BatonException.internal("a detached turn answered without its snapshot", null);
    }
    feed.register(output.snapshotId());
    return output.snapshotId();
  }

  /**
   * The task as it stands now; a running one carries what its turn has made so far when it runs in
   * this process.
   */
  Task get(String taskId) {
    return task(find(taskId));
  }

  /** Waits for the task to settle: to end, or to need input. */
  Task await(String taskId) {
    return task(snapshots.waitFor(taskId));
  }

  /**
   * Watches the artifacts of a task whose turn runs in this process ({@link LiveTasks.Feed#watch}),
   * or does nothing for one that runs elsewhere or is over. The caller has read the task first, as
   * its principal.
   */
  LiveTasks.Watch watch(String taskId, Runnable onChange) {
    LiveTasks.Feed feed = live.get(taskId);
    return feed == null ? () -> {} : feed.watch(onChange);
  }

  private Task task(SessionSnapshot row) {
    List<Artifact> before = artifactsBefore(row);
    LiveTasks.Feed feed =
        row.status() == SnapshotStatus.PENDING ? live.get(row.snapshotId()) : null;
    List<Artifact> session;
    if (feed != null) {
      session = feed.session(before);
    } else {
      session = row.state() == null ? before : row.state().artifacts();
    }
    return TaskMapping.task(row, before, session);
  }

  /**
   * The session's artifacts before the row's turn: its parent's, as a rule. A detach that races its
   * turn's end chains the pending row off the row that turn wrote, which holds the same
   * conversation as the task's row: the state before the turn is then that row's parent's. A parent
   * gone (or none) leaves every artifact of the row to its turn.
   */
  private List<Artifact> artifactsBefore(SessionSnapshot row) {
    SessionSnapshot parent = parent(row);
    if (parent != null && sameConversation(parent, row)) {
      parent = parent(parent);
    }
    return parent == null || parent.state() == null ? List.of() : parent.state().artifacts();
  }

  private static boolean sameConversation(SessionSnapshot a, SessionSnapshot b) {
    return a.state() != null
        && b.state() != null
        && a.state().messages().equals(b.state().messages());
  }

  private @Nullable SessionSnapshot parent(SessionSnapshot row) {
    String parentId = row.parentId();
    if (parentId == null) {
      return null;
    }
    try {
      return snapshots.get(parentId);
    } catch (BatonException gone) {
      if (gone.status() != Status.NOT_FOUND) {
        throw gone;
      }
      return null;
    }
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
