package dev.baton.internal.agent;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentFunction;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.BackgroundStream;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StateManagement;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.JsonSchemas;
import dev.baton.internal.core.Lazy;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.core.Timing;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An agent defined in this process: its function runs turns over sessions that its store (if any)
 * keeps, and it publishes its companion actions when it has a store. See {@link Agent}.
 *
 * <p>Thread-safe: one agent serves any number of concurrent invocations.
 */
public final class LocalAgent extends BaseAgent {
  private final AgentFunction function;
  private final AgentOptions options;
  // Built when first asked for: its four schemas are costly to infer, and a turn needs none.
  private final Lazy<ActionDescriptor> descriptor;
  private final AgentMetadata metadata;
  private final @Nullable SessionStore store;
  private final @Nullable SnapshotReads reads;
  private final Registry registry;
  private final Timing timing;
  private volatile @Nullable Heartbeats heartbeats;

  private LocalAgent(String name, AgentFunction function, AgentOptions options, Registry registry) {
    super(name, registry);
    this.function = Objects.requireNonNull(function, "function");
    this.options = options;
    SessionStore configured = options.sessionStore();
    // Every store call goes through the principal's view, so sessions belong to who started them.
    this.store = configured == null ? null : PrincipalScopedStore.wrap(configured);
    this.metadata =
        Objects.requireNonNull(
            metadataOf(
                configured instanceof SnapshotSubscriber,
                configured == null ? StateManagement.CLIENT : StateManagement.SERVER,
                options.stateType() == null
                    ? null
                    : JsonSchemas.infer(
                        options.stateType(), DefaultRegistry.jsonMapper(registry))));
    this.registry = registry;
    this.timing = DefaultRegistry.timing(registry);
    this.reads =
        store == null
            ? null
            : new SnapshotReads(name, store, options, DefaultRegistry.lifecycle(registry), timing);
    AgentMetadata published = metadata;
    this.descriptor =
        Lazy.of(() -> AgentActions.descriptor(name, options.description(), published));
  }

  /** Defines an agent: registers its run action and its companions, together. */
  public static LocalAgent define(
      Registry registry, String name, AgentFunction function, AgentOptions options) {
    LocalAgent agent = new LocalAgent(name, function, options, registry);
    registry.register(agent);
    for (Action<?, ?, ?> companion : agent.companions()) {
      registry.register(companion);
    }
    return agent;
  }

  // ---- running ---------------------------------------------------------------------------------

  @Override
  public AgentConnection connect(ActionContext context, AgentInit init) {
    return new Connection(Invocation.open(this, context, init));
  }

  /**
   * {@inheritDoc}
   *
   * <p>The turn runs on the calling thread, so the agent function should honour the context's
   * cancellation. A detach input is the exception: its work moves to a background thread.
   */
  @Override
  public AgentOutput run(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    Objects.requireNonNull(input, "input");
    // Work that detached ends its observer itself, once its row is final.
    boolean handedOff = false;
    try {
      if (!input.isDetach()) {
        return Invocation.runOnCallerThread(this, context, init, input, stream);
      }
      Invocation invocation = Invocation.open(this, context, init);
      if (stream instanceof BackgroundStream observer) {
        invocation.follow(observer);
      }
      invocation.send(input);
      AgentOutput output = invocation.awaitOutput(stream);
      handedOff = output.finishReason() == AgentFinishReason.DETACHED;
      return output;
    } finally {
      if (!handedOff) {
        endFollowed(stream);
      }
    }
  }

  // ---- snapshots -------------------------------------------------------------------------------

  @Override
  SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    SnapshotReads r = requireReads();
    requireId(snapshotId, "snapshot ID");
    SessionSnapshot row = requireStore().getSnapshot(context, snapshotId);
    if (row == null) {
      throw BatonException.notFound("snapshot \"%s\" not found", snapshotId);
    }
    return r.shape(row);
  }

  @Override
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    SnapshotReads r = requireReads();
    requireId(sessionId, "session ID");
    SessionSnapshot row = requireStore().getLatestSnapshot(context, sessionId);
    return row == null ? null : r.shape(row);
  }

  @Override
  SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId) {
    return requireReads().waitFor(context, GetSnapshotRequest.of(snapshotId));
  }

  @Override
  @Nullable SnapshotStatus abort(ActionContext context, String snapshotId) {
    requireReads();
    requireId(snapshotId, "snapshot ID");
    if (!canAbort()) {
      throw BatonException.failedPrecondition(
          "agent \"%s\" cannot abort background work: its session store cannot tell a running"
              + " worker to stop",
          name());
    }
    return Snapshots.abort(context, requireStore(), snapshotId, timing.now());
  }

  @Override
  SessionPage listSessions(ActionContext context, SessionQuery query) {
    return requireReads().list(context, Objects.requireNonNull(query, "query"));
  }

  @Override
  List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    return requireReads().rows(context, Objects.requireNonNull(sessionId, "sessionId"));
  }

  /** One rule for the abort call and the abort action: the store can reach a running worker. */
  private boolean canAbort() {
    return store instanceof SnapshotSubscriber;
  }

  // ---- description -----------------------------------------------------------------------------

  @Override
  public ActionDescriptor descriptor() {
    return descriptor.get();
  }

  @Override
  public @Nullable String description() {
    return options.description();
  }

  @Override
  public AgentMetadata metadata() {
    return metadata;
  }

  /**
   * The session store as the runtime uses it (each call seeing the sessions of its context's
   * principal), or null for a client-managed agent.
   */
  public @Nullable SessionStore store() {
    return store;
  }

  AgentOptions options() {
    return options;
  }

  AgentFunction function() {
    return function;
  }

  /** What owns this agent's turns, detached runs and threads: its Baton instance's lifecycle. */
  Lifecycle lifecycle() {
    return DefaultRegistry.lifecycle(registry);
  }

  /**
   * The heartbeat timer of this agent's detached runs, created on its first detach and stopped when
   * the instance closes.
   */
  Heartbeats heartbeats() {
    Heartbeats timer = heartbeats;
    if (timer == null) {
      synchronized (this) {
        timer = heartbeats;
        if (timer == null) {
          timer = new Heartbeats(name(), options.heartbeatInterval(), timing);
          heartbeats = timer;
          lifecycle().onClose(timer);
        }
      }
    }
    return timer;
  }

  private List<Action<?, ?, ?>> companions() {
    SnapshotReads r = reads;
    if (r == null) {
      return List.of();
    }
    return AgentActions.companions(
        name(), r::get, r::waitFor, canAbort() ? this::abortAction : null);
  }

  private SnapshotReads requireReads() {
    SnapshotReads r = reads;
    if (r == null) {
      throw BatonException.of(
          Status.FAILED_PRECONDITION,
          "agent \"%s\": session store not configured; snapshots need a server-managed agent",
          name());
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
    return "Agent[" + name() + "]";
  }
}
