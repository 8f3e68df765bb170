package dev.baton.internal.agent;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.BackgroundStream;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.AbortRequest;
import dev.baton.internal.agent.CompanionRequests.AbortResponse;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What local, remote and bridged agents share: the conveniences that run in a root context, the
 * JSON entry point, and the snapshot operations bound to a context. Each kind implements the four
 * snapshot operations with an explicit context, once.
 */
abstract sealed class BaseAgent implements Agent permits LocalAgent, ServedAgent {
  private final String name;
  private final Registry registry;

  BaseAgent(String name, Registry registry) {
    if (name.isBlank()) {
      throw BatonException.invalidArgument("an agent name must not be blank");
    }
    this.name = name;
    this.registry = registry;
  }

  /**
   * Tells an in-process observer of a run that streamed it all on the run's own call (not detached
   * work) that no more chunks come.
   */
  static void endFollowed(StreamCallback<AgentStreamChunk> stream) {
    if (stream instanceof BackgroundStream observer) {
      observer.onEnd();
    }
  }

  @Override
  public final AgentOutput runText(String text, AgentInit init) {
    return run(rootContext(), AgentInput.text(text), init, StreamCallback.discard());
  }

  @Override
  public final JsonNode runJson(
      ActionContext context,
      JsonNode input,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> stream) {
    return AgentActions.runJson(this, context, input, init, stream);
  }

  @Override
  public final AgentSnapshots snapshots(ActionContext context) {
    return new BoundSnapshots(this, context);
  }

  @Override
  public final AgentSnapshots snapshots() {
    return snapshots(rootContext());
  }

  abstract SessionSnapshot getSnapshot(ActionContext context, String snapshotId);

  abstract @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId);

  abstract SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId);

  abstract @Nullable SnapshotStatus abort(ActionContext context, String snapshotId);

  /**
   * The agent's sessions. An agent served by another process (remote or bridged) keeps them in that
   * process's store, and no protocol route lists them: {@code FAILED_PRECONDITION}.
   */
  SessionPage listSessions(ActionContext context, SessionQuery query) {
    throw BatonException.failedPrecondition(
        "agent \"%s\" is served by another process, which lists its sessions", name());
  }

  /** A session's rows without their conversations; see {@link #listSessions} for remote agents. */
  List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    throw BatonException.failedPrecondition(
        "agent \"%s\" is served by another process, which lists its snapshots", name());
  }

  /** The abort companion: an abort of a snapshot that does not exist is {@code NOT_FOUND}. */
  final AbortResponse abortAction(ActionContext context, AbortRequest request) {
    SnapshotStatus status = abort(context, request.snapshotId());
    if (status == null) {
      throw BatonException.notFound("abort: snapshot \"%s\" not found", request.snapshotId());
    }
    return new AbortResponse(request.snapshotId(), status);
  }

  /**
   * Metadata as a descriptor publishes it; null when nothing is known. Users only read {@link
   * AgentMetadata}, so Baton reads it too: from the JSON the descriptor carries, never through its
   * positional constructor.
   */
  static @Nullable AgentMetadata metadataOf(
      @Nullable Boolean abortable,
      @Nullable StateManagement stateManagement,
      @Nullable JsonNode stateSchema) {
    if (abortable == null && stateManagement == null && stateSchema == null) {
      return null;
    }
    ObjectNode agent = Json.object();
    if (abortable != null) {
      agent.put("abortable", abortable);
    }
    if (stateManagement != null) {
      agent.put("stateManagement", stateManagement.wireName());
    }
    if (stateSchema != null) {
      agent.set("stateSchema", stateSchema);
    }
    ObjectNode descriptorMetadata = Json.object();
    descriptorMetadata.set("agent", agent);
    return AgentMetadata.fromDescriptor(descriptorMetadata);
  }

  @Override
  public final ActionType type() {
    return ActionType.AGENT;
  }

  @Override
  public final String name() {
    return name;
  }

  private ActionContext rootContext() {
    return ActionContext.root(registry);
  }

  /** The operations under one context. */
  private record BoundSnapshots(BaseAgent agent, ActionContext context) implements AgentSnapshots {
    @Override
    public SessionSnapshot get(String snapshotId) {
      return agent.getSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SessionSnapshot latest(String sessionId) {
      return agent.getLatestSnapshot(context, sessionId);
    }

    @Override
    public SessionSnapshot waitFor(String snapshotId) {
      return agent.waitForSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SnapshotStatus abort(String snapshotId) {
      return agent.abort(context, snapshotId);
    }

    @Override
    public SessionPage sessions(SessionQuery query) {
      return agent.listSessions(context, query);
    }

    @Override
    public List<SessionSnapshot> rows(String sessionId) {
      return agent.listSnapshots(context, sessionId);
    }
  }

  /** The ID a remote or bridged agent's read names; empty or missing is the caller's mistake. */
  static String requireId(@Nullable String id) {
    if (id == null || id.isEmpty()) {
      throw BatonException.invalidArgument("snapshot or session ID is required");
    }
    return id;
  }
}
