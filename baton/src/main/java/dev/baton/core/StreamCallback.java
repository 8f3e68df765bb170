package dev.baton.core;

/**
 * Receives the chunks an action streams while it runs, in order, on the action's thread or a thread
 * it manages. A callback that throws fails the action.
 *
 * @param <S> the chunk type
 */
@FunctionalInterface
public interface StreamCallback<S> {
  void onChunk(S chunk);

  /** A callback that drops every chunk. */
  @SuppressWarnings("unchecked")
  static <S> StreamCallback<S> discard() {
    return (StreamCallback<S>) Discard.INSTANCE;
  }

  /** Whether this callback drops every chunk, so a producer may skip building chunks at all. */
  default boolean isDiscarding() {
    return this == Discard.INSTANCE;
  }
}

enum Discard implements StreamCallback<Object> {
  INSTANCE;

  @Override
  public void onChunk(Object chunk) {}
}
