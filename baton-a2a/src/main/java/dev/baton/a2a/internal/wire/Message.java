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
