package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.internal.core.SharedList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What flows between client and server and what a snapshot persists: the conversation history, the
 * agent's custom state, its artifacts, and the usage of every model call its runs made.
 *
 * <p>{@code messages} is the conversation only: prompt scaffolding (system prompt, template
 * messages) is never stored. {@code sessionId} is owned by the framework and re-stamped on every
 * outbound state. {@code custom} is copied on the way in and on every read, because it is the one
 * part of the state applications mutate.
 *
 * <p>Build one from {@link #empty()} with the {@code with} methods, which name what they set; the
 * positional constructor is there for JSON, and grows with the state.
 */
public record SessionState(
    @Nullable String sessionId,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Message> messages,
    @Nullable JsonNode custom,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Artifact> artifacts,
    @Nullable GenerationUsage usage) {

  public SessionState {
    messages = messages == null ? SharedList.of() : SharedList.copyOf(messages);
    custom = custom == null || custom.isNull() ? null : custom.deepCopy();
    artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
  }

  /** An empty state. */
  public static SessionState empty() {
    return new SessionState(null, List.of(), null, List.of(), null);
  }

  /** A copy of the custom state; changing it does not change this state. */
  @Override
  public @Nullable JsonNode custom() {
    return custom == null ? null : custom.deepCopy();
  }

  public SessionState withSessionId(@Nullable String sessionId) {
    return new SessionState(sessionId, messages, custom, artifacts, usage);
  }

  public SessionState withMessages(List<Message> messages) {
    return new SessionState(sessionId, messages, custom, artifacts, usage);
  }

  public SessionState withCustom(@Nullable JsonNode custom) {
    return new SessionState(sessionId, messages, custom, artifacts, usage);
  }

  public SessionState withArtifacts(List<Artifact> artifacts) {
    return new SessionState(sessionId, messages, custom, artifacts, usage);
  }

  public SessionState withUsage(@Nullable GenerationUsage usage) {
    return new SessionState(sessionId, messages, custom, artifacts, usage);
  }
}
