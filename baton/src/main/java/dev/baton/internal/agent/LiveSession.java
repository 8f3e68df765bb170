package dev.baton.internal.agent;

import dev.baton.agent.Artifact;
import dev.baton.agent.Session;
import dev.baton.agent.SessionState;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.ContextKey;
import dev.baton.core.Json;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The session of one agent invocation, as {@link Session} describes it, plus what the runtime
 * needs: the listener that streams custom-state patches and artifacts, and usage accounting.
 *
 * <p>Thread-safe: parallel tool calls may change it at once. Messages and artifacts are immutable
 * values, so reads share them without copying; the custom state is copied on every read and write,
 * since it is the one part applications mutate.
 */
public final class LiveSession implements Session {
  /** The context attribute the current session is carried in. */
  public static final ContextKey<LiveSession> KEY =
      ContextKey.of("baton.session", LiveSession.class);

  /** Told about changes that must reach the client: custom state and artifacts. */
  public interface Listener {
    void customChanged(@Nullable JsonNode custom);

    void artifactAdded(Artifact artifact);
  }

  private final String id;
  // The application's mapper: custom state is the application's own type.
  private final JsonMapper mapper;
  private final Object lock = new Object();
  private List<Message> messages;
  private @Nullable JsonNode custom;
  private List<Artifact> artifacts;
  private @Nullable GenerationUsage usage;
  private volatile @Nullable Listener listener;

  public LiveSession(String id, SessionState state, JsonMapper mapper) {
    this.id = id;
    this.mapper = mapper;
    this.messages = state.messages();
    this.custom = state.custom();
    this.artifacts = state.artifacts();
    this.usage = state.usage();
  }

  public void listen(@Nullable Listener listener) {
    this.listener = listener;
  }

  @Override
  public String id() {
    return id;
  }

  /** The conversation history, immutable. */
  @Override
  public List<Message> messages() {
    synchronized (lock) {
      return messages;
    }
  }

  @Override
  public void addMessage(Message message) {
    synchronized (lock) {
      messages = SharedList.append(messages, message);
    }
  }

  /** Replaces the history, as a prompt agent does with the tool loop's messages. */
  @Override
  public void setMessages(List<Message> messages) {
    synchronized (lock) {
      this.messages = SharedList.copyOf(messages);
    }
  }

  /** A copy of the custom state, or null. */
  @Override
  public @Nullable JsonNode custom() {
    synchronized (lock) {
      return custom == null ? null : custom.deepCopy();
    }
  }

  /** The custom state as a Java type, or null when there is none. */
  @Override
  public <S> @Nullable S custom(Class<S> type) {
    JsonNode value = custom();
    return value == null ? null : Json.convert(mapper, value, type);
  }

  /**
   * Changes the custom state: the function gets a copy of the current value (or null) and returns
   * the new one. The client receives the change as a {@code customPatch}.
   */
  @Override
  public void updateCustom(UnaryOperator<@Nullable JsonNode> update) {
    JsonNode next;
    synchronized (lock) {
      JsonNode updated = update.apply(custom == null ? null : custom.deepCopy());
      custom = updated == null || updated.isNull() ? null : updated.deepCopy();
      next = custom == null ? null : custom.deepCopy();
    }
    // Outside the lock: streaming the patch may block on a slow client.
    Listener current = listener;
    if (current != null) {
      current.customChanged(next);
    }
  }

  /** Changes the custom state as a Java type; null in means no state yet. */
  @Override
  public <S> void updateCustom(Class<S> type, UnaryOperator<@Nullable S> update) {
    updateCustom(
        current -> {
          S value = current == null ? null : Json.convert(mapper, current, type);
          S next = update.apply(value);
          return next == null ? null : Json.toTree(mapper, next);
        });
  }

  /** The artifacts, in session order, immutable. */
  @Override
  public List<Artifact> artifacts() {
    synchronized (lock) {
      return artifacts;
    }
  }

  /**
   * Adds an artifact, replacing one of the same name in place; one without a name is appended. The
   * client receives it as an {@code artifact} chunk.
   */
  @Override
  public void addArtifact(Artifact artifact) {
    synchronized (lock) {
      artifacts = List.copyOf(merge(artifacts, artifact));
    }
    Listener current = listener;
    if (current != null) {
      current.artifactAdded(artifact);
    }
  }

  @Override
  public @Nullable GenerationUsage usage() {
    synchronized (lock) {
      return usage;
    }
  }

  /** Adds a model call's usage. */
  public void addUsage(GenerationUsage added) {
    synchronized (lock) {
      usage = usage == null ? added : usage.plus(added);
    }
  }

  /** A consistent copy of the whole state, stamped with the session ID. */
  @Override
  public SessionState state() {
    synchronized (lock) {
      return new SessionState(id, messages, custom, artifacts, usage);
    }
  }

  /**
   * Artifacts with one added: it replaces an artifact of the same name in place, or is appended
   * (always appended when it has no name).
   */
  public static List<Artifact> merge(List<Artifact> artifacts, Artifact added) {
    List<Artifact> result = new ArrayList<>(artifacts);
    if (added.name() != null) {
      for (int i = 0; i < result.size(); i++) {
        if (added.name().equals(result.get(i).name())) {
          result.set(i, added);
          return result;
        }
      }
    }
    result.add(added);
    return result;
  }
}
