package dev.baton.ai;

import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.SharedList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * What a prompt's functions see while it renders.
 *
 * @param context the action context (inside an agent it carries the session)
 * @param input the prompt's input as JSON ({@code null} node when there is none)
 * @param history the conversation so far, to place or trim; empty outside an agent
 */
public record PromptContext(ActionContext context, JsonNode input, List<Message> history) {
  public PromptContext {
    input = Json.copy(input);
    history = SharedList.copyOf(history);
  }

  /** A rendering with {@code input} and no history. */
  public static PromptContext of(ActionContext context, JsonNode input) {
    return new PromptContext(context, input, List.of());
  }

  public PromptContext withHistory(List<Message> history) {
    return new PromptContext(context, input, history);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public JsonNode input() {
    return Json.copy(input);
  }

  /** The input converted to a Java type by the application's mapper. */
  public <T> T input(Class<T> type) {
    return Json.convert(DefaultRegistry.jsonMapper(context.registry()), input, type);
  }
}
