package dev.baton.agent;

import dev.baton.ai.ModelResponseChunk;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One streamed event of an invocation; exactly one field is set. Every turn ends with exactly one
 * {@code turnEnd}, failed turns included.
 */
public record AgentStreamChunk(
    @Nullable ModelResponseChunk modelChunk,
    @Nullable Artifact artifact,
    @Nullable List<JsonPatchOperation> customPatch,
    @Nullable TurnEnd turnEnd) {

  public AgentStreamChunk {
    customPatch = customPatch == null ? null : List.copyOf(customPatch);
  }

  public static AgentStreamChunk of(ModelResponseChunk chunk) {
    return new AgentStreamChunk(chunk, null, null, null);
  }

  public static AgentStreamChunk of(Artifact artifact) {
    return new AgentStreamChunk(null, artifact, null, null);
  }

  public static AgentStreamChunk of(List<JsonPatchOperation> patch) {
    return new AgentStreamChunk(null, null, patch, null);
  }

  public static AgentStreamChunk of(TurnEnd turnEnd) {
    return new AgentStreamChunk(null, null, null, turnEnd);
  }
}
