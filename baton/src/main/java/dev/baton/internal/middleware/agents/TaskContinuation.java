package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Message;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import dev.baton.middleware.agents.Agents;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code continue_task}: spends a task's handle, by the state the task is in.
 *
 * <ul>
 *   <li>failed or aborted: continues from the progress the task saved; without instructions the
 *       unfinished turn is re-attempted as it stood (refused when the saved history left no turn
 *       unfinished), with them a user message steers the retry;
 *   <li>completed: needs instructions, which run as a follow-up turn in the sub-agent's own
 *       session, so finished work is not repeated;
 *   <li>expired (its worker died): needs instructions, the work to redo; it is then fenced with an
 *       abort and continued from its parent snapshot, the last one committed before the launch. A
 *       launch that never committed a turn has nothing to continue from;
 *   <li>stopped on an interrupt: a dead end, since continuing would mean answering the interrupt;
 *       with forwarded interrupts, the refusal points at the check that asks the user instead.
 * </ul>
 *
 * <p>A continuation spends a delegation slot; a refusal that names a retry which can succeed (wait
 * for the task, give instructions, delegate again) gives it back. With {@code background}, the
 * continuation runs detached and returns a fresh task ID in the same session. Thread-safe.
 */
final class TaskContinuation {
  private final Delegation delegation;
  private final Agents config;
  private final BackgroundTasks tasks;

  TaskContinuation(Delegation delegation, Agents config, BackgroundTasks tasks) {
    this.delegation = delegation;
    this.config = config;
    this.tasks = tasks;
  }

  Result resume(
      ActionContext context,
      String id,
      @Nullable String instructions,
      boolean background,
      @Nullable String name) {
    TaskScope.Known known = tasks.scope().find(id);
    if (known == null) {
      return Result.text("Error: task \"" + id + "\" was not started in this conversation.", name);
    }
    String label = name != null ? name : known.label();
    String steer = instructions == null || instructions.isBlank() ? null : instructions;
    int invocation = delegation.reserve();
    if (invocation < 0) {
      return delegation.limitReached(label);
    }
    TaskId task;
    Agent agent;
    SessionSnapshot row;
    try {
      task = TaskId.parse(id, delegation.agentNames());
      agent = AgentLookup.find(delegation.registry(), task.agent());
      row = agent.snapshots(context).get(task.snapshotId());
    } catch (RuntimeException e) {
      return unreadable(id, label, e);
    }
    AgentInput input;
    AgentInit init = resumeFrom(row);
    switch (row.statusOrCompleted()) {
      case PENDING -> {
        delegation.refund();
        return refusal(
            id,
            "is still running. "
                + (config.async()
                    ? "Wait for it with "
                        + DelegationSetup.sharedToolName(config, BackgroundTasks.WAIT)
                        + ", or"
                        + " stop it with "
                        + DelegationSetup.sharedToolName(config, BackgroundTasks.ABORT)
                        + " first."
                    : "Wait for it to settle first."),
            label);
      }
      case COMPLETED -> {
        if (row.finishReason() == AgentFinishReason.INTERRUPTED) {
          if (config.forwardInterrupts()
              && config.async()
              && InterruptForwarding.canForward(context, agent)) {
            // A check asks the user, and the answer resumes the task: a retry that succeeds.
            delegation.refund();
            return refusal(
                id,
                "is waiting for the user's answer to its question. Check it with "
                    + DelegationSetup.sharedToolName(config, BackgroundTasks.CHECK)
                    + " to ask the user; the answer resumes it.",
                label);
          }
          return refusal(
              id,
              "stopped on an interrupt and cannot be continued: that would mean answering the"
                  + " interrupt. Delegate a more self-contained task instead.",
              label);
        }
        if (row.finishReason() == AgentFinishReason.FAILED) {
          if (steer == null && !leftATurnUnfinished(row)) {
            return nothingToRetry(id, label);
          }
          input = steer == null ? AgentInput.retryTurn() : AgentInput.text(steer);
        } else if (steer == null) {
          delegation.refund();
          return refusal(
              id,
              "completed; continuing it needs instructions for what to do next, or it would run"
                  + " the finished turn again.",
              label);
        } else {
          input = AgentInput.text(steer);
        }
      }
      case ABORTED, FAILED -> {
        if (!row.isSettled()) {
          delegation.refund();
          return refusal(
              id,
              "is still saving its progress after the abort; continue it once it settles.",
              label);
        }
        if (steer == null && !leftATurnUnfinished(row)) {
          return nothingToRetry(id, label);
        }
        input = steer == null ? AgentInput.retryTurn() : AgentInput.text(steer);
      }
      case EXPIRED -> {
        if (row.parentId() == null) {
          delegation.refund();
          return refusal(
              id,
              "lost its worker before it committed any work, so there is nothing to continue."
                  + " Delegate the task again.",
              label);
        }
        if (steer == null) {
          delegation.refund();
          return refusal(
              id,
              "lost its worker, and the work it did since it started is gone. Continue it with"
                  + " instructions for what to redo, or delegate the task again.",
              label);
        }
        try {
          // Fenced first: a worker that was only slow, not dead, stops instead of writing on.
          agent.snapshots(context).abort(task.snapshotId());
          init = resumeFrom(agent.snapshots(context).get(row.parentId()));
        } catch (RuntimeException e) {
          return unreadable(id, label, e);
        }
        input = AgentInput.text(steer);
      }
      default -> throw new IllegalStateException("unexpected status " + row.status());
    }
    return background
        ? delegation.launch(context, agent, input, init, invocation, label, true)
        : delegation.run(context, agent, input, init, invocation, label);
  }

  /**
   * Where a continuation starts: a row that settled with an answer is resumed as Genkit resumes any
   * snapshot, so a Genkit server takes the follow-up too; only a failed or aborted row needs
   * Baton's {@code continue} extension.
   */
  private static AgentInit resumeFrom(SessionSnapshot row) {
    boolean settledWithAnswer =
        row.statusOrCompleted() == SnapshotStatus.COMPLETED
            && row.finishReason() != AgentFinishReason.FAILED;
    return settledWithAnswer
        ? AgentInit.ofSnapshot(row.snapshotId())
        : AgentInit.continueFrom(row.snapshotId());
  }

  /**
   * Whether a re-attempt has a turn to re-run: the saved history ends in the user's message or in
   * tool results the model has not answered yet.
   */
  private static boolean leftATurnUnfinished(SessionSnapshot row) {
    List<Message> messages = row.state() == null ? List.of() : row.state().messages();
    Role last = messages.isEmpty() ? null : messages.get(messages.size() - 1).role();
    return last == Role.USER || last == Role.TOOL;
  }

  private Result nothingToRetry(String id, @Nullable String label) {
    delegation.refund();
    return refusal(
        id,
        "saved no unfinished turn to re-attempt. Continue it with instructions for what to do"
            + " next.",
        label);
  }

  /** A task that cannot be read or fenced: nothing ran, so the slot goes back. */
  private Result unreadable(String id, @Nullable String label, RuntimeException e) {
    delegation.refund();
    BatonException error = BatonException.from(e);
    return Result.text("Error: " + TaskResults.unreadable(id, null, label, error).error(), label);
  }

  private static Result refusal(String id, String why, @Nullable String label) {
    return Result.text("Error: task " + id + " " + why, label);
  }
}
