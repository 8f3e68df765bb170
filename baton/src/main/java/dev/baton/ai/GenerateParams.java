package dev.baton.ai;

import dev.baton.core.StreamCallback;

/**
 * One tool-loop iteration as a {@link Hooks.WrapGenerate} hook sees it.
 *
 * @param options the options the generate call was made with
 * @param request the request this iteration will send; a hook may pass a rewritten one to {@code
 *     next} (the conversation history keeps the original messages)
 * @param iteration 0 for the first model call, then 1, 2, … after each tool round
 * @param messageIndex the chunk index of the model message this iteration produces
 * @param callback the chunk sink; a hook may emit its own chunks, setting role and index
 */
public record GenerateParams(
    GenerateOptions options,
    ModelRequest request,
    int iteration,
    int messageIndex,
    StreamCallback<ModelResponseChunk> callback) {

  public GenerateParams withRequest(ModelRequest request) {
    return new GenerateParams(options, request, iteration, messageIndex, callback);
  }
}
