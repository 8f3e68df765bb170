package dev.baton.agent;

import dev.baton.agent.CompanionRequests.AbortRequest;
import dev.baton.agent.CompanionRequests.AbortResponse;
import dev.baton.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDef;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.JsonSchemas;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.core.Tracing;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An agent: a function that runs turns over a session, registered at {@code /agent/<name>} with its
 * companion actions ({@code /agent-snapshot/<name>} and {@code /agent-wait/<name>} when it has a
 * session store, {@code /agent-abort/<name>} when the store can also notify).
 *
 * <p>Run it one turn at a time ({@link #run}), or {@link #connect} and send several inputs over one
 * invocation. With a session store the agent is server-managed: every turn ends with a snapshot,
 * and a client resumes by snapshot or session ID. Without one it is client-managed: the output
 * carries the whole state for the client to send back.
 *
 * <p>Thread-safe: one agent serves any number of concurrent invocations.
 */
public final class Agent implements Action<AgentInput, AgentOutput, AgentStreamChunk> {
  private static final Duration HEARTBEAT_THREAD_IDLE = Duration.ofSeconds(60);

  private final String name;
  private final AgentFunction function;
  private final AgentOptions options;
  private final ActionDescriptor descriptor;
  private final AgentMetadata metadata;
  private final @Nullable SnapshotReads reads;
  private volatile Registry registry;
  private volatile @Nullable ScheduledExecutorService heartbeats;

  private Agent(String name, AgentFunction function, AgentOptions options) {
    if (name.isBlank()) {
      throw BatonException.invalidArgument("an agent name must not be blank");
    }
    this.name = name;
    this.function = Objects.requireNonNull(function, "function");
    this.options = options;
    SessionStore store = options.sessionStore();
    this.metadata =
        options.metadata() != null
            ? options.metadata()
            : new AgentMetadata(
                store instanceof SnapshotSubscriber,
                store == null ? StateManagement.CLIENT : StateManagement.SERVER,
                options.stateType() == null ? null : JsonSchemas.infer(options.stateType()));
    this.reads = store == null ? null : new SnapshotReads(name, store, options);
    ObjectNode descriptorMetadata = Json.object();
    descriptorMetadata.set("agent", Json.toTree(metadata));
    descriptorMetadata.put("bidi", true);
    if (options.description() != null) {
      descriptorMetadata.put("description", options.description());
    }
    this.descriptor =
        new ActionDescriptor(
            ActionType.AGENT.key(name),
            name,
            ActionType.AGENT,
            options.description(),
            JsonSchemas.infer(AgentInput.class),
            JsonSchemas.infer(AgentOutput.class),
            JsonSchemas.infer(AgentStreamChunk.class),
            JsonSchemas.infer(AgentInit.class),
            descriptorMetadata);
    // An unregistered agent still runs, against a registry of its own.
    this.registry = Registry.create(Tracing.noop(), true);
  }

  /** Creates an agent without registering it; {@link #register} adds it and its companions. */
  public static Agent create(String name, AgentFunction function, AgentOptions options) {
    return new Agent(name, function, options);
  }

  /** Registers the agent's run action and its companions, together. */
  public Agent register(Registry target) {
    target.register(this);
    for (Action<?, ?, ?> companion : companions()) {
      target.register(companion);
    }
    this.registry = target;
    return this;
  }

  // ---- running ---------------------------------------------------------------------------------

  /**
   * Opens an invocation that takes several inputs, one turn each. The init is resolved first: a bad
   * init throws here, as an error of the invocation itself.
   */
  public AgentConnection connect(ActionContext context, AgentInit init) {
    Invocation invocation = new Invocation(this, context, init, null);
    invocation.start();
    return new AgentConnection(invocation);
  }

  /** Opens an invocation in a fresh root context of the agent's registry. */
  public AgentConnection connect(AgentInit init) {
    return connect(ActionContext.root(registry), init);
  }

  /**
   * Runs one turn and returns the output, streaming the turn's chunks to {@code stream} on this
   * thread. A failed turn is a failed output, not an exception; a bad init and a cancelled context
   * are exceptions.
   *
   * <p>The turn runs on the calling thread, so the agent function should honour the context's
   * cancellation. A detach input is the exception: its work moves to a background thread, and the
   * call returns the pending snapshot at once.
   */
  public AgentOutput run(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    Objects.requireNonNull(input, "input");
    if (!input.isDetach()) {
      return new Invocation(this, context, init, stream).runInline(input);
    }
    Invocation invocation = new Invocation(this, context, init, null);
    invocation.start();
    invocation.send(input);
    return invocation.awaitOutput(stream);
  }

  @Override
  public AgentOutput run(
      ActionContext context, AgentInput input, StreamCallback<AgentStreamChunk> stream) {
    return run(context, input, AgentInit.NEW, stream);
  }

  /** Runs one turn in a fresh root context. */
  public AgentOutput run(AgentInput input, AgentInit init) {
    return run(ActionContext.root(registry), input, init, StreamCallback.discard());
  }

  /** Runs one text turn in a fresh session. */
  public AgentOutput runText(String text) {
    return run(AgentInput.text(text), AgentInit.NEW);
  }

  /** Runs one text turn from a session source. */
  public AgentOutput runText(String text, AgentInit init) {
    return run(AgentInput.text(text), init);
  }

  @Override
  public JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    if (input == null || input.isNull() || input.isMissingNode()) {
      throw BatonException.invalidArgument(
          "action %s requires input for a one-shot run; open a streaming session to defer input",
          descriptor.key());
    }
    AgentInput typed = Json.convert(input, AgentInput.class);
    StreamCallback<AgentStreamChunk> chunks =
        stream.isDiscarding() ? StreamCallback.discard() : c -> stream.onChunk(Json.toTree(c));
    return Json.toTree(run(context, typed, AgentInit.fromJson(init), chunks));
  }

  // ---- snapshots
  // ---------------------------------------------------------------------------------

  /**
   * A snapshot as clients see it (shaped, state transformed).
   *
   * @throws BatonException {@code FAILED_PRECONDITION} without a session store, {@code
   *     INVALID_ARGUMENT} for an empty ID, {@code NOT_FOUND} when the snapshot does not exist
   */
  public SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    SnapshotReads r = requireReads();
    requireId(snapshotId, "snapshot ID");
    SessionSnapshot row = requireStore().getSnapshot(context, snapshotId);
    if (row == null) {
      throw BatonException.notFound("snapshot \"%s\" not found", snapshotId);
    }
    return r.shape(row);
  }

  public SessionSnapshot getSnapshot(String snapshotId) {
    return getSnapshot(ActionContext.root(registry), snapshotId);
  }

  /** The session's latest snapshot as clients see it, or null when the session has none. */
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotReads r = requireReads();
    requireId(sessionId, "session ID");
    SessionSnapshot row = requireStore().getLatestSnapshot(context, sessionId);
    return row == null ? null : r.shape(row);
  }

  public @Nullable SessionSnapshot getLatestSnapshot(String sessionId) {
    return getLatestSnapshot(ActionContext.root(registry), sessionId);
  }

  /** Waits until a snapshot settles; see the waitForSnapshot companion. */
  public SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId) {
    return requireReads().waitFor(context, GetSnapshotRequest.of(snapshotId));
  }

  public SessionSnapshot waitForSnapshot(String snapshotId) {
    return waitForSnapshot(ActionContext.root(registry), snapshotId);
  }

  /**
   * Aborts a detached run: a pending snapshot becomes aborted, and its worker stops and saves its
   * progress; any other snapshot is left as it is.
   *
   * @return the status after the attempt, or null when the snapshot does not exist
   */
  public @Nullable SnapshotStatus abort(ActionContext context, String snapshotId) {
    requireReads();
    requireId(snapshotId, "snapshot ID");
    return Snapshots.abort(context, requireStore(), snapshotId, Instant.now());
  }

  public @Nullable SnapshotStatus abort(String snapshotId) {
    return abort(ActionContext.root(registry), snapshotId);
  }

  // ---- description -----------------------------------------------------------------------------

  @Override
  public ActionDescriptor descriptor() {
    return descriptor;
  }

  public @Nullable String description() {
    return options.description();
  }

  public AgentMetadata metadata() {
    return metadata;
  }

  /** A reference carrying this agent's name and description. */
  public AgentRef ref() {
    return new AgentRef(name, options.description());
  }

  /** The session store, or null for a client-managed agent. */
  public @Nullable SessionStore store() {
    return options.sessionStore();
  }

  AgentOptions options() {
    return options;
  }

  AgentFunction function() {
    return function;
  }

  /** The scheduler of this agent's heartbeats, created on its first detach. */
  ScheduledExecutorService heartbeats() {
    ScheduledExecutorService scheduler = heartbeats;
    if (scheduler == null) {
      synchronized (this) {
        scheduler = heartbeats;
        if (scheduler == null) {
          ScheduledThreadPoolExecutor pool =
              new ScheduledThreadPoolExecutor(
                  1, Thread.ofPlatform().daemon().name("baton-heartbeat-" + name).factory());
          // The thread ends once no detached run is beating, so an agent that detached once does
          // not keep a thread for the life of the JVM; the next detach starts a new one.
          pool.setKeepAliveTime(HEARTBEAT_THREAD_IDLE.toMillis(), TimeUnit.MILLISECONDS);
          pool.allowCoreThreadTimeOut(true);
          pool.setRemoveOnCancelPolicy(true);
          scheduler = pool;
          heartbeats = scheduler;
        }
      }
    }
    return scheduler;
  }

  private List<Action<?, ?, ?>> companions() {
    List<Action<?, ?, ?>> actions = new ArrayList<>();
    SnapshotReads r = reads;
    if (r == null) {
      return actions;
    }
    actions.add(
        ActionDef.builder(
                ActionType.AGENT_SNAPSHOT,
                name,
                GetSnapshotRequest.class,
                SessionSnapshot.class,
                Void.class)
            .description("Reads a snapshot of agent " + name)
            .build((ctx, request, stream) -> r.get(ctx, request)));
    actions.add(
        ActionDef.builder(
                ActionType.AGENT_WAIT,
                name,
                GetSnapshotRequest.class,
                SessionSnapshot.class,
                Void.class)
            .description("Waits until a snapshot of agent " + name + " settles")
            .build((ctx, request, stream) -> r.waitFor(ctx, request)));
    if (metadata.isAbortable() && store() instanceof SnapshotSubscriber) {
      actions.add(
          ActionDef.builder(
                  ActionType.AGENT_ABORT, name, AbortRequest.class, AbortResponse.class, Void.class)
              .description("Aborts a background run of agent " + name)
              .build((ctx, request, stream) -> abortAction(ctx, request)));
    }
    return actions;
  }

  private AbortResponse abortAction(ActionContext context, AbortRequest request) {
    SnapshotStatus status = abort(context, request.snapshotId());
    if (status == null) {
      throw BatonException.notFound("abort: snapshot \"%s\" not found", request.snapshotId());
    }
    return new AbortResponse(request.snapshotId(), status);
  }

  private SnapshotReads requireReads() {
    SnapshotReads r = reads;
    if (r == null) {
      throw BatonException.of(
          Status.FAILED_PRECONDITION,
          "agent \"%s\": session store not configured; snapshots need a server-managed agent",
          name);
    }
    return r;
  }

  private SessionStore requireStore() {
    return Objects.requireNonNull(store());
  }

  private static void requireId(@Nullable String id, String what) {
    if (id == null || id.isEmpty()) {
      throw BatonException.invalidArgument("%s is required", what);
    }
  }

  @Override
  public String toString() {
    return "Agent[" + name + "]";
  }
}
