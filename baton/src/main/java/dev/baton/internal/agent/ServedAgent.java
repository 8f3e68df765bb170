package dev.baton.internal.agent;

import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.SessionSnapshot;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.Registry;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.internal.core.Lazy;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What the agents served by another process share, whatever protocol reaches them ({@link
 * RemoteAgent} for Genkit's, {@link BridgedAgent} for the others): the Baton instance tracks each
 * turn (a closing instance refuses it, and cancels it once the grace period is over), a connection
 * sends its inputs one turn at a time, and the agent is described by what its definition declared.
 */
abstract sealed class ServedAgent extends BaseAgent permits RemoteAgent, BridgedAgent {
  private final @Nullable String description;
  private final @Nullable AgentMetadata metadata;
  private final Registry registry;
  // Built when first asked for: its four schemas are costly to infer, and a turn needs none.
  private final Lazy<ActionDescriptor> descriptor;

  ServedAgent(
      String name,
      @Nullable String description,
      @Nullable AgentMetadata metadata,
      Registry registry) {
    super(name, registry);
    this.description = description;
    this.metadata = metadata;
    this.registry = registry;
    this.descriptor = Lazy.of(() -> AgentActions.descriptor(name, description, metadata));
  }

  /**
   * Registers the agent and, when {@code companions}, its snapshot and wait companions, and the
   * abort companion when {@code abortable}.
   */
  final void register(
      boolean companions,
      boolean abortable,
      BiFunction<ActionContext, GetSnapshotRequest, SessionSnapshot> get) {
    registry.register(this);
    if (!companions) {
      return;
    }
    for (Action<?, ?, ?> companion :
        AgentActions.companions(
            name(),
            get,
            (ctx, request) -> waitForSnapshot(ctx, requireId(request.snapshotId())),
            abortable ? this::abortAction : null)) {
      registry.register(companion);
    }
  }

  /** Runs one call to the other process as a turn the instance tracks. */
  final <T> T tracked(ActionContext context, Function<ActionContext, T> call) {
    return TrackedTurn.run(registry, context, call);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each input is one turn, sent once the previous one has answered and resuming where it left
   * off. A pure detach makes the latest input not yet sent go in the background; an input already
   * sent cannot be detached.
   */
  @Override
  public final AgentConnection connect(ActionContext context, AgentInit init) {
    return new Connection(
        new RemoteInvocation(this, TrackedTurn.lifecycle(registry), context, init));
  }

  @Override
  public final ActionDescriptor descriptor() {
    return descriptor.get();
  }

  @Override
  public final @Nullable String description() {
    return description;
  }

  @Override
  public final @Nullable AgentMetadata metadata() {
    return metadata;
  }
}
