package dev.baton.core;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A named, typed, traced unit of work in a registry: a model, a tool, a flow, an agent.
 *
 * <p>Run it typed from Java with {@link #run}, or with JSON from a server or the reflection API
 * with {@link #runJson}, which validates the input against the action's schema first. Both open a
 * span with Genkit's attributes.
 *
 * <p>Implementations are thread-safe: one action serves concurrent runs.
 *
 * @param <I> input type
 * @param <O> output type
 * @param <S> stream chunk type ({@link Void} when the action does not stream)
 */
public interface Action<I, O, S> {

  /**
   * What the action says about itself, schemas included. Inferring schemas is costly, so Baton's
   * actions build their descriptor when it is first asked for; {@link #type} and {@link #name}
   * answer without it.
   */
  ActionDescriptor descriptor();

  /**
   * The action's type: with its name, what the registry files it under. An implementation that
   * overrides this or {@link #name} must answer what its {@link #descriptor} says.
   */
  default ActionType type() {
    return descriptor().type();
  }

  /** The action's name, unique within its type. */
  default String name() {
    return descriptor().name();
  }

  /**
   * Runs the action with a typed input. The input is trusted to be well-formed (the Java type
   * system checked it), so it is not validated against the schema.
   *
   * @param stream receives chunks while it runs; {@link StreamCallback#discard()} when not
   *     streaming
   */
  O run(ActionContext context, I input, StreamCallback<S> stream);

  /** Runs the action without streaming. */
  default O run(ActionContext context, I input) {
    return run(context, input, StreamCallback.discard());
  }

  /**
   * Runs the action from JSON: validates the input against the input schema, converts it, runs, and
   * returns the output as JSON. Bad input is {@link Status#INVALID_ARGUMENT}.
   */
  default JsonNode runJson(ActionContext context, JsonNode input, StreamCallback<JsonNode> stream) {
    return runJson(context, input, null, stream);
  }

  /**
   * Runs the action from JSON with an init payload, which only bidirectional actions (agents)
   * accept; any other action rejects a non-null init with {@link Status#INVALID_ARGUMENT}.
   */
  JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream);
}
