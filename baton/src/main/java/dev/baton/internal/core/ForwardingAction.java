package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An action that is another action with more to say about itself: models add what they support,
 * tools their definition, prompts their template. It runs exactly as the action it wraps, and is as
 * thread-safe as that action.
 *
 * @param <I> input type
 * @param <O> output type
 * @param <S> stream chunk type
 */
public abstract class ForwardingAction<I, O, S> implements Action<I, O, S> {
  private final Action<I, O, S> delegate;

  protected ForwardingAction(Action<I, O, S> delegate) {
    this.delegate = delegate;
  }

  @Override
  public final ActionDescriptor descriptor() {
    return delegate.descriptor();
  }

  @Override
  public final ActionType type() {
    return delegate.type();
  }

  @Override
  public final String name() {
    return delegate.name();
  }

  @Override
  public final O run(ActionContext context, I input, StreamCallback<S> stream) {
    return delegate.run(context, input, stream);
  }

  @Override
  public final JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    return delegate.runJson(context, input, init, stream);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + type().key(name()) + "]";
  }
}
