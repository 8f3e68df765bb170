package dev.baton.ai;

import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.ActionDef;
import dev.baton.internal.core.JsonSchemas;
import java.lang.reflect.Type;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * A tool a model can call. Register one for every generate call with {@code baton.defineTool} (or
 * {@code defineJsonTool}); make one that only some calls see with {@link #create} and pass it in
 * {@code GenerateOptions.tools} or a middleware's hooks.
 *
 * <p>A typed tool takes its schemas from its input and output types; a raw one works on JSON with
 * explicit schemas. Input from the model is validated against the input schema before the function
 * runs, and the function may pause the tool loop with {@link ToolContext#interrupt}. Thread-safe:
 * the generate loop runs the calls of one model turn in parallel.
 *
 * <pre>{@code
 * record City(String city) {}
 * record Weather(String city, int celsius) {}
 * Tool<City, Weather> weather = Tool.create("weather", "Current weather in a city",
 *     City.class, Weather.class, (ctx, in) -> new Weather(in.city(), 21));
 * }</pre>
 *
 * @param <I> input type
 * @param <O> output type
 */
public final class Tool<I, O> implements Action<I, O, Void> {
  private final Action<I, O, Void> action;
  private final ToolDefinition definition;
  private final boolean multipart;

  private Tool(Action<I, O, Void> action) {
    this.action = action;
    ActionDescriptor d = action.descriptor();
    JsonNode tool = d.metadata().get("tool");
    this.multipart = tool != null && tool.path("multipart").asBoolean(false);
    this.definition =
        ToolDefinition.of(d.name())
            .withDescription(d.description() == null ? "" : d.description())
            .withInputSchema(d.inputSchema() == null ? JsonSchemas.any() : d.inputSchema())
            .withOutputSchema(d.outputSchema());
  }

  /** Creates a tool from a typed function, without registering it. */
  public static <I, O> Tool<I, O> create(
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      BiFunction<ToolContext, I, O> function) {
    return create(name, description, (Type) inputType, outputType, function);
  }

  /** Creates a tool from a typed function with generic types, without registering it. */
  public static <I, O> Tool<I, O> create(
      String name,
      String description,
      Type inputType,
      Type outputType,
      BiFunction<ToolContext, I, O> function) {
    return new Tool<>(
        ActionDef.<I, O, Void>builder(ActionType.TOOL, name, inputType, outputType, Void.class)
            .description(description)
            .build((ctx, input, stream) -> function.apply(ToolContext.of(ctx), input)));
  }

  /**
   * Creates a tool over raw JSON with explicit schemas (null means "any JSON"), without registering
   * it. Input from the model is validated against {@code inputSchema} before the function runs.
   */
  public static Tool<JsonNode, JsonNode> createJson(
      String name,
      String description,
      @Nullable JsonNode inputSchema,
      @Nullable JsonNode outputSchema,
      BiFunction<ToolContext, JsonNode, JsonNode> function) {
    return new Tool<>(
        ActionDef.builder(ActionType.TOOL, name, JsonNode.class, JsonNode.class, Void.class)
            .description(description)
            .inputSchema(inputSchema == null ? JsonSchemas.any() : inputSchema)
            .outputSchema(outputSchema == null ? JsonSchemas.any() : outputSchema)
            .build((ctx, input, stream) -> function.apply(ToolContext.of(ctx), input)));
  }

  /**
   * Creates a multipart tool over raw JSON, without registering it: its function answers with
   * output and content parts (text, media) both, which the tool response carries to the model
   * ({@link ToolResponse#content()}). As in Genkit, the action answers {@code {"output": …,
   * "content": […]}} and is marked {@code {"tool": {"multipart": true}}} in its metadata. Input
   * from the model is validated against {@code inputSchema} (null means "any JSON") before the
   * function runs; {@code outputSchema} describes the output alone.
   */
  public static Tool<JsonNode, ToolResult.Output> createMultipart(
      String name,
      String description,
      @Nullable JsonNode inputSchema,
      @Nullable JsonNode outputSchema,
      BiFunction<ToolContext, JsonNode, ToolResult.Output> function) {
    ObjectNode metadata = Json.object();
    metadata.putObject("tool").put("multipart", true);
    return new Tool<>(
        ActionDef.builder(
                ActionType.TOOL, name, JsonNode.class, ToolResult.Output.class, Void.class)
            .description(description)
            .inputSchema(inputSchema == null ? JsonSchemas.any() : inputSchema)
            .outputSchema(outputSchema == null ? JsonSchemas.any() : outputSchema)
            .metadata(metadata)
            .build((ctx, input, stream) -> function.apply(ToolContext.of(ctx), input)));
  }

  /** Whether this tool answers with output and content parts ({@link #createMultipart}). */
  public boolean isMultipart() {
    return multipart;
  }

  /**
   * The tool registered under this name.
   *
   * @throws BatonException {@link Status#NOT_FOUND} when there is none, {@link
   *     Status#FAILED_PRECONDITION} when what is registered there is not a tool
   */
  public static Tool<?, ?> lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.TOOL, name)
            .orElseThrow(() -> BatonException.notFound("tool \"%s\" not found", name));
    if (action instanceof Tool<?, ?> tool) {
      return tool;
    }
    throw BatonException.failedPrecondition("/tool/%s is not a tool", name);
  }

  /**
   * This tool reading its input and writing its output with {@code mapper}, whose naming strategy
   * its schemas follow too. A tool made by {@link #create} uses Baton's own mapper; {@code
   * Baton.defineTool} gives it the application's ({@code Baton.Builder.jsonMapper}). A JSON or
   * multipart tool is returned as it is.
   */
  @SuppressWarnings("unchecked")
  public Tool<I, O> withJsonMapper(JsonMapper mapper) {
    // A multipart tool's answer holds Baton's parts, which only Baton's mapper writes as Genkit's.
    if (multipart || !(action instanceof ActionDef<?, ?, ?> def)) {
      return this;
    }
    ActionDef<I, O, Void> mapped = ((ActionDef<I, O, Void>) def).withJsonMapper(mapper);
    return mapped == def ? this : new Tool<>(mapped);
  }

  /** The tool as models see it. */
  public ToolDefinition definition() {
    return definition;
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
  public O run(ActionContext context, I input, StreamCallback<Void> stream) {
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
    return "Tool[" + name() + "]";
  }
}
