package dev.baton.internal.middleware.compression;

import dev.baton.ai.GenerateParams;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hooks of one generate call with {@link ContextCompression}: before each tool-loop iteration
 * it compresses the request's conversation, sends the model the view, and records the compression
 * on the history the loop keeps; after the model call it records the input tokens the model
 * reported on its message, and the newest stats on the response.
 *
 * <p>Tool-loop iterations run one at a time, so the state of one call needs no locking.
 */
public final class CompressionHooks {
  private final CompressionSettings settings;
  private @Nullable CompressionStats newest;

  public CompressionHooks(CompressionSettings settings) {
    this.settings = settings;
  }

  public Hooks hooks() {
    return Hooks.builder().wrapGenerate(this::wrapGenerate).build();
  }

  private ModelResponse wrapGenerate(
      ActionContext context,
      GenerateParams params,
      BiFunction<ActionContext, GenerateParams, ModelResponse> next) {
    List<Message> conversation = params.request().messages();
    CompressedHistory history = CompressedHistory.of(conversation);
    CompressionStats stats = new CompressionRun(settings, history, context).run();
    if (stats != null) {
      newest = stats;
    }
    List<Message> view = history.view();
    List<Message> recorded =
        settings.replaceHistory()
            ? replaced(params.history(), history.systemEnd(), view)
            : annotated(params.history(), conversation, history);
    ModelResponse response =
        next.apply(
            context, params.withRequest(params.request().withMessages(view)).withHistory(recorded));
    return finish(response);
  }

  /**
   * The history with each message the compression annotated replaced by its annotated copy. A
   * message is found in the history by identity; one an outer middleware rewrote (so it is not in
   * the history) has nothing to record on.
   */
  @SuppressWarnings({"ReferenceEquality", "IdentityHashMapUsage"}) // by identity, as said above
  private static List<Message> annotated(
      List<Message> recorded, List<Message> conversation, CompressedHistory history) {
    Message[] updated = null;
    Map<Message, Integer> positions = null;
    for (int i = 0; i < conversation.size(); i++) {
      Message original = conversation.get(i);
      if (history.message(i) == original) {
        continue;
      }
      int at = i;
      if (i >= recorded.size() || recorded.get(i) != original) {
        if (positions == null) {
          positions = new IdentityHashMap<>();
          for (int j = 0; j < recorded.size(); j++) {
            positions.put(recorded.get(j), j);
          }
        }
        Integer found = positions.get(original);
        if (found == null) {
          continue;
        }
        at = found;
      }
      if (updated == null) {
        updated = recorded.toArray(new Message[0]);
      }
      updated[at] = history.message(i);
    }
    return updated == null ? recorded : Arrays.asList(updated);
  }

  /**
   * The view as the history, with the history's own leading system messages in place of the
   * request's, which outer middleware may have added to.
   */
  private static List<Message> replaced(
      List<Message> recorded, int viewSystemEnd, List<Message> view) {
    List<Message> replaced = new ArrayList<>(view.size());
    for (Message message : recorded) {
      if (message.role() != Role.SYSTEM) {
        break;
      }
      replaced.add(message);
    }
    replaced.addAll(view.subList(viewSystemEnd, view.size()));
    return replaced;
  }

  /** The response with its message's input tokens recorded and the newest stats in custom. */
  private ModelResponse finish(ModelResponse response) {
    Message message = response.message();
    GenerationUsage usage = response.usage();
    if (message != null && usage != null && usage.inputTokens() != null) {
      response =
          response.withMessage(CompressionMetadata.withInputTokens(message, usage.inputTokens()));
    }
    CompressionStats stats = newest;
    JsonNode custom = response.custom();
    if (stats != null && (custom == null || custom.isObject())) {
      ObjectNode withStats = custom == null ? Json.object() : (ObjectNode) custom;
      withStats.set(CompressionMetadata.KEY, Json.toTree(stats));
      response = response.withCustom(withStats);
    }
    return response;
  }
}
