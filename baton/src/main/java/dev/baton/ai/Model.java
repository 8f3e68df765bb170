package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionFunction;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.ModelTelemetry;
import dev.baton.internal.core.ActionDef;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A model action at {@code /model/<name>}: takes a {@link ModelRequest}, streams {@link
 * ModelResponseChunk}s and answers a {@link ModelResponse}. Its {@link ModelInfo} is published in
 * the descriptor's {@code metadata.model}; the generate loop reads it. Every call is recorded by
 * OpenTelemetry's GenAI conventions: {@code gen_ai.*} attributes on its span, and its tokens and
 * duration as metrics.
 *
 * <p>Model plugins {@link #create} models (registering them, or returning them from a resolver);
 * applications define a custom or test model with {@code baton.defineModel}. Thread-safe: one model
 * serves concurrent calls.
 */
public final class Model implements Action<ModelRequest, ModelResponse, ModelResponseChunk> {
  private final Action<ModelRequest, ModelResponse, ModelResponseChunk> action;
  private final ModelInfo info;

  private Model(Action<ModelRequest, ModelResponse, ModelResponseChunk> action, ModelInfo info) {
    this.action = action;
    this.info = info;
  }

  /**
   * Creates a model without registering it.
   *
   * @param function answers a request, streaming chunks to the callback it is given; it runs
   *     concurrently for concurrent calls
   */
  public static Model create(
      String name,
      ModelInfo info,
      ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> function) {
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
            .build(
                // Untraced, the function is called straight: a thread parked in a model call
                // keeps its frames on the heap, and the observer's would be three more.
                (ctx, request, stream) ->
                    ModelTelemetry.isEnabled(ctx)
                        ? ModelTelemetry.observe(
                            ctx, name, request, () -> function.apply(ctx, request, stream))
                        : function.apply(ctx, request, stream));
    return new Model(action, info);
  }

  /**
   * The model registered under this name, or served by a plugin's resolver. A model registered as a
   * plain action rather than through {@link #create} is read as one: what it supports comes from
   * its descriptor.
   *
   * @throws BatonException {@link Status#NOT_FOUND} when there is none
   */
  @SuppressWarnings("unchecked")
  public static Model lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.MODEL, name)
            .orElseThrow(() -> BatonException.notFound("model \"%s\" not found", name));
    if (action instanceof Model model) {
      return model;
    }
    JsonNode infoNode = action.descriptor().metadata().path("model");
    ModelInfo info =
        infoNode.isObject()
            ? Json.convert(infoNode, ModelInfo.class)
            : ModelInfo.of(action.name(), ModelInfo.Supports.TEXT_ONLY);
    return new Model((Action<ModelRequest, ModelResponse, ModelResponseChunk>) action, info);
  }

  public ModelInfo info() {
    return info;
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
  public ModelResponse run(
      ActionContext context, ModelRequest input, StreamCallback<ModelResponseChunk> stream) {
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
  public String toString() {
    return "Model[" + name() + "]";
  }
}
