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
 * moment it is sent; waiting for it is waiting for its latest row ({@link TaskChain}) to settle.
 */
final class AgentTasks {
  private final Agent agent;
  private final ActionContext context;
  private final AgentSnapshots snapshots;
  private final TaskChain chain;
  private final LiveTasks live;

  AgentTasks(Agent agent, ActionContext context, LiveTasks live) {
    this.agent = agent;
    this.context = context;
    this.snapshots = agent.snapshots(context);
    this.chain = new TaskChain(agent, snapshots, context);
    this.live = live;
  }

  /**
   * Starts the turn a message asks for: a new session, the next turn of its context, or the answer
   * to the question of the task it names.
   *
   * @return the ID of the task: a new one, or the one the message answers
   */
  String start(Message message) {
    if (message.taskId() != null) {
      return answer(message.taskId(), message);
    }
    AgentInit init =
        message.contextId() == null ? AgentInit.NEW : AgentInit.ofSession(message.contextId());
    return run(init, AgentInput.of(TaskMapping.userMessage(message)));
  }

  /**
   * Answers the question a task asks: claims its latest row, resumes it, and links the row to the
   * resumed turn, so that the task goes on under its own ID.
   */
  private String answer(String taskId, Message message) {
    TaskChain.Head head = chain.head(taskId);
    SessionSnapshot asked = head.row();
    if (message.contextId() != null && !message.contextId().equals(asked.sessionId())) {
      throw BatonException.invalidArgument("the task is not in the message's context");
    }
    if (head.state().isTerminal()) {
      throw new NotContinuable("Task " + taskId + " is in a terminal state");
    }
    if (head.state() != TaskState.INPUT_REQUIRED) {
      throw new NotContinuable("Task " + taskId + " is not waiting for input");
    }
    if (hasMovedOn(asked)) {
      // Its answer would branch the session behind the turns that followed the question.
      throw new NotContinuable(
          "Task " + taskId + " cannot be answered: its context has moved on since it asked");
    }
    Resume resume = answer(asked, message);
    String claim = chain.claim(taskId, asked.snapshotId());
    String resumed;
    try {
      resumed = run(AgentInit.ofSnapshot(asked.snapshotId()), AgentInput.resume(resume));
    } catch (RuntimeException refused) {
      chain.release(asked.snapshotId(), claim);
      throw refused;
    }
    chain.link(asked.snapshotId(), claim, resumed);
    return taskId;
  }

  /**
   * Runs a detached turn, which a feed follows while it runs here ({@link LiveTasks}), and returns
   * its snapshot's ID.
   */
  private String run(AgentInit init, AgentInput input) {
    LiveTasks.Feed feed = live.open();
    AgentOutput output = agent.run(context, input.withDetach(true), init, feed);
    if (output.isFailed() && output.error() != null) {
      // A refused detach or resume names the last good snapshot: not a turn this message started.
      throw output.error().toException();
    }
    if (output.snapshotId() == null) {
      throw BatonException.internal("a detached turn answered without its snapshot", null);
    }
    feed.register(output.snapshotId());
    return output.snapshotId();
  }

  /**
   * The task as it stands now; a turn that runs in this process shows what it has made so far, as
   * long as its feed follows it (a canceled one until its worker has saved what it did).
   */
  Task get(String taskId) {
    TaskChain.Head head = chain.head(taskId);
    SessionSnapshot row = head.row();
    SessionSnapshot beforeTask = beforeTask(head.base() == null ? row : snapshots.get(taskId));
    List<Artifact> before = artifacts(beforeTask);
    // A later round starts from the row it answered.
    List<Artifact> roundBefore = head.base() == null ? before : artifacts(head.base());
    LiveTasks.Feed feed = live.get(row.snapshotId());
    List<Artifact> session;
    if (feed != null) {
      session = feed.session(roundBefore);
    } else {
      session = row.state() == null ? roundBefore : row.state().artifacts();
    }
    int historyFrom =
        beforeTask == null || beforeTask.state() == null ? 0 : beforeTask.state().messages().size();
    return TaskMapping.task(taskId, row, head.state(), before, session, historyFrom);
  }

  /**
   * Watches the artifacts of a task whose turn runs in this process ({@link LiveTasks.Feed#watch}),
   * or does nothing for one that runs elsewhere or has settled. The caller has read the task first,
   * as its principal.
   */
  LiveTasks.Watch watch(String taskId, Runnable onChange) {
    LiveTasks.Feed feed = live.get(chain.head(taskId).row().snapshotId());
    return feed == null ? () -> {} : feed.watch(onChange);
  }

  /**
   * The row the task's first turn started from: its parent, as a rule. A detach that races its
   * turn's end chains the pending row off the row that turn wrote, which holds the same
   * conversation: the row before the turn is then that row's parent. Null when it is gone (or there
   * is none), which leaves every artifact and message of the first row to the task.
   */
  private @Nullable SessionSnapshot beforeTask(SessionSnapshot first) {
    SessionSnapshot parent = parent(first);
    if (parent != null && sameConversation(parent, first)) {
      return parent(parent);
    }
    return parent;
  }

  private static boolean sameConversation(SessionSnapshot a, SessionSnapshot b) {
    return a.state() != null
        && b.state() != null
        && a.state().messages().equals(b.state().messages());
  }

  private static List<Artifact> artifacts(@Nullable SessionSnapshot row) {
    return row == null || row.state() == null ? List.of() : row.state().artifacts();
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

  /** Waits for the task to settle: to end, or to need input. */
  Task await(String taskId) {
    SessionSnapshot latest = chain.head(taskId).row();
    if (!latest.isSettled()) {
      snapshots.waitFor(latest.snapshotId());
    }
    return get(taskId);
  }

  /**
   * Cancels a task that has not ended: a running one is aborted (it reads {@code canceled} from now
   * on, and its worker saves what it did); one waiting for input is marked canceled, so that no
   * answer resumes it.
   */
  Task cancel(String taskId) {
    TaskChain.Head head = chain.head(taskId);
    SessionSnapshot latest = head.row();
    if (head.state() == TaskState.INPUT_REQUIRED) {
      if (!chain.cancel(latest.snapshotId())) {
        throw new NotCancelable(); // an answer claimed it first
      }
    } else if (latest.status() == SnapshotStatus.PENDING) {
      if (snapshots.abort(latest.snapshotId()) == null) {
        throw BatonException.notFound("no such task");
      }
    } else {
      throw new NotCancelable();
    }
    return get(taskId);
  }

  /**
   * Whether the session went on from the asked row: a later message in its context started a newer
   * turn.
   */
  private boolean hasMovedOn(SessionSnapshot asked) {
    String sessionId = asked.sessionId();
    SessionSnapshot latest = sessionId == null ? null : snapshots.latest(sessionId);
    return latest != null && !latest.snapshotId().equals(asked.snapshotId());
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
   * A message for a task that is not waiting for input (it is running, has ended, or another answer
   * took its question): A2A's invalid request.
   */
  static final class NotContinuable extends BatonException {
    private static final long serialVersionUID = 1L;

    NotContinuable(String message) {
      super(Status.FAILED_PRECONDITION, message);
    }
  }

  /** A cancel of a task that is over: A2A's task-not-cancelable. */
  static final class NotCancelable extends BatonException {
    private static final long serialVersionUID = 1L;

    NotCancelable() {
      super(Status.FAILED_PRECONDITION, "the task has ended, so it cannot be canceled");
    }
  }
}
