package dev.baton.a2a.internal.client;

import dev.baton.a2a.internal.wire.Event;
import dev.baton.a2a.internal.wire.Message;
import dev.baton.a2a.internal.wire.MessageSendParams;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskIdParams;
import dev.baton.a2a.internal.wire.TaskQueryParams;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.a2a.internal.wire.TaskStatusUpdateEvent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.AgentBridge;
import dev.baton.internal.core.Timing;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An A2A 0.3 agent's JSON-RPC methods as the operations of a Baton agent:
 *
 * <ul>
 *   <li>a turn is {@code message/send}: blocking, or not for a detach, whose running task is the
 *       pending snapshot; a fresh session starts a new context, a session ID names the context to
 *       continue, and a snapshot ID names a task whose context the message continues (answering the
 *       task itself when it waits for input, following it otherwise);
 *   <li>a snapshot read is {@code tasks/get}, and an abort is {@code tasks/cancel};
 *   <li>a wait (and a blocking send answered before its task settled) reads the task, then, when
 *       the card says the agent streams, follows its events ({@code tasks/resubscribe}) until one
 *       says it settled and reads it once more, whole; a stream that ends or breaks before is
 *       opened again after a poll interval, and an agent that refuses it, or does not stream, has
 *       its task read every poll interval instead;
 *   <li>a session's latest snapshot is the last task this agent started in that context: A2A 0.3
 *       cannot list a context's tasks, so a context this process did not use has none.
 * </ul>
 *
 * <p>The agent is reached with the same headers for every caller, so the tasks and contexts are
 * scoped to principals here: a task that the caller's principal did not start through this process
 * is unknown ({@code NOT_FOUND}), and a message in another principal's context starts a new one.
 *
 * <p>A2A agents keep their own contexts and ask for input through their tasks, so a client-managed
 * state and the answers to a turn's interrupts are refused ({@code FAILED_PRECONDITION}). A
 * re-attempt of a failed or canceled task sends its last user message again, in its context.
 *
 * <p>Thread-safe.
 */
final class A2aBridge implements AgentBridge {
  private final String who;
  private final URI endpoint;
  private final boolean streaming;
  private final JsonRpcCalls calls;
  private final Duration pollInterval;
  private final Timing timing;
  private final StartedTasks started = new StartedTasks();

  A2aBridge(
      String who,
      URI endpoint,
      boolean streaming,
      JsonRpcCalls calls,
      Duration pollInterval,
      Timing timing) {
    this.who = who;
    this.endpoint = endpoint;
    this.streaming = streaming;
    this.calls = calls;
    this.pollInterval = pollInterval;
    this.timing = timing;
  }

  @Override
  public AgentOutput turn(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    if (init.state() != null) {
      throw BatonException.failedPrecondition(
          "%s keeps its own contexts: it takes no client-managed state", who);
    }
    if (input.resume() != null) {
      throw BatonException.failedPrecondition(
          "%s asks for input through its tasks: answer it with a message, not a resume", who);
    }
    // Another principal's context is as unknown as any: the message starts a new one.
    String contextId =
        init.sessionId() == null || started.isOthers(context, init.sessionId())
            ? null
            : init.sessionId();
    String taskId = null;
    String followed = null;
    Task previous = null;
    if (init.snapshotId() != null) {
      previous = task(context, init.snapshotId());
      contextId = previous.contextId();
      if (previous.status().state() == TaskState.INPUT_REQUIRED) {
        taskId = previous.id();
      } else {
        followed = previous.id();
      }
    }
    dev.baton.ai.Message message = input.isRetry() ? retried(previous) : input.message();
    if (message == null) {
      throw BatonException.invalidArgument("a turn of %s needs a message", who);
    }
    MessageSendParams params =
        new MessageSendParams(
            TaskTranslation.a2a(message, contextId, taskId, followed),
            new MessageSendParams.Configuration(null, null, !input.isDetach(), null),
            null);
    Event answer = calls.call(context, endpoint, "message/send", params, Event.class);
    return switch (answer) {
      case Message direct -> {
        AgentOutput output = TaskTranslation.output(direct, contextId);
        // The context is the caller's now, though no task stands behind the answer.
        started.recordContext(context, Objects.requireNonNull(output.sessionId()));
        yield output;
      }
      case Task task -> {
        Task sent = checked("message/send", task);
        started.record(context, sent.id(), sent.contextId());
        // A server may answer a blocking send before its task settles.
        yield TaskTranslation.output(
            input.isDetach() || TaskTranslation.isSettled(sent)
                ? sent
                : settled(context, sent.id()));
      }
      default ->
          throw new BatonException(
              Status.UNAVAILABLE, who + " answered message/send with an event, not a task");
    };
  }

  private dev.baton.ai.Message retried(@Nullable Task task) {
    dev.baton.ai.Message last = task == null ? null : TaskTranslation.lastUserMessage(task);
    if (last == null) {
      throw BatonException.failedPrecondition(
          "%s: there is no task whose message could be sent again", who);
    }
    return last;
  }

  @Override
  public SessionSnapshot get(ActionContext context, String snapshotId) {
    return TaskTranslation.snapshot(task(context, snapshotId), timing.now());
  }

  @Override
  public @Nullable SessionSnapshot latest(ActionContext context, String sessionId) {
    String taskId = started.latest(context, sessionId);
    return taskId == null ? null : get(context, taskId);
  }

  @Override
  public SessionSnapshot waitFor(ActionContext context, String snapshotId) {
    return TaskTranslation.snapshot(settled(context, snapshotId), timing.now());
  }

  @Override
  public @Nullable SnapshotStatus abort(ActionContext context, String snapshotId) {
    if (!started.isVisible(context, snapshotId)) {
      return null;
    }
    Task task;
    try {
      task =
          checked(
              "tasks/cancel",
              calls.call(
                  context,
                  endpoint,
                  "tasks/cancel",
                  new TaskIdParams(snapshotId, null),
                  Task.class));
    } catch (BatonException e) {
      switch (e.status()) {
        case NOT_FOUND -> {
          return null;
        }
        // The task settled before the cancel: the abort is a no-op.
        case FAILED_PRECONDITION -> task = task(context, snapshotId);
        default -> throw e;
      }
    }
    return TaskTranslation.snapshot(task, timing.now()).statusOrCompleted();
  }

  /**
   * Reads the task until it settles: between two reads, follows its events until one says it
   * settled, or pauses for a poll interval. The settled task is read with {@code tasks/get} rather
   * than pieced together from the events, which carry neither its history nor, on a stream opened
   * late, its earlier artifacts.
   */
  private Task settled(ActionContext context, String taskId) {
    boolean follow = streaming;
    while (true) {
      Task task = task(context, taskId);
      if (TaskTranslation.isSettled(task)) {
        return task;
      }
      Followed followed = follow ? follow(context, taskId) : Followed.REFUSED;
      follow = followed != Followed.REFUSED;
      if (followed != Followed.SETTLED) {
        timing.pause(context.cancellation(), pollInterval);
      }
    }
  }

  /** How following a task's events ended. */
  private enum Followed {
    /** An event said the task settled. */
    SETTLED,
    /** The stream ended, broke or ran out of time first: it may be opened again. */
    ENDED,
    /** The agent refused the stream: the wait reads the task instead. */
    REFUSED
  }

  private Followed follow(ActionContext context, String taskId) {
    try {
      return calls.stream(
              context,
              endpoint,
              "tasks/resubscribe",
              new TaskIdParams(taskId, null),
              event -> tellsSettled(event, taskId))
          ? Followed.SETTLED
          : Followed.ENDED;
    } catch (BatonException e) {
      // An abort or the wait's deadline ends the wait; anything else ends only this stream.
      context.cancellation().throwIfCancelled();
      return e.status() == Status.UNAVAILABLE || e.status() == Status.DEADLINE_EXCEEDED
          ? Followed.ENDED
          : Followed.REFUSED;
    }
  }

  /** Whether the event says that the task settled: a final status, or a settled task. */
  private static boolean tellsSettled(Event event, String taskId) {
    return switch (event) {
      case TaskStatusUpdateEvent update ->
          taskId.equals(update.taskId())
              && (update.last()
                  || (update.status() != null
                      && update.status().state() != null
                      && TaskTranslation.isSettled(update.status().state())));
      case Task task ->
          taskId.equals(task.id())
              && task.status() != null
              && task.status().state() != null
              && TaskTranslation.isSettled(task.status().state());
      default -> false;
    };
  }

  /**
   * @throws BatonException {@code NOT_FOUND} for a task the agent does not know, or that the
   *     caller's principal did not start through this process
   */
  private Task task(ActionContext context, String taskId) {
    if (!started.isVisible(context, taskId)) {
      throw BatonException.notFound("%s: task \"%s\" not found", who, taskId);
    }
    return checked(
        "tasks/get",
        calls.call(
            context, endpoint, "tasks/get", new TaskQueryParams(taskId, null, null), Task.class));
  }

  /** The task, once it has what Baton reads of every task: its ID, context and state. */
  private Task checked(String method, Task task) {
    if (isBlank(task.id())
        || isBlank(task.contextId())
        || task.status() == null
        || task.status().state() == null) {
      throw new BatonException(
          Status.UNAVAILABLE,
          who + " answered " + method + " with a task without its ID, context or state");
    }
    return task;
  }

  private static boolean isBlank(@Nullable String text) {
    return text == null || text.isBlank();
  }
}
