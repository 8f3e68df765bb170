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
import dev.baton.core.Json;
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
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.core.RegisteredFlow;
import dev.baton.internal.core.Timing;
import dev.baton.internal.core.Tracing;
import dev.baton.internal.middleware.BundledMiddleware;
import io.opentelemetry.api.OpenTelemetry;
import java.net.URI;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Baton instance: the registry of actions an application defines, the plugins that contributed to
 * it, and the entry points to define flows, models, tools, agents and to generate.
 *
 * <p>Build one with {@link #builder()}. Instances share nothing: two in one JVM see only their own
 * actions. Thread-safe; define actions at start-up and use them from any thread.
 *
 * <p><b>Closing.</b> An instance owns what its agents run: their turns, their detached runs and the
 * threads and heartbeat timers it starts for them. {@link #close()} ends all of it: it stops new
 * turns, waits for the turns and detached runs in flight for up to the {@linkplain
 * Builder#shutdownGrace shutdown grace} (or the grace given to {@link #close(Duration)}), then
 * aborts what is left. An aborted detached run settles as an {@code aborted} row that keeps its
 * progress, so it can be continued later, by this process or another that shares the store; an
 * aborted foreground turn fails with {@code UNAVAILABLE}. Last, the plugins that are {@link
 * AutoCloseable} close. Session stores are the application's: Baton does not close them.
 */
public final class Baton implements AutoCloseable {
  /** How long {@link #close()} waits for work in flight unless set: 30 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(30);

  private final Registry registry;
  private final List<Plugin> plugins;
  private final Lifecycle lifecycle;
  private final Duration shutdownGrace;
  private final JsonMapper jsonMapper;
  // Held while an agent is defined, so that agent definitions happen one at a time: defineAgent
  // checks that no agent has the name before it registers the agent's prompt, and no other agent
  // may take the name in between.
  private final Object agentDefinitions = new Object();

  private Baton(Builder builder) {
    this.jsonMapper = builder.jsonMapper;
    this.registry =
        DefaultRegistry.create(
            builder.tracing(),
            new Timing(builder.clock, builder.scheduler),
            builder.experimental,
            jsonMapper);
    this.lifecycle = DefaultRegistry.lifecycle(registry);
    this.shutdownGrace = builder.shutdownGrace;
    this.plugins = List.copyOf(builder.plugins);
    GenerateAction.register(registry);
    BundledMiddleware.register(registry, builder.experimental);
    Set<String> names = new HashSet<>();
    for (Plugin plugin : plugins) {
      if (!names.add(plugin.name())) {
        throw BatonException.of(Status.ALREADY_EXISTS, "plugin %s was added twice", plugin.name());
      }
      plugin.init(registry);
      if (plugin instanceof AutoCloseable resource) {
        lifecycle.onClose(resource);
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The instance's registry. */
  public Registry registry() {
    return registry;
  }

  /**
   * The plugins the instance was built with, in the order they were added (and initialised): what a
   * health check or an admin page reads to tell which providers an application has, however they
   * were added.
   */
  public List<Plugin> plugins() {
    return plugins;
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
    return registry.register(
        Tool.create(name, description, inputType, outputType, function).withJsonMapper(jsonMapper));
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

  /**
   * Waits until no agent turn or detached run of this instance is in flight, or {@code timeout} has
   * passed, for callers that wait before they {@linkplain #close() close} or that stop serving (a
   * server's graceful stop). New turns may still start meanwhile; only {@code close()} stops them.
   *
   * @return whether none is in flight
   * @throws InterruptedException when the waiting thread is interrupted
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    return lifecycle.drain(Objects.requireNonNull(timeout, "timeout"));
  }

  /**
   * Closes the instance, as the class comment says: from the call on, starting an agent turn fails
   * with {@code FAILED_PRECONDITION}; the work in flight gets the shutdown grace to end; what is
   * left is aborted and gets a few seconds to save its progress; then the threads the instance
   * started that still run are interrupted, and the plugins that are {@link AutoCloseable} close,
   * the last added first. Returns once all of that is done.
   *
   * <p>Idempotent and thread-safe: a call while another closes waits for it. An interrupt of the
   * calling thread skips what is left of the wait: the remaining work is aborted at once.
   */
  @Override
  public void close() {
    lifecycle.close(shutdownGrace);
  }

  /**
   * Closes the instance as {@link #close()} does, but gives the work in flight {@code grace} to end
   * instead of the instance's shutdown grace: for an owner whose shutdown runs against a deadline
   * of its own, part of which other steps have used already. Zero aborts the work at once; aborted
   * work still gets its few seconds to save its progress.
   *
   * <p>Idempotent and thread-safe as {@code close()} is: a call while another closes waits for it,
   * whatever either's grace.
   *
   * @throws IllegalArgumentException when {@code grace} is negative
   */
  public void close(Duration grace) {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("the shutdown grace must not be negative");
    }
    lifecycle.close(grace);
  }

  /** Configures a {@link Baton} instance. Not thread-safe; build once. */
  public static final class Builder {
    private boolean experimental;
    private final List<Plugin> plugins = new ArrayList<>();
    private @Nullable OpenTelemetry openTelemetry;
    private @Nullable Boolean traceContent;
    private Duration shutdownGrace = DEFAULT_SHUTDOWN_GRACE;
    private InstantSource clock = InstantSource.system();
    private @Nullable ScheduledExecutorService scheduler;
    private JsonMapper jsonMapper = Json.mapper();

    private Builder() {}

    /**
     * Enables experimental features: agents, sessions and their middleware. Without it, {@code
     * defineAgent} and its siblings throw {@link IllegalStateException}, and the experimental
     * middleware ({@code genkit-middleware-exp/agents}, {@code /artifacts}, {@code /budget}, {@code
     * /contextCompression}) are not registered by name.
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

    /**
     * How long {@link Baton#close()} waits for the turns and detached runs in flight before it
     * aborts them (default {@link Baton#DEFAULT_SHUTDOWN_GRACE 30 s}); zero aborts them at once.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder shutdownGrace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("the shutdown grace must not be negative");
      }
      this.shutdownGrace = grace;
      return this;
    }

    /**
     * The clock the instance reads: it stamps the snapshots its agents save ({@code createdAt},
     * {@code updatedAt}, {@code heartbeatAt}) and tells when a row's heartbeat has gone stale.
     * Defaults to the system clock. A store that reads the time itself (the file store) has its own
     * option; give both the same clock. Tests pass {@code FakeTime} from {@code baton-testing}.
     */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Runs the instance's timers on this scheduler: the heartbeats of detached runs, the end of an
     * aborted run's beats after a heartbeat timeout, and the poll intervals and retry pauses of
     * waits. Its tasks are short and never block. The application owns it: Baton never shuts it
     * down, and it must outlive the instance. By default each agent that detaches has a timer
     * thread of its own, which ends when idle, and waits time themselves. Tests pass {@code
     * FakeTime}'s scheduler, whose tasks run when the test advances the time.
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * The mapper for the application's own types, so that they can use modules and settings Baton's
     * mapper does not have (a naming strategy, Kotlin, custom serialisers). By default Baton's own
     * mapper ({@link Json#mapper()}); derive from it with {@code Json.mapper().rebuild()} to keep
     * its policy (nulls omitted, unknown fields ignored).
     *
     * <p>It reads and writes what only the application defines:
     *
     * <ul>
     *   <li>the input, output and chunks of flows defined here, and their inferred schemas;
     *   <li>the input and output of tools defined here with {@link Baton#defineTool} (a tool made
     *       with {@code Tool.create} keeps Baton's mapper unless given this one by {@code
     *       Tool.withJsonMapper}), and their inferred schemas;
     *   <li>a prompt's input ({@code ExecutablePrompt.render}, {@code PromptContext.input});
     *   <li>an agent's custom state read or updated as a Java type ({@code Session.custom}, {@code
     *       Session.updateCustom}).
     * </ul>
     *
     * <p>Everything Genkit defines stays on Baton's mapper, so the wire format does not change:
     * messages and parts, model requests and responses, agent inputs, outputs and chunks, snapshots
     * and the rows stores keep, errors, and the inputs of Baton's own tools and middleware. A value
     * of the application's travels inside them as the JSON this mapper wrote. Structured output
     * ({@code OutputOptions.of}, {@code GenerateResponse.output(Class)}) stays on Baton's mapper
     * too, schema and value alike, since a response does not know the instance that produced it; to
     * read it with this mapper, ask with {@code OutputOptions.schema} and convert {@code
     * GenerateResponse.output()} with {@link Json#convert(JsonMapper, JsonNode,
     * java.lang.reflect.Type)}. Inferred schemas follow this mapper's naming strategy; a custom
     * serialiser's shape is not inferred, so give such a tool or flow an explicit schema.
     */
    public Builder jsonMapper(JsonMapper jsonMapper) {
      this.jsonMapper = Objects.requireNonNull(jsonMapper, "jsonMapper");
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
