package dev.baton.core;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * The kinds of action Genkit knows, by their wire names. An action's registry key is {@code
 * /<type>/<name>}, as in {@code /model/googleai/gemini-flash-latest} or {@code /agent/researcher}.
 */
public enum ActionType {
  AGENT("agent"),
  AGENT_ABORT("agent-abort"),
  AGENT_SNAPSHOT("agent-snapshot"),
  AGENT_WAIT("agent-wait"),
  CUSTOM("custom"),
  EMBEDDER("embedder"),
  EXECUTABLE_PROMPT("executable-prompt"),
  FLOW("flow"),
  MODEL("model"),
  PROMPT("prompt"),
  RETRIEVER("retriever"),
  TOOL("tool"),
  UTIL("util");

  private final String wireName;

  ActionType(String wireName) {
    this.wireName = wireName;
  }

  /** The name used in registry keys and descriptors, such as {@code agent-snapshot}. */
  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** The registry key of an action of this type: {@code /<type>/<name>}. */
  public String key(String name) {
    return "/" + wireName + "/" + name;
  }

  /** The type with this wire name. */
  public static Optional<ActionType> fromWireName(String wireName) {
    for (ActionType type : values()) {
      if (type.wireName.equals(wireName)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }
}
