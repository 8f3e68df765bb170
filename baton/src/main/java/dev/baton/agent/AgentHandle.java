package dev.baton.agent;

import dev.baton.agent.CompanionRequests.AbortRequest;
import dev.baton.agent.CompanionRequests.AbortResponse;
import dev.baton.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An agent as its registry shows it: its run action and whichever companions it publishes, used
 * through their JSON interface. It works the same for an agent defined here and for a remote one
 * whose actions proxy another server, which is what delegation needs.
 *
 * <p>Immutable and thread-safe.
 */
public final class AgentHandle {
  private final String name;
  private final Action<?, ?, ?> run;
  private final @Nullable Action<?, ?, ?> snapshots;
  private final @Nullable Action<?, ?, ?> waits;
  private final @Nullable Action<?, ?, ?> aborts;
  private final @Nullable AgentMetadata metadata;

  private AgentHandle(String name, Action<?, ?, ?> run, Registry registry) {
    this.name = name;
    this.run = run;
    this.snapshots = registry.lookup(ActionType.AGENT_SNAPSHOT, name).orElse(null);
    this.waits = registry.lookup(ActionType.AGENT_WAIT, name).orElse(null);
    this.aborts = registry.lookup(ActionType.AGENT_ABORT, name).orElse(null);
    this.metadata = AgentMetadata.fromDescriptor(run.descriptor().metadata());
  }

  /**
   * The agent registered under a name.
   *
   * @throws BatonException {@code NOT_FOUND} when nothing is registered under it, {@code
   *     INVALID_ARGUMENT} when what is registered is not an agent
   */
  public static AgentHandle lookup(Registry registry, String name) {
    Action<?, ?, ?> action =
        registry
            .lookup(ActionType.AGENT, name)
            .orElseThrow(() -> BatonException.notFound("agent \"%s\" not found in registry", name));
    if (!action.descriptor().isBidi()) {
      throw BatonException.invalidArgument("\"%s\" is registered but is not an agent", name);
    }
    return new AgentHandle(name, action, registry);
  }

  public String name() {
    return name;
  }

  /** The agent's description, or null. */
  public @Nullable String description() {
    return run.descriptor().description();
  }

  /** What the agent declares about itself; null when unknown (absent or malformed). */
  public @Nullable AgentMetadata metadata() {
    return metadata;
  }

  /**
   * Runs one turn to its output. A failed turn is a failed output; a refused init or a cancelled
   * context is an exception.
   */
  public AgentOutput run(ActionContext context, AgentInput input, AgentInit init) {
    if (run instanceof Agent local) {
      return local.run(context, input, init, StreamCallback.discard());
    }
    JsonNode output =
        run.runJson(context, Json.toTree(input), Json.toTree(init), StreamCallback.discard());
    return Json.convert(output, AgentOutput.class);
  }

  /**
   * Starts the turn in the background (a detach input) and returns the task.
   *
   * @throws BatonException with the output's status when the launch failed, for instance {@code
   *     FAILED_PRECONDITION} when the agent's store cannot run background work; {@code
   *     FAILED_PRECONDITION} too when the run settled at once without recording a snapshot
   */
  public DetachedTask start(ActionContext context, AgentInput input, AgentInit init) {
    AgentOutput output = run(context, input.withDetach(true), init);
    if (output.finishReason() == AgentFinishReason.FAILED) {
      throw output.error() == null
          ? BatonException.internal("agent \"" + name + "\" failed to start", null)
          : output.error().toException();
    }
    if (output.snapshotId() == null) {
      throw BatonException.failedPrecondition(
          "agent \"%s\" settled synchronously (%s) without recording a snapshot",
          name,
          output.finishReason() == null ? "no finish reason" : output.finishReason().wireName());
    }
    return new DetachedTask(this, output.snapshotId());
  }

  /** A task over a snapshot this agent wrote; no I/O. */
  public DetachedTask task(String snapshotId) {
    return new DetachedTask(this, snapshotId);
  }

  /** Reads a snapshot through the agent's getSnapshot companion. */
  public SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return read(require(snapshots, "read a snapshot"), context, GetSnapshotRequest.of(snapshotId));
  }

  /** Waits for a snapshot to settle through the agent's waitForSnapshot companion. */
  public SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId) {
    return read(require(waits, "follow a snapshot"), context, GetSnapshotRequest.of(snapshotId));
  }

  /** Aborts through the agent's abort companion. */
  public AbortResponse abort(ActionContext context, String snapshotId) {
    if (aborts == null) {
      if (snapshots == null) {
        throw BatonException.failedPrecondition(
            "agent \"%s\" publishes no action to abort background work; an agent publishes one"
                + " only when it has a session store that supports it",
            name);
      }
      throw BatonException.failedPrecondition(
          "agent \"%s\": the session store does not support abort (it does not implement"
              + " SnapshotSubscriber)",
          name);
    }
    JsonNode response =
        aborts.runJson(
            context, Json.toTree(new AbortRequest(snapshotId)), null, StreamCallback.discard());
    return Json.convert(response, AbortResponse.class);
  }

  private Action<?, ?, ?> require(@Nullable Action<?, ?, ?> companion, String what) {
    if (companion == null) {
      throw BatonException.of(
          Status.FAILED_PRECONDITION,
          "agent \"%s\" publishes no action to %s; an agent publishes one only when it has a"
              + " session store",
          name,
          what);
    }
    return companion;
  }

  private static SessionSnapshot read(
      Action<?, ?, ?> companion, ActionContext context, GetSnapshotRequest request) {
    JsonNode row = companion.runJson(context, Json.toTree(request), null, StreamCallback.discard());
    return Json.convert(row, SessionSnapshot.class);
  }

  /** A background run of an agent, known by its pending snapshot. */
  public record DetachedTask(AgentHandle agent, String snapshotId) {
    /** One read of the task's snapshot. */
    public SessionSnapshot poll(ActionContext context) {
      return agent.getSnapshot(context, snapshotId);
    }

    /** Waits until the task settles. */
    public SessionSnapshot await(ActionContext context) {
      return agent.waitForSnapshot(context, snapshotId);
    }

    public AbortResponse abort(ActionContext context) {
      return agent.abort(context, snapshotId);
    }
  }
}
