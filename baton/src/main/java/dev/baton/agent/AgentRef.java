package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import org.jspecify.annotations.Nullable;

/**
 * An agent by name (resolved as {@code /agent/<name>}), with an optional description that, when
 * set, overrides the agent's own wherever the reference is used.
 */
public record AgentRef(
    @JsonPropertyDescription("The agent's registered name.") String name,
    @JsonPropertyDescription(
            "What the agent does, shown to the orchestrator's model; overrides the agent's own.")
        @Nullable String description) {
  public static AgentRef of(String name) {
    return new AgentRef(name, null);
  }

  public AgentRef withDescription(@Nullable String description) {
    return new AgentRef(name, description);
  }
}
