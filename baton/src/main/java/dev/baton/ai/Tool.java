package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDef;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.ForwardingAction;
import dev.baton.core.Json;
import dev.baton.core.JsonSchemas;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import java.lang.reflect.Type;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A tool a model can call, registered at {@code /tool/<name>} or passed to one generate call.
 *
 * <p>Define one from a typed function, whose records give the schemas, or from raw JSON with
 * explicit schemas. The function may pause the tool loop with {@link ToolContext#interrupt}.
 * Thread-safe: the generate loop runs the calls of one model turn in parallel.
 *
 * @param <I> input type
 * @param <O> output type
 */
public final class Tool<I, O> extends ForwardingAction<I, O, Void> {
  private final ToolDefinition definition;

  private Tool(ActionDef<I, O, Void> action) {
    super(action);
    ActionDescriptor d = action.descriptor();
    this.definition =
        new ToolDefinition(
            d.name(),
            d.description() == null ? "" : d.description(),
            d.inputSchema() == null ? JsonSchemas.any() : d.inputSchema(),
            d.outputSchema(),
            null);
  }

  /** The body of a tool. */
  @FunctionalInterface
  public interface ToolFunction<I, O> {
    O call(ToolContext context, I input);
  }

  /** Creates a tool from a typed function without registering it. */
  public static <I, O> Tool<I, O> create(
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      ToolFunction<I, O> function) {
    return create(name, description, (Type) inputType, outputType, function);
  }

  /** Creates a tool from a typed function with generic types, without registering it. */
  public static <I, O> Tool<I, O> create(
      String name,
      String description,
      Type inputType,
      Type outputType,
      ToolFunction<I, O> function) {
    return new Tool<>(
        ActionDef.<I, O, Void>builder(ActionType.TOOL, name, inputType, outputType, Void.class)
            .description(description)
            .build((ctx, input, stream) -> function.call(ToolContext.of(ctx), input)));
  }

  /**
   * Creates a tool over raw JSON with explicit schemas (null means "any JSON"), without registering
   * it. Input from the model is validated against {@code inputSchema} before the function runs.
   */
  public static Tool<JsonNode, JsonNode> createRaw(
      String name,
      String description,
      @Nullable JsonNode inputSchema,
      @Nullable JsonNode outputSchema,
      ToolFunction<JsonNode, JsonNode> function) {
    return new Tool<>(
        ActionDef.builder(ActionType.TOOL, name, JsonNode.class, JsonNode.class, Void.class)
            .description(description)
            .inputSchema(inputSchema == null ? JsonSchemas.any() : inputSchema)
            .outputSchema(outputSchema == null ? JsonSchemas.any() : outputSchema)
            .build((ctx, input, stream) -> function.call(ToolContext.of(ctx), input)));
  }

  /** Creates and registers a typed tool. */
  public static <I, O> Tool<I, O> define(
      Registry registry,
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      ToolFunction<I, O> function) {
    return registry.register(create(name, description, inputType, outputType, function));
  }

  /**
   * The tool registered under this name.
   *
   * @throws BatonException {@link dev.baton.core.Status#NOT_FOUND} when there is none
   */
  @SuppressWarnings("unchecked")
  public static Tool<?, ?> lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.TOOL, name)
            .orElseThrow(() -> BatonException.notFound("tool \"%s\" not found", name));
    if (action instanceof Tool<?, ?> tool) {
      return tool;
    }
    throw BatonException.failedPrecondition(
        "/tool/%s is not a tool defined with Tool.create or Tool.define", name);
  }

  /** The tool as models see it. */
  public ToolDefinition definition() {
    return definition;
  }

  /** Runs the tool on a model's JSON input: validated, converted, and the output back to JSON. */
  JsonNode call(ActionContext context, @Nullable JsonNode input) {
    // A copy: the request the input comes from stays in the conversation, which is immutable.
    return runJson(
        context,
        input == null ? Json.nodes().nullNode() : input.deepCopy(),
        null,
        StreamCallback.discard());
  }
}
