package dev.baton.middleware.agents;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.jspecify.annotations.Nullable;

/** How the Agents middleware surfaces a sub-agent's artifacts to the orchestrator. */
public enum ArtifactStrategy {
  /**
   * The delegation result includes each artifact's content, so the orchestrator model sees it, and
   * the artifacts are also merged into the orchestrator's session. The default.
   */
  INLINE("inline"),
  /**
   * The artifacts are merged into the orchestrator's session only and the result names them; pair
   * it with the {@link Artifacts} middleware so the model can read them.
   */
  SESSION("session");

  private final String wireName;

  ArtifactStrategy(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** Reads a wire name; anything but {@code "session"} is {@link #INLINE}, as in Genkit. */
  @JsonCreator
  public static ArtifactStrategy fromWireName(@Nullable String wireName) {
    return SESSION.wireName.equals(wireName) ? SESSION : INLINE;
  }
}
