package dev.baton.agent;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What an agent supports, published in its descriptor under {@code metadata.agent}: read it from
 * {@link Agent#metadata()}. Baton computes a local agent's from its options, and takes a remote
 * agent's from what {@link RemoteAgentOptions} declares.
 *
 * @param abortable whether background runs can be aborted: a store that is also a {@link
 *     SnapshotSubscriber}
 * @param stateManagement {@code server} exactly when a session store is configured
 * @param stateSchema the JSON schema of the custom state, when its type is known
 */
public record AgentMetadata(
    @Nullable Boolean abortable,
    @Nullable StateManagement stateManagement,
    @Nullable JsonNode stateSchema) {

  public AgentMetadata {
    stateSchema = stateSchema == null ? null : Json.copy(stateSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode stateSchema() {
    return stateSchema == null ? null : Json.copy(stateSchema);
  }

  /**
   * Reads the metadata of an agent descriptor; null when absent or malformed, which callers treat
   * as "unknown", never as a partial value.
   */
  public static @Nullable AgentMetadata fromDescriptor(JsonNode descriptorMetadata) {
    JsonNode agent = descriptorMetadata.path("agent");
    if (!agent.isObject()) {
      return null;
    }
    try {
      return Json.convert(agent, AgentMetadata.class);
    } catch (RuntimeException malformed) {
      return null;
    }
  }

  public boolean isAbortable() {
    return Boolean.TRUE.equals(abortable);
  }
}
