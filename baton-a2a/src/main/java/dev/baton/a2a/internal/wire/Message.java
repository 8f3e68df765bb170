package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/** One message between a client ({@code user}) and an agent ({@code agent}). */
public record Message(
    Role role,
    List<Part> parts,
    String messageId,
    @Nullable String taskId,
    @Nullable String contextId,
    @Nullable List<String> referenceTaskIds,
    @Nullable List<String> extensions,
    @Nullable ObjectNode metadata)
    implements Event {

  /** A message from the agent in a task of a context. */
  public static Message fromAgent(
      String messageId, List<Part> parts, @Nullable String taskId, @Nullable String contextId) {
    return new Message(Role.AGENT, parts, messageId, taskId, contextId, null, null, null);
  }

  /** A message from the client, with no task and no context yet. */
  public static Message fromUser(String messageId, List<Part> parts) {
    return new Message(Role.USER, parts, messageId, null, null, null, null, null);
  }

  /** This message in a task of a context, either of which may be null. */
  public Message in(@Nullable String taskId, @Nullable String contextId) {
    return new Message(
        role, parts, messageId, taskId, contextId, referenceTaskIds, extensions, metadata);
  }

  /** Who sent a message. */
  public enum Role {
    @JsonProperty("user")
    USER,
    @JsonProperty("agent")
    AGENT,
    @JsonEnumDefaultValue
    @JsonProperty("unknown")
    UNKNOWN
  }
}
