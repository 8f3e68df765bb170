package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.baton.ai.Message;
import dev.baton.core.ErrorInfo;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The result of one invocation.
 *
 * @param sessionId the session's ID
 * @param snapshotId where to resume: the last turn-end snapshot, or the pending row of a detached
 *     run; on failure, the last good snapshot, as Genkit answers (absent when nothing was committed
 *     before the failure), also when the last turn's snapshot could not be confirmed saved (see
 *     {@code message}). A turn that failed also keeps its progress in a {@code failed} row chained
 *     off that snapshot, the session's latest row ({@link Agent#getLatestSnapshot}), which {@link
 *     AgentInit#continueFrom} continues. Absent for a client-managed agent
 * @param finishReason why the invocation ended: {@code aborted} when a budget stopped it ({@link
 *     dev.baton.middleware.budget.BudgetExceededException})
 * @param message the last message; absent on failure, except when the last turn answered but its
 *     snapshot could not be confirmed saved, so that the caller can show the answer. Whether it was
 *     saved is then unknown (the store may have committed an attempt it reported failed): before
 *     sending the turn again, read the session's latest snapshot, and send it again only if that is
 *     still {@code snapshotId}; or resume from {@code snapshotId}, which never repeats the
 *     exchange. An aborted invocation's is its partial response, the stopped run's last model
 *     message (absent when it stopped before its first)
 * @param artifacts the session's artifacts; absent on failure, except as for {@code message}
 * @param state the session, for a client-managed agent only (on failure, the last good state)
 * @param error what went wrong, on a failed invocation, or what stopped an aborted one
 */
public record AgentOutput(
    @Nullable String sessionId,
    @Nullable String snapshotId,
    @Nullable AgentFinishReason finishReason,
    @Nullable Message message,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) @Nullable List<Artifact> artifacts,
    @Nullable SessionState state,
    @Nullable ErrorInfo error) {

  public AgentOutput {
    artifacts = artifacts == null ? null : List.copyOf(artifacts);
  }

  /** The output of an invocation that settled: its last message and the session's artifacts. */
  public static AgentOutput of(
      String sessionId,
      @Nullable String snapshotId,
      @Nullable AgentFinishReason finishReason,
      @Nullable Message message,
      List<Artifact> artifacts) {
    return new AgentOutput(sessionId, snapshotId, finishReason, message, artifacts, null, null);
  }

  /**
   * The output of a failed invocation: its session, where to resume (if anywhere) and what went
   * wrong. The session is null only when the invocation named none and none was started, as when a
   * remote agent's server refuses a detach in a fresh session.
   */
  public static AgentOutput failed(
      @Nullable String sessionId, @Nullable String snapshotId, ErrorInfo error) {
    return new AgentOutput(
        sessionId, snapshotId, AgentFinishReason.FAILED, null, null, null, error);
  }

  /**
   * The output of a failed invocation whose last turn answered but whose snapshot the store could
   * not be confirmed to have taken: where to resume (the last snapshot known committed), the answer
   * and the session's artifacts, so that the caller can show them, and what went wrong.
   */
  public static AgentOutput failed(
      String sessionId,
      @Nullable String snapshotId,
      @Nullable Message message,
      List<Artifact> artifacts,
      ErrorInfo error) {
    return new AgentOutput(
        sessionId, snapshotId, AgentFinishReason.FAILED, message, artifacts, null, error);
  }

  /**
   * The output of an invocation a budget stopped: its partial response, the session's artifacts,
   * where to continue (the {@code aborted} row that keeps the stopped turn's progress) and the
   * error it stopped with.
   */
  public static AgentOutput aborted(
      String sessionId,
      @Nullable String snapshotId,
      @Nullable Message message,
      List<Artifact> artifacts,
      ErrorInfo error) {
    return new AgentOutput(
        sessionId, snapshotId, AgentFinishReason.ABORTED, message, artifacts, null, error);
  }

  /** The output of an invocation whose work went on in the background as a pending snapshot. */
  public static AgentOutput detached(String sessionId, String snapshotId) {
    return new AgentOutput(
        sessionId, snapshotId, AgentFinishReason.DETACHED, null, null, null, null);
  }

  /** This output carrying a client-managed agent's state. */
  public AgentOutput withState(@Nullable SessionState state) {
    return new AgentOutput(sessionId, snapshotId, finishReason, message, artifacts, state, error);
  }

  /** The text of the last message, or "". */
  public String text() {
    return message == null ? "" : message.text();
  }

  public boolean isFailed() {
    return finishReason == AgentFinishReason.FAILED;
  }
}
