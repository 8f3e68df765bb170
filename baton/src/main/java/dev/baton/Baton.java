package dev.baton;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFunction;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Tool;
import dev.baton.ai.ToolContext;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionFunction;
import dev.baton.core.BatonException;
import dev.baton.core.Flow;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.internal.agent.AgentLookup;
import dev.baton.internal.agent.LocalAgent;
import dev.baton.internal.agent.PromptAgents;
import dev.baton.internal.agent.RemoteAgent;
import dev.baton.internal.ai.Generate;
import dev.baton.internal.ai.GenerateAction;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.RegisteredFlow;
import dev.baton.internal.core.Tracing;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;
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
  // Held while an agent is defined, so that agent definitions happen one at a time: defineAgent
  // checks that no agent has the name before it registers the agent's prompt, and no other agent
  // may take the name in between.
  private final Object agentDefinitions = new Object();

  private Baton(Builder builder) {
    this.registry = DefaultRegistry.create(builder.tracing(), builder.experimental);
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
      String name,
      Class<I> inputType,
      Class<O> outputType,
      BiFunction<ActionContext, I, O> function) {
    Objects.requireNonNull(function, "function");
    return RegisteredFlow.define(
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
    return RegisteredFlow.define(registry, name, inputType, outputType, streamType, function);
  }

  /**
   * Defines a model at {@code /model/<name>}. Model plugins call {@link Model#create} instead; this
   * is for custom and test models.
   */
  public Model defineModel(
      String name,
      ModelInfo info,
      ActionFunction<ModelRequest, ModelResponse, ModelResponseChunk> function) {
    return registry.register(Model.create(name, info, function));
  }

  /** Defines a tool at {@code /tool/<name>} whose schemas come from the input and output types. */
  public <I, O> Tool<I, O> defineTool(
      String name,
      String description,
      Class<I> inputType,
      Class<O> outputType,
      BiFunction<ToolContext, I, O> function) {
    return registry.register(Tool.create(name, description, inputType, outputType, function));
  }

  /** Defines a tool over raw JSON with explicit schemas (null means any JSON). */
  public Tool<JsonNode, JsonNode> defineJsonTool(
      String name,
      String description,
      @Nullable JsonNode inputSchema,
      @Nullable JsonNode outputSchema,
      BiFunction<ToolContext, JsonNode, JsonNode> function) {
    return registry.register(
        Tool.createJson(name, description, inputSchema, outputSchema, function));
  }

  /** Registers a prompt at {@code /executable-prompt/<name>}. */
  public ExecutablePrompt definePrompt(String name, InlinePrompt prompt) {
    return registry.register(ExecutablePrompt.create(name, null, prompt));
  }

  /**
   * Defines an agent whose every turn renders {@code prompt} over the session's history and runs
   * the tool loop. The prompt is also registered, at {@code /executable-prompt/<name>}.
   *
   * @throws IllegalStateException unless the instance was built with {@code experimental()}
   * @throws BatonException {@link Status#ALREADY_EXISTS} when an agent, or a prompt, has the name
   */
  public Agent defineAgent(String name, InlinePrompt prompt, AgentOptions options) {
    requireExperimental("defineAgent");
    synchronized (agentDefinitions) {
      return PromptAgents.define(registry, name, prompt, options);
    }
  }

  /** Defines a client-managed prompt agent with default options. */
  public Agent defineAgent(String name, InlinePrompt prompt) {
    return defineAgent(name, prompt, AgentOptions.DEFAULTS);
  }

  /**
   * Defines an agent over a registered prompt: {@code promptName} (or the agent's own name when
   * null), rendered with {@code input}.
   *
   * @throws IllegalStateException unless the instance was built with {@code experimental()}
   */
  public Agent definePromptAgent(
      String name, @Nullable String promptName, @Nullable Object input, AgentOptions options) {
    requireExperimental("definePromptAgent");
    synchronized (agentDefinitions) {
      return PromptAgents.defineFromPrompt(registry, name, promptName, input, options);
    }
  }

  /**
   * Defines an agent from a function that drives its own turns.
   *
   * @throws IllegalStateException unless the instance was built with {@code experimental()}
   */
  public Agent defineCustomAgent(String name, AgentFunction function, AgentOptions options) {
    requireExperimental("defineCustomAgent");
    synchronized (agentDefinitions) {
      return LocalAgent.define(registry, name, function, options);
    }
  }

  /**
   * Defines an agent served by another process over HTTP, in Genkit's wire format: a Baton server
   * ({@code baton-server}) or Genkit's, in JS or Go. It is registered like a local agent, with its
   * companion actions, so the Agents middleware delegates to it by name, in the background too. Its
   * turns, snapshot reads, waits and aborts go to {@code url} and to {@code <url>/getSnapshot},
   * {@code <url>/waitForSnapshot} and {@code <url>/abort}; its sessions and their token usage stay
   * on the server.
   *
   * <p>{@code options} says what the agent is (its description, and what its server supports:
   * {@code stateManagement}, {@code abortable}, which Baton publishes as the agent's {@link
   * dev.baton.agent.AgentMetadata}) and how to reach it (headers, routes, timeouts). When neither
   * is declared the Agents middleware forwards no history and learns from the agent's answer
   * whether it can work in the background.
   *
   * @throws IllegalStateException unless the instance was built with {@code experimental()}
   */
  public Agent defineRemoteAgent(String name, URI url, RemoteAgentOptions options) {
    requireExperimental("defineRemoteAgent");
    synchronized (agentDefinitions) {
      return RemoteAgent.define(registry, name, url, options);
    }
  }

  /** Defines a remote agent that declares nothing, with default headers, routes and timeouts. */
  public Agent defineRemoteAgent(String name, URI url) {
    return defineRemoteAgent(name, url, RemoteAgentOptions.DEFAULTS);
  }

  /**
   * The agent registered under a name: one defined here, or a remote one.
   *
   * @throws BatonException {@code NOT_FOUND} when there is none, {@code INVALID_ARGUMENT} when what
   *     is registered under the name is not an agent
   */
  public Agent agent(String name) {
    return AgentLookup.find(registry, name);
  }

  private void requireExperimental(String method) {
    if (!registry.isExperimental()) {
      throw new IllegalStateException(
          "Baton."
              + method
              + ": experimental features are not enabled. Build the instance with"
              + " Baton.builder().experimental() to use agents.");
    }
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

  /** Configures a {@link Baton} instance. Not thread-safe; build once. */
  public static final class Builder {
    private boolean experimental;
    private final List<Plugin> plugins = new ArrayList<>();
    private @Nullable OpenTelemetry openTelemetry;
    private @Nullable Boolean traceContent;

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
      this.openTelemetry = openTelemetry;
      return this;
    }

    /**
     * Whether spans record their inputs and outputs ({@code genkit:input}, {@code genkit:output})
     * as JSON. By default they do when {@code GENKIT_ENV=dev}, as set by Genkit's CLI, whose trace
     * viewer shows them, and not otherwise: prompts and answers stay out of production traces, and
     * a span costs a fraction of what writing its content does.
     */
    public Builder traceContent(boolean traceContent) {
      this.traceContent = traceContent;
      return this;
    }

    private Tracing tracing() {
      if (openTelemetry == null) {
        return Tracing.noop();
      }
      boolean content =
          traceContent != null ? traceContent : "dev".equals(System.getenv("GENKIT_ENV"));
      return Tracing.of(openTelemetry, content);
    }

    public Baton build() {
      return new Baton(this);
    }
  }
}
