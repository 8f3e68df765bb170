package dev.baton.ai;

import dev.baton.core.StreamCallback;

/**
 * One model call as a {@link Hooks.WrapModel} hook sees it.
 *
 * @param model the model about to be called; Fallback passes another one to {@code next}
 * @param request the request
 * @param callback the chunk sink
 */
public record ModelParams(
    Model model, ModelRequest request, StreamCallback<ModelResponseChunk> callback) {

  /** A call of {@code model} with {@code request} whose chunks are discarded. */
  public static ModelParams of(Model model, ModelRequest request) {
    return new ModelParams(model, request, StreamCallback.discard());
  }

  public ModelParams withCallback(StreamCallback<ModelResponseChunk> callback) {
    return new ModelParams(model, request, callback);
  }

  public ModelParams withModel(Model model) {
    return new ModelParams(model, request, callback);
  }

  public ModelParams withRequest(ModelRequest request) {
    return new ModelParams(model, request, callback);
  }
}
