package dev.baton.core;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A flow: a user function registered at {@code /flow/<name>}, traced and servable over HTTP like
 * any action. Create one with {@code baton.defineFlow(...)}; run it here, or through its {@link
 * #action()} from a server.
 *
 * <p>Thread-safe.
 *
 * @param <I> input type
 * @param <O> output type
 * @param <S> stream chunk type ({@link Void} for a flow that does not stream)
 */
public final class Flow<I, O, S> {
  private final Action<I, O, S> action;
  private final Registry registry;

  private Flow(Action<I, O, S> action, Registry registry) {
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
    Objects.requireNonNull(function, "function");
    ActionDef<I, O, S> action =
        ActionDef.builder(ActionType.FLOW, name, inputType, outputType, streamType).build(function);
    return new Flow<>(registry.register(action), registry);
  }

  public String name() {
    return action.name();
  }

  /** The registered action, for servers and the reflection API. */
  public Action<I, O, S> action() {
    return action;
  }

  /** Runs the flow in a fresh root context. */
  public O run(I input) {
    return action.run(ActionContext.root(registry), input);
  }

  /** Runs the flow in a fresh root context, sending its chunks to {@code stream} in order. */
  public O stream(I input, StreamCallback<S> stream) {
    return action.run(ActionContext.root(registry), input, stream);
  }

  /** Runs the flow from JSON, validating the input against the flow's schema. */
  public JsonNode runJson(JsonNode input) {
    return action.runJson(ActionContext.root(registry), input, StreamCallback.discard());
  }
}
