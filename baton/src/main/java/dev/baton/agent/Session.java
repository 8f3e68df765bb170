package dev.baton.agent;

import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.internal.agent.LiveSession;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * The live session of an agent invocation: its history, custom state, artifacts and usage, which
 * the agent's turns read and change. Tools, middleware and prompt functions reach it through {@link
 * #from(ActionContext)}.
 *
 * <pre>{@code
 * Session.from(ctx).ifPresent(session -> session.addArtifact(Artifact.text("notes.md", notes)));
 * }</pre>
 *
 * <p>Baton implements this interface; it is not meant to be implemented elsewhere. Thread-safe:
 * parallel tool calls may change it at once. Messages and artifacts are immutable values, so reads
 * share them without copying; the custom state is copied on every read and write, since it is the
 * one part applications mutate.
 */
public interface Session {

  /** The session of the agent invocation the context belongs to, if any. */
  static Optional<Session> from(ActionContext context) {
    return context.get(LiveSession.KEY).map(Session.class::cast);
  }

  String id();

  /** The conversation history, immutable. */
  List<Message> messages();

  void addMessage(Message message);

  /** Replaces the history, as a prompt agent does with the tool loop's messages. */
  void setMessages(List<Message> messages);

  /** A copy of the custom state, or null. */
  @Nullable JsonNode custom();

  /** The custom state as a Java type, or null when there is none. */
  <S> @Nullable S custom(Class<S> type);

  /**
   * Changes the custom state: the function gets a copy of the current value (or null) and returns
   * the new one. The client receives the change as a {@code customPatch}.
   */
  void updateCustom(UnaryOperator<@Nullable JsonNode> update);

  /** Changes the custom state as a Java type; null in means no state yet. */
  <S> void updateCustom(Class<S> type, UnaryOperator<@Nullable S> update);

  /** The artifacts, in session order, immutable. */
  List<Artifact> artifacts();

  /**
   * Adds an artifact, replacing one of the same name in place; one without a name is appended. The
   * client receives it as an {@code artifact} chunk.
   */
  void addArtifact(Artifact artifact);

  /** The usage of every model call this session's runs made, or null when none reported any. */
  @Nullable GenerationUsage usage();

  /** A consistent copy of the whole state, stamped with the session ID. */
  SessionState state();
}
