package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionDef;
import dev.baton.core.ActionFunction;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.ForwardingAction;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model action at {@code /model/<name>}: takes a {@link ModelRequest}, streams {@link
 * ModelResponseChunk}s and answers a {@link ModelResponse}. Its {@link ModelInfo} is published in
 * the descriptor's {@code metadata.model}.
 *
 * <p>Thread-safe: one model serves concurrent calls.
 */
public final class Model extends ForwardingAction<ModelRequest, ModelResponse, ModelResponseChunk> {
  private final ModelInfo info;

  private Model(Action<ModelRequest, ModelResponse, ModelResponseChunk> action, ModelInfo info) {
    super(action);
    this.info = info;
  }

  /** The function behind a model. */
  @FunctionalInterface
  public interface ModelFunction
      extends ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> {}

  /** Creates a model without registering it (a plugin's resolver returns it). */
  public static Model create(String name, ModelInfo info, ModelFunction function) {
    ObjectNode metadata = Json.object();
    metadata.set("model", Json.toTree(info));
    ActionDef<ModelRequest, ModelResponse, ModelResponseChunk> action =
        ActionDef.builder(
                ActionType.MODEL,
                name,
                ModelRequest.class,
                ModelResponse.class,
                ModelResponseChunk.class)
            .metadata(metadata)
            .build(function);
    return new Model(action, info);
  }

  /** Creates and registers a model. */
  public static Model define(
      Registry registry, String name, ModelInfo info, ModelFunction function) {
    return registry.register(create(name, info, function));
  }

  /**
   * The model registered under this name.
   *
   * @throws BatonException {@link dev.baton.core.Status#NOT_FOUND} when there is none
   */
  public static Model lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.MODEL, name)
            .orElseThrow(() -> BatonException.notFound("model \"%s\" not found", name));
    return from(action);
  }

  @SuppressWarnings("unchecked")
  private static Model from(Action<?, ?, ?> action) {
    if (action instanceof Model model) {
      return model;
    }
    // A model registered as a plain action: read what it supports from its descriptor.
    JsonNode infoNode = action.descriptor().metadata().path("model");
    ModelInfo info =
        infoNode.isObject()
            ? Json.convert(infoNode, ModelInfo.class)
            : new ModelInfo(action.name(), ModelInfo.Supports.TEXT_ONLY, null);
    return new Model((Action<ModelRequest, ModelResponse, ModelResponseChunk>) action, info);
  }

  public ModelInfo info() {
    return info;
  }
}
