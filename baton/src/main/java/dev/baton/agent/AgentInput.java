package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.baton.ai.Message;
import dev.baton.ai.Resume;
import dev.baton.ai.Role;
import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One turn's input.
 *
 * @param message the user's turn; a message without a role is the user's
 * @param resume answers to the interrupted tool calls of the last turn
 * @param detach "I will disconnect; keep going in the background": the invocation returns a pending
 *     snapshot at once and the work goes on. It may ride on an input with a message.
 * @param retry Baton's extension for task continuation: re-attempt the session's unfinished last
 *     turn as it stands, without a new message
 */
public record AgentInput(
    @Nullable Message message,
    @Nullable Resume resume,
    @Nullable Boolean detach,
    @Nullable Boolean retry) {

  /**
   * Reads Genkit's JSON. An input message whose role is absent, null or empty is the user's, as
   * Genkit reads it, although a {@link Message} itself always has a role.
   */
  @JsonCreator
  private static AgentInput fromJson(
      @JsonProperty("message") @Nullable JsonNode message,
      @JsonProperty("resume") @Nullable Resume resume,
      @JsonProperty("detach") @Nullable Boolean detach,
      @JsonProperty("retry") @Nullable Boolean retry) {
    if (message == null || message.isNull()) {
      return new AgentInput(null, resume, detach, retry);
    }
    JsonNode role = message.get("role");
    if (message instanceof ObjectNode object
        && (role == null || role.isNull() || role.asString("").isEmpty())) {
      message = object.deepCopy().put("role", Role.USER.wireName());
    }
    return new AgentInput(Json.convert(message, Message.class), resume, detach, retry);
  }

  public static AgentInput of(Message message) {
    return new AgentInput(message, null, null, null);
  }

  public static AgentInput text(String text) {
    return of(Message.user(text));
  }

  public static AgentInput resume(Resume resume) {
    return new AgentInput(null, resume, null, null);
  }

  /** A pure detach: no new turn, just "keep going without me". */
  public static AgentInput detachOnly() {
    return new AgentInput(null, null, true, null);
  }

  /** Re-attempts the unfinished last turn. */
  public static AgentInput retryTurn() {
    return new AgentInput(null, null, null, true);
  }

  public AgentInput withDetach(boolean detach) {
    return new AgentInput(message, resume, detach ? Boolean.TRUE : null, retry);
  }

  public boolean isDetach() {
    return Boolean.TRUE.equals(detach);
  }

  public boolean isRetry() {
    return Boolean.TRUE.equals(retry);
  }

  /** Whether the input starts a turn: a message, a non-empty resume, or a retry. */
  public boolean hasPayload() {
    return message != null || (resume != null && !resume.isEmpty()) || isRetry();
  }
}
