package dev.baton;

import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.Generate;
import dev.baton.ai.GenerateAction;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A Baton instance: the registry of actions an application defines, the plugins that contributed to
 * it, and the entry points to define flows, models, tools, agents and to generate.
 *
 * <p>Build one with {@link #builder()}. Instances share nothing: two in one JVM see only their own
 * actions. Thread-safe; define actions at start-up and use them from any thread.
 */
public final class Baton {
  private final Registry registry;

  private Baton(Builder builder) {
    this.registry = Registry.create(builder.tracing, builder.experimental);
    GenerateAction.register(registry);
    Set<String> names = new HashSet<>();
    for (Plugin plugin : builder.plugins) {
      if (!names.add(plugin.name())) {
        throw BatonException.of(Status.ALREADY_EXISTS, "plugin %s was added twice", plugin.name());
      }
      plugin.init(registry);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The instance's registry. */
  public Registry registry() {
    return registry;
  }

  /** A fresh root context for calling this instance's actions directly. */
  public ActionContext context() {
    return ActionContext.root(registry);
  }

  /**
   * Defines a flow at {@code /flow/<name>}.
   *
   * @throws BatonException {@link Status#ALREADY_EXISTS} if a flow of that name exists
   */
  public <I, O> Flow<I, O, Void> defineFlow(
      String name, Class<I> inputType, Class<O> outputType, FlowFunction<I, O> function) {
    Objects.requireNonNull(function, "function");
    return Flow.define(
        registry,
        name,
        inputType,
        outputType,
        Void.class,
        (ctx, in, stream) -> function.apply(ctx, in));
  }

  /** Defines a flow that streams chunks of type {@code S} while it runs. */
  public <I, O, S> Flow<I, O, S> defineStreamingFlow(
      String name,
      Class<I> inputType,
      Class<O> outputType,
      Class<S> streamType,
      ActionFunction<I, O, S> function) {
    return Flow.define(registry, name, inputType, outputType, streamType, function);
  }

  /**
   * Defines a model at {@code /model/<name>}. Model plugins call {@link Model#create} instead; this
   * is for custom and test models.
   */
  public Model defineModel(String name, ModelInfo info, Model.ModelFunction function) {
    return Model.define(registry, name, info, function);
  }

  /** Defines a tool at {@code /tool/<name>} whose schemas come from the input and output types. */
  public <I, O> Tool<I, O> defineTool(
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      Tool.ToolFunction<I, O> function) {
    return Tool.define(registry, name, description, inputType, outputType, function);
  }

  /** Defines a tool over raw JSON with explicit schemas (null means any JSON). */
  public Tool<JsonNode, JsonNode> defineJsonTool(
      String name,
      String description,
      @Nullable JsonNode inputSchema,
      @Nullable JsonNode outputSchema,
      Tool.ToolFunction<JsonNode, JsonNode> function) {
    return registry.register(
        Tool.createRaw(name, description, inputSchema, outputSchema, function));
  }

  /** Registers a prompt at {@code /executable-prompt/<name>}. */
  public ExecutablePrompt definePrompt(String name, InlinePrompt prompt) {
    return ExecutablePrompt.define(registry, name, null, prompt);
  }

  /** Makes a middleware usable by name with JSON config. */
  public void defineMiddleware(MiddlewareDescriptor descriptor) {
    descriptor.register(registry);
  }

  /** Runs a generate call (the tool loop) in a fresh root context. */
  public GenerateResponse generate(GenerateOptions options) {
    return Generate.generate(context(), options);
  }

  /**
   * Runs a generate call under an existing context, such as a tool's or an agent turn's, so that it
   * nests in the caller's trace, sees its session and honours its cancellation.
   */
  public GenerateResponse generate(ActionContext context, GenerateOptions options) {
    return Generate.generate(context, options);
  }

  /** The body of a flow that does not stream. */
  @FunctionalInterface
  public interface FlowFunction<I, O> {
    O apply(ActionContext context, I input);
  }

  /** Configures a {@link Baton} instance. Not thread-safe; build once. */
  public static final class Builder {
    private boolean experimental;
    private final List<Plugin> plugins = new ArrayList<>();
    private Tracing tracing = Tracing.noop();

    private Builder() {}

    /**
     * Enables experimental features: agents, sessions and their middleware. Without it, {@code
     * defineAgent} and its siblings throw {@link IllegalStateException}.
     */
    public Builder experimental() {
      this.experimental = true;
      return this;
    }

    /** Adds a plugin; plugins initialise in the order added. */
    public Builder plugin(Plugin plugin) {
      plugins.add(Objects.requireNonNull(plugin, "plugin"));
      return this;
    }

    /**
     * Sends spans through this OpenTelemetry instance. By default Baton records nothing; pass an
     * SDK (or {@code GlobalOpenTelemetry.get()}) to trace.
     */
    public Builder openTelemetry(OpenTelemetry openTelemetry) {
      this.tracing = Tracing.of(openTelemetry);
      return this;
    }

    public Baton build() {
      return new Baton(this);
    }
  }
}
