package dev.baton.agent;

import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * One streamed event of an invocation; exactly one field is set. Every turn ends with exactly one
 * {@code turnEnd}, failed turns included.
 *
 * @param modelChunk a chunk of the model's answer
 * @param artifact an artifact added to the session
 * @param customPatch a change of the custom state, as an RFC 6902 JSON Patch (an array of
 *     operations); {@link AgentConnection#custom()} applies them for you
 * @param turnEnd the end of a turn
 */
public record AgentStreamChunk(
    @Nullable ModelResponseChunk modelChunk,
    @Nullable Artifact artifact,
    @Nullable JsonNode customPatch,
    @Nullable TurnEnd turnEnd) {

  public AgentStreamChunk {
    customPatch = customPatch == null ? null : Json.copy(customPatch);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode customPatch() {
    return customPatch == null ? null : Json.copy(customPatch);
  }

  public static AgentStreamChunk of(ModelResponseChunk chunk) {
    return new AgentStreamChunk(chunk, null, null, null);
  }

  public static AgentStreamChunk of(Artifact artifact) {
    return new AgentStreamChunk(null, artifact, null, null);
  }

  public static AgentStreamChunk of(TurnEnd turnEnd) {
    return new AgentStreamChunk(null, null, null, turnEnd);
  }

  /** A custom-state change: a JSON Patch, an array of operations. */
  public static AgentStreamChunk ofCustomPatch(JsonNode patch) {
    return new AgentStreamChunk(null, null, patch, null);
  }
}
