package dev.baton.internal.middleware.agents;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.middleware.agents.TaskMessages.ArtifactReport;
import dev.baton.internal.middleware.agents.TaskMessages.Report;
import dev.baton.internal.middleware.agents.TaskMessages.Result;
import dev.baton.middleware.agents.Agents;
import dev.baton.middleware.agents.ArtifactStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns what sub-agents produce into what the orchestrator's model reads: a run's output into a
 * delegation result, a task's snapshot into a report. Artifacts are merged into the orchestrator's
 * session under an invocation ID, {@code <agent>_<first 8 characters of the snapshot ID>} when a
 * snapshot stands behind the run, so reading a task again overwrites its earlier merge.
 *
 * <p>Stateless apart from its configuration; thread-safe.
 */
final class TaskResults {
  private static final Logger log = LoggerFactory.getLogger(TaskResults.class);
  static final String INTERRUPTED =
      "interrupted for additional input and could not complete the task. Interactive sub-agent"
          + " interrupts are not currently supported; try delegating a more self-contained task.";
  static final String UNKNOWN_FAILURE = "Unknown sub-agent failure.";

  private final Agents config;
  private final String continueTool;

  TaskResults(Agents config) {
    this.config = config;
    this.continueTool = DelegationSetup.sharedToolName(config, BackgroundTasks.CONTINUE);
  }

  /**
   * A run's output as the model reads it. A run that settled with an answer is {@code completed};
   * an aborted one {@code aborted}; any other end {@code failed}, with an error text naming the
   * task that holds its progress when the agent is server-managed (see {@link #handle}). An
   * interrupt is a dead end with no handle, as in Genkit, unless the delegation forwarded it (see
   * {@link InterruptForwarding}) before it got here.
   *
   * @param invocation the delegation's number in this generate call, naming its artifacts when no
   *     snapshot stands behind the run
   * @param started when the call that produced {@code output} started
   */
  Result fold(
      ActionContext context,
      Agent target,
      int invocation,
      AgentOutput output,
      @Nullable String label,
      Instant started) {
    String agent = target.name();
    String taskId = TaskId.of(agent, handle(context, target, output, started));
    AgentFinishReason reason = output.finishReason();
    if (reason == AgentFinishReason.INTERRUPTED) {
      return Result.text("Sub-agent \"" + agent + "\" " + INTERRUPTED, label);
    }
    String status = settledStatus(reason);
    if (!status.equals("completed")) {
      String why =
          output.error() != null && !output.error().message().isEmpty()
              ? sentence(output.error().message())
              : reason == AgentFinishReason.ABORTED ? "the run was aborted." : UNKNOWN_FAILURE;
      String continuation = taskId == null ? "" : " Its progress is saved as task " + taskId + ".";
      return new Result(
          "Error calling agent \"" + agent + "\": " + why + continuation,
          null,
          taskId,
          taskId == null ? null : status,
          label);
    }
    String invocationId =
        output.snapshotId() != null && !output.snapshotId().isEmpty()
            ? invocationId(agent, output.snapshotId())
            : agent + "_" + invocation;
    List<ArtifactReport> reports = merge(context, agent, invocationId, output.artifacts());
    String response = joinedText(output.message());
    return new Result(
        response.isEmpty() ? "(no response)" : response,
        reports.isEmpty() ? null : reports,
        taskId,
        taskId == null ? null : status,
        label);
  }

  /**
   * The snapshot that holds a run's progress. A Baton agent answers a failed turn with the last
   * good snapshot, as Genkit does, and keeps the turn's progress in a {@code failed} row: the
   * session's latest row, which is the handle, since continuing it re-attempts the turn. Only a row
   * created since the call started is taken, so a failure that saved none does not name an older
   * one. Without one (a Genkit server, a failure outside a turn, a row the store could not save)
   * the output's snapshot is the handle.
   */
  private static @Nullable String handle(
      ActionContext context, Agent target, AgentOutput output, Instant started) {
    String sessionId = output.sessionId();
    if (!output.isFailed() || sessionId == null || output.state() != null) {
      return output.snapshotId();
    }
    SessionSnapshot latest;
    try {
      latest = target.snapshots(context).latest(sessionId);
    } catch (RuntimeException e) {
      log.debug("agent {}: the failed run's row could not be read", target.name(), e);
      return output.snapshotId();
    }
    return latest != null
            && latest.statusOrCompleted() == SnapshotStatus.FAILED
            && !latest.createdAt().isBefore(started)
        ? latest.snapshotId()
        : output.snapshotId();
  }

  /**
   * A task's snapshot as a report: {@code pending} with its status alone; {@code completed} with
   * the last message and the artifacts; {@code failed}, {@code aborted} and {@code expired} with an
   * error that says how to go on; {@code aborting} while an aborted task still saves its progress.
   * A completed run whose finish reason carries no answer (an interrupt, a failure) reports {@code
   * failed} with the reason.
   */
  Report fromRow(ActionContext context, TaskId task, SessionSnapshot row, @Nullable String label) {
    return switch (row.statusOrCompleted()) {
      case PENDING -> Report.status(task, label, "pending");
      case EXPIRED ->
          Report.error(
              task.toString(),
              label,
              task.agent(),
              "expired",
              "The background worker stopped reporting progress and is presumed dead. Continue it"
                  + " with "
                  + continueTool
                  + " (it resumes from before the task started), or delegate the task again if the"
                  + " result is still needed.");
      case ABORTED ->
          // Shaped rows settle a dead worker's abort, so an unsettled one is still saving.
          !row.isSettled()
              ? Report.error(
                  task.toString(),
                  label,
                  task.agent(),
                  "aborting",
                  "The task is being aborted and is saving its progress.")
              : Report.error(
                  task.toString(),
                  label,
                  task.agent(),
                  "aborted",
                  "The task was aborted before it finished"
                      + (row.error() != null && !row.error().message().isEmpty()
                          ? ": " + sentence(row.error().message())
                          : ".")
                      + " Continue it with "
                      + continueTool
                      + " if the result is needed after all.");
      case FAILED ->
          Report.error(
              task.toString(),
              label,
              task.agent(),
              "failed",
              (row.error() != null && !row.error().message().isEmpty()
                      ? sentence(row.error().message())
                      : UNKNOWN_FAILURE)
                  + " Continue it with "
                  + continueTool
                  + " to retry from its saved progress.");
      case COMPLETED -> completed(context, task, row, label);
    };
  }

  private Report completed(
      ActionContext context, TaskId task, SessionSnapshot row, @Nullable String label) {
    AgentFinishReason reason = row.finishReason();
    if (reason == AgentFinishReason.INTERRUPTED) {
      return Report.error(
          task.toString(), label, task.agent(), "failed", "The sub-agent " + INTERRUPTED);
    }
    if (reason == AgentFinishReason.FAILED) {
      return Report.error(
          task.toString(),
          label,
          task.agent(),
          "failed",
          row.error() != null ? row.error().message() : UNKNOWN_FAILURE);
    }
    SessionState state = row.state();
    List<Message> messages = state == null ? List.of() : state.messages();
    String response = joinedText(messages.isEmpty() ? null : messages.get(messages.size() - 1));
    List<ArtifactReport> artifacts =
        merge(
            context,
            task.agent(),
            invocationId(task.agent(), task.snapshotId()),
            state == null ? null : state.artifacts());
    return new Report(
        task.toString(),
        label,
        task.agent(),
        "completed",
        response.isEmpty() ? "(no response)" : response,
        artifacts.isEmpty() ? null : artifacts,
        null);
  }

  /**
   * A task whose snapshot could not be read, as a report: {@code unknown}, with the error and what
   * to do about it.
   */
  static Report unreadable(
      String id, @Nullable TaskId task, @Nullable String label, BatonException e) {
    String error =
        switch (e.status()) {
          case NOT_FOUND ->
              "No record of this task exists ("
                  + e.toPublicErrorInfo().message()
                  + "). Delegate the task again if the result is still needed.";
          case FAILED_PRECONDITION, INVALID_ARGUMENT -> e.toPublicErrorInfo().message();
          default ->
              "Could not read the task's status: "
                  + e.toPublicErrorInfo().message()
                  + ". Check again later.";
        };
    return Report.error(id, label, task == null ? null : task.agent(), "unknown", error);
  }

  /** The status a completed row reports: completed, or failed when it carries no answer. */
  static String completedStatus(@Nullable AgentFinishReason reason) {
    return reason == AgentFinishReason.INTERRUPTED || reason == AgentFinishReason.FAILED
        ? "failed"
        : "completed";
  }

  /** The task status a settled run reports: did it end with an answer? */
  static String settledStatus(@Nullable AgentFinishReason reason) {
    if (reason == null) {
      return "completed";
    }
    return switch (reason) {
      // A blocked answer is still an answer: only failures and interrupts are errors.
      case STOP, LENGTH, BLOCKED, OTHER, UNKNOWN -> "completed";
      case ABORTED -> "aborted";
      case DETACHED -> "pending";
      case FAILED, INTERRUPTED -> "failed";
    };
  }

  private static String invocationId(String agent, String snapshotId) {
    return agent + "_" + snapshotId.substring(0, Math.min(8, snapshotId.length()));
  }

  private static String joinedText(@Nullable Message message) {
    if (message == null) {
      return "";
    }
    StringJoiner joined = new StringJoiner("\n");
    for (Part part : message.content()) {
      if (part instanceof TextPart text && !text.text().isEmpty()) {
        joined.add(text.text());
      }
    }
    return joined.toString();
  }

  /**
   * Merges the sub-agent's named artifacts into the orchestrator's session (when there is one) as
   * {@code <invocationId>/<name>}, tagged with their source, and reports them by the strategy.
   */
  private List<ArtifactReport> merge(
      ActionContext context,
      String agent,
      String invocationId,
      @Nullable List<Artifact> artifacts) {
    if (artifacts == null || artifacts.isEmpty()) {
      return List.of();
    }
    Optional<Session> parent = Session.from(context);
    List<ArtifactReport> reports = new ArrayList<>();
    for (Artifact artifact : artifacts) {
      if (artifact.name() == null || artifact.name().isEmpty()) {
        continue;
      }
      String name = invocationId + "/" + artifact.name();
      ObjectNode metadata =
          artifact.metadata() == null ? Json.object() : artifact.metadata().deepCopy();
      metadata.put("source", agent);
      metadata.put("invocationId", invocationId);
      parent.ifPresent(
          session -> session.addArtifact(artifact.withName(name).withMetadata(metadata)));
      reports.add(
          new ArtifactReport(
              name,
              DelegationSetup.strategy(config) == ArtifactStrategy.INLINE
                  ? artifact.text()
                  : null));
    }
    return reports;
  }

  /** An error message as a sentence of a report: ending with a full stop, so the next one reads. */
  private static String sentence(String message) {
    return message.endsWith(".") || message.endsWith("!") || message.endsWith("?")
        ? message
        : message + ".";
  }
}
