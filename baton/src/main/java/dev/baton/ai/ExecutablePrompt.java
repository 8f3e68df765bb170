package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDef;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.ForwardingAction;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A prompt registered at {@code /executable-prompt/<name>}: render it, or render and generate in
 * one call. As an action it renders its input into {@link GenerateActionOptions}, the form Genkit's
 * tools show.
 *
 * <p>Thread-safe.
 */
public final class ExecutablePrompt
    extends ForwardingAction<JsonNode, GenerateActionOptions, Void> {
  private final InlinePrompt prompt;

  private ExecutablePrompt(String name, @Nullable String description, InlinePrompt prompt) {
    super(
        ActionDef.builder(
                ActionType.EXECUTABLE_PROMPT,
                name,
                JsonNode.class,
                GenerateActionOptions.class,
                Void.class)
            .description(description)
            .build(
                (ctx, input, stream) ->
                    describe(prompt.render(new PromptContext(ctx, input, List.of())).build())));
    this.prompt = prompt;
  }

  /** Registers a prompt under a name. */
  public static ExecutablePrompt define(
      Registry registry, String name, @Nullable String description, InlinePrompt prompt) {
    return registry.register(new ExecutablePrompt(name, description, prompt));
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
    return prompt.render(new PromptContext(context, Json.toTree(input), history));
  }

  /** Renders and generates. */
  public GenerateResponse generate(ActionContext context, @Nullable Object input) {
    return Generate.generate(context, render(context, input, List.of()).build());
  }

  private static GenerateActionOptions describe(GenerateOptions options) {
    List<String> tools =
        Stream.concat(options.toolNames().stream(), options.tools().stream().map(Tool::name))
            .toList();
    return new GenerateActionOptions(
        options.model() == null ? "" : options.model().name(),
        Generate.initialMessages(options),
        tools,
        options.toolChoice(),
        options.config(),
        null,
        null,
        null,
        options.maxTurns(),
        null);
  }
}
