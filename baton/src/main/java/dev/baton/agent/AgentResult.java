package dev.baton.agent;

import dev.baton.ai.Message;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What an agent function returns: the last message and the artifacts to report, and optionally a
 * finish reason that overrides the last turn's on the output (not on any snapshot).
 */
public record AgentResult(
    @Nullable Message message, List<Artifact> artifacts, @Nullable AgentFinishReason finishReason) {
  public AgentResult {
    artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
  }

  /** A result with the last message and no artifacts. */
  public static AgentResult of(@Nullable Message message) {
    return new AgentResult(message, List.of(), null);
  }

  /** A result with the last message and the artifacts to report. */
  public static AgentResult of(@Nullable Message message, List<Artifact> artifacts) {
    return new AgentResult(message, artifacts, null);
  }

  public AgentResult withFinishReason(@Nullable AgentFinishReason finishReason) {
    return new AgentResult(message, artifacts, finishReason);
  }
}
