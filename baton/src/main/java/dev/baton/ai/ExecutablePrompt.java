package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import dev.baton.internal.ai.Generate;
import dev.baton.internal.ai.GenerateAction;
import dev.baton.internal.core.ActionDef;
import dev.baton.internal.core.DefaultRegistry;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A prompt registered at {@code /executable-prompt/<name>}: render it, or render and generate in
 * one call. Define one with {@code baton.definePrompt}. As an action it renders its input into the
 * JSON of a generate request, the form Genkit's tools show.
 *
 * <p>Thread-safe.
 */
public final class ExecutablePrompt implements Action<JsonNode, JsonNode, Void> {
  private final Action<JsonNode, JsonNode, Void> action;
  private final InlinePrompt prompt;

  private ExecutablePrompt(
      String name,
      @Nullable String description,
      @Nullable JsonNode inputSchema,
      InlinePrompt prompt) {
    this.action =
        ActionDef.builder(
                ActionType.EXECUTABLE_PROMPT, name, JsonNode.class, JsonNode.class, Void.class)
            .description(description)
            .inputSchema(inputSchema)
            .build(
                (ctx, input, stream) ->
                    GenerateAction.describe(prompt.render(PromptContext.of(ctx, input)).build()));
    this.prompt = prompt;
  }

  /** A prompt under a name, not yet registered. */
  public static ExecutablePrompt create(
      String name, @Nullable String description, InlinePrompt prompt) {
    return new ExecutablePrompt(name, description, null, prompt);
  }

  /**
   * A prompt under a name whose input a JSON schema describes: the descriptor shows it, and input
   * that reaches the action as JSON is validated against it. Rendering from Java with {@link
   * #render} or {@link #generate} is not validated.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} when the schema is not valid JSON Schema
   */
  public static ExecutablePrompt create(
      String name, @Nullable String description, JsonNode inputSchema, InlinePrompt prompt) {
    return new ExecutablePrompt(name, description, inputSchema, prompt);
  }

  /**
   * The prompt registered under a name.
   *
   * @throws BatonException {@code NOT_FOUND} when there is none
   */
  public static ExecutablePrompt lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.EXECUTABLE_PROMPT, name)
            .orElseThrow(() -> BatonException.notFound("prompt \"%s\" not found", name));
    if (action instanceof ExecutablePrompt prompt) {
      return prompt;
    }
    throw BatonException.failedPrecondition(
        "/executable-prompt/%s was not defined as a prompt", name);
  }

  public InlinePrompt prompt() {
    return prompt;
  }

  /** Renders with an input (any JSON-mappable value, or null) and a history. */
  public GenerateOptions.Builder render(
      ActionContext context, @Nullable Object input, List<Message> history) {
    return prompt.render(
        PromptContext.of(
                context, Json.toTree(DefaultRegistry.jsonMapper(context.registry()), input))
            .withHistory(history));
  }

  /** Renders and generates. */
  public GenerateResponse generate(ActionContext context, @Nullable Object input) {
    return Generate.generate(context, render(context, input, List.of()).build());
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
  public JsonNode run(ActionContext context, JsonNode input, StreamCallback<Void> stream) {
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
    return "ExecutablePrompt[" + name() + "]";
  }
}
