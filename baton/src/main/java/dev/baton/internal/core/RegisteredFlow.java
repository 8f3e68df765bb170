package dev.baton.internal.core;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionFunction;
import dev.baton.core.ActionType;
import dev.baton.core.Flow;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/** A flow registered in a Baton instance, whose root contexts it creates. Thread-safe. */
public final class RegisteredFlow<I, O, S> implements Flow<I, O, S> {
  private final Action<I, O, S> action;
  private final Registry registry;

  private RegisteredFlow(Action<I, O, S> action, Registry registry) {
    this.action = action;
    this.registry = registry;
  }

  /** Defines and registers a flow. */
  public static <I, O, S> Flow<I, O, S> define(
      Registry registry,
      String name,
      Class<I> inputType,
      Class<O> outputType,
      Class<S> streamType,
      ActionFunction<I, O, S> function) {
    return registry.register(
        new RegisteredFlow<>(
            ActionDef.builder(ActionType.FLOW, name, inputType, outputType, streamType)
                .jsonMapper(DefaultRegistry.jsonMapper(registry))
                .build(function),
            registry));
  }

  @Override
  public ActionDescriptor descriptor() {
    return action.descriptor();
  }

  @Override
  public ActionType type() {
    return action.type();
  }

  @Override
  public String name() {
    return action.name();
  }

  @Override
  public O run(ActionContext context, I input, StreamCallback<S> stream) {
    return action.run(context, input, stream);
  }

  @Override
  public JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    return action.runJson(context, input, init, stream);
  }

  @Override
  public O run(I input) {
    return action.run(ActionContext.root(registry), input);
  }

  @Override
  public O stream(I input, StreamCallback<S> stream) {
    return action.run(ActionContext.root(registry), input, stream);
  }

  @Override
  public JsonNode runJson(JsonNode input) {
    return action.runJson(ActionContext.root(registry), input, StreamCallback.discard());
  }

  @Override
  public String toString() {
    return "Flow[" + name() + "]";
  }
}
