package dev.baton.core;

import tools.jackson.databind.JsonNode;

/**
 * A flow: a user function registered at {@code /flow/<name>}, traced and servable over HTTP like
 * any action. Define one with {@code baton.defineFlow(...)}; run it here, or as an {@link Action}
 * under a context of your own.
 *
 * <p>Baton implements this interface. Thread-safe.
 *
 * @param <I> input type
 * @param <O> output type
 * @param <S> stream chunk type ({@link Void} for a flow that does not stream)
 */
public interface Flow<I, O, S> extends Action<I, O, S> {

  /** Runs the flow in a fresh root context. */
  O run(I input);

  /** Runs the flow in a fresh root context, sending its chunks to {@code stream} in order. */
  O stream(I input, StreamCallback<S> stream);

  /** Runs the flow from JSON in a fresh root context, validating the input against its schema. */
  JsonNode runJson(JsonNode input);
}
