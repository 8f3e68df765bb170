package dev.baton.internal.middleware.agents;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The inputs and outputs of the Agents middleware's tools, with the field names and descriptions
 * Genkit's models see.
 */
final class TaskMessages {
  private TaskMessages() {}

  static final String TASK = "A clear, self-contained description of the task to delegate.";
  static final String LABEL =
      "Optional short label for this delegation, echoed on the result and on background-task"
          + " reports next to the task ID to keep several delegations readable. A reading aid, not"
          + " an identifier.";
  static final String TASK_IDS =
      "Task IDs returned by background delegations (form \"<agent>:<snapshotId>\").";

  /** A delegation tool's input, without {@code async}. */
  record Delegate(
      @JsonPropertyDescription(TASK) String task,
      @JsonPropertyDescription(LABEL) @Nullable String name) {}

  /** A delegation tool's input, with {@code async}. */
  record DelegateAsync(
      @JsonPropertyDescription(TASK) String task,
      @JsonPropertyDescription(LABEL) @Nullable String name,
      @JsonPropertyDescription(
              "Run the delegation in the background. The tool returns immediately with a taskId;"
                  + " collect the result later with the check or wait tool.")
          @Nullable Boolean background) {}

  /** The input of {@code check_background_tasks} and {@code abort_background_tasks}. */
  record TaskIds(@JsonPropertyDescription(TASK_IDS) List<String> taskIds) {
    TaskIds {
      taskIds = taskIds == null ? List.of() : List.copyOf(taskIds);
    }
  }

  /** The input of {@code wait_for_background_tasks}. */
  record Wait(
      @JsonPropertyDescription(TASK_IDS) List<String> taskIds,
      @JsonPropertyDescription(
              "The longest to wait, in seconds. 0 or omitted waits until the tasks settle; a"
                  + " negative value returns their current status at once.")
          @Nullable Long timeoutSeconds,
      @JsonPropertyDescription(
              "\"all\" (default) waits until every task settles; \"first\" returns as soon as one"
                  + " settles, while the others keep running.")
          @Nullable String waitFor) {
    Wait {
      taskIds = taskIds == null ? List.of() : List.copyOf(taskIds);
    }
  }

  /** The input of {@code continue_task}, without {@code async}. */
  record Continue(
      @JsonPropertyDescription("The taskId of the delegation to continue.") String taskId,
      @JsonPropertyDescription(INSTRUCTIONS) @Nullable String instructions,
      @JsonPropertyDescription(LABEL) @Nullable String name) {}

  /** The input of {@code continue_task}, with {@code async}. */
  record ContinueAsync(
      @JsonPropertyDescription("The taskId of the delegation to continue.") String taskId,
      @JsonPropertyDescription(INSTRUCTIONS) @Nullable String instructions,
      @JsonPropertyDescription("Continue in the background: the tool returns a new taskId at once.")
          @Nullable Boolean background,
      @JsonPropertyDescription(LABEL) @Nullable String name) {}

  static final String INSTRUCTIONS =
      "What the sub-agent should do now: it steers the retry of a failed or aborted task, and is"
          + " required to ask a completed task for more.";

  /** An artifact as a result or report carries it: its name, and its content when inline. */
  record ArtifactReport(String name, @Nullable String content) {}

  /** What a delegation or {@code continue_task} answers. */
  record Result(
      String response,
      @Nullable List<ArtifactReport> artifacts,
      @Nullable String taskId,
      @Nullable String status,
      @Nullable String name) {
    static Result text(String response, @Nullable String name) {
      return new Result(response, null, null, null, name);
    }
  }

  /**
   * One background task as the check, wait and abort tools report it. {@code interrupt} is the
   * wrapped interrupt of a task that stopped on a question, which ends the orchestrator's turn
   * before the report reaches its model; it is never written out, so the report's JSON and its
   * schema stay as they are without forwarded interrupts.
   */
  record Report(
      String taskId,
      @Nullable String name,
      @Nullable String agent,
      String status,
      @Nullable String response,
      @Nullable List<ArtifactReport> artifacts,
      @Nullable String error,
      @JsonIgnore @Nullable JsonNode interrupt) {

    static final String INTERRUPTED = "interrupted";

    Report(
        String taskId,
        @Nullable String name,
        @Nullable String agent,
        String status,
        @Nullable String response,
        @Nullable List<ArtifactReport> artifacts,
        @Nullable String error) {
      this(taskId, name, agent, status, response, artifacts, error, null);
    }

    static Report status(TaskId task, @Nullable String name, String status) {
      return new Report(task.toString(), name, task.agent(), status, null, null, null);
    }

    static Report error(
        String taskId, @Nullable String name, @Nullable String agent, String status, String error) {
      return new Report(taskId, name, agent, status, null, null, error);
    }

    /** A task that stopped on a question the caller answers through the orchestrator. */
    static Report interrupted(TaskId task, @Nullable String name, JsonNode interrupt) {
      return new Report(
          task.toString(),
          name,
          task.agent(),
          INTERRUPTED,
          null,
          null,
          "The sub-agent is waiting for the user's answer.",
          interrupt);
    }

    Report withName(@Nullable String label) {
      return new Report(taskId, label, agent, status, response, artifacts, error, interrupt);
    }

    /** Whether the task is over: completed, failed, aborted or expired. */
    boolean isSettled() {
      return switch (status) {
        case "completed", "failed", "aborted", "expired" -> true;
        default -> false;
      };
    }
  }

  /** What the check, wait and abort tools answer. */
  record Reports(List<Report> tasks, @Nullable Boolean timedOut, @Nullable String note) {
    static Reports note(String note) {
      return new Reports(List.of(), null, note);
    }
  }
}
