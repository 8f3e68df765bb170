package dev.baton.ai;

import dev.baton.core.StreamCallback;
import dev.baton.internal.core.SharedList;
import java.util.List;

/**
 * One tool-loop iteration as a {@link Hooks.WrapGenerate} hook sees it.
 *
 * @param options the options the generate call was made with
 * @param request the request this iteration will send; a hook may pass a rewritten one to {@code
 *     next} (the conversation history keeps the original messages)
 * @param history the conversation the loop records, which the caller gets back as {@link
 *     GenerateResponse#history()}: at first the same list as the request's messages. A hook may
 *     pass {@code next} another history (see {@link #withHistory}) to record its own state on the
 *     conversation, such as metadata on earlier messages; the loop continues from the history that
 *     reaches the model call, appending this iteration's model and tool messages to it, and the
 *     next iteration's request starts from it. A hook that does not call {@code next} leaves the
 *     conversation as it was.
 * @param iteration 0 for the first model call, then 1, 2, … after each tool round
 * @param messageIndex the chunk index of the model message this iteration produces
 * @param callback the chunk sink; a hook may emit its own chunks, setting role and index
 */
public record GenerateParams(
    GenerateOptions options,
    ModelRequest request,
    List<Message> history,
    int iteration,
    int messageIndex,
    StreamCallback<ModelResponseChunk> callback) {

  public GenerateParams {
    history = SharedList.copyOf(history);
  }

  /**
   * The first iteration about to send {@code request}, whose messages are the recorded history,
   * streaming to the options' chunk callback.
   */
  public static GenerateParams of(GenerateOptions options, ModelRequest request) {
    return new GenerateParams(options, request, request.messages(), 0, 0, options.onChunk());
  }

  /** These params for another iteration, whose model message has the chunk index given. */
  public GenerateParams withIteration(int iteration, int messageIndex) {
    return new GenerateParams(options, request, history, iteration, messageIndex, callback);
  }

  public GenerateParams withCallback(StreamCallback<ModelResponseChunk> callback) {
    return new GenerateParams(options, request, history, iteration, messageIndex, callback);
  }

  public GenerateParams withRequest(ModelRequest request) {
    return new GenerateParams(options, request, history, iteration, messageIndex, callback);
  }

  /** These params with the conversation the loop records replaced; {@code request} is unchanged. */
  public GenerateParams withHistory(List<Message> history) {
    return new GenerateParams(options, request, history, iteration, messageIndex, callback);
  }
}
