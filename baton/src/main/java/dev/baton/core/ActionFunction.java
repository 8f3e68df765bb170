package dev.baton.core;

/**
 * The body of an action.
 *
 * @param <I> input type
 * @param <O> output type
 * @param <S> stream chunk type ({@link Void} for an action that does not stream)
 *     <p>An action may run concurrently, so its function must be thread-safe.
 */
@FunctionalInterface
public interface ActionFunction<I, O, S> {
  /**
   * Runs the action.
   *
   * @param context the action's context: registry, auth, cancellation and tracing parent
   * @param input the validated input
   * @param stream where to send chunks; it discards them when the caller is not streaming
   */
  O apply(ActionContext context, I input, StreamCallback<S> stream);
}
