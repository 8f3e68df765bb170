package dev.baton.internal.agent;

import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.internal.core.DefaultRegistry;
import dev.baton.internal.core.Timing;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * An agent served by another process, Baton's or Genkit's (JS, Go), called over HTTP. Its turns,
 * snapshot reads, waits and aborts go to the server, so the Agents middleware delegates to it
 * exactly as to a local agent, background tasks and {@code continue_task} included; its sessions,
 * and the token usage they record, stay on the server.
 *
 * <p>The server's answers keep their status names: a failed turn is a failed output, and a refused
 * init (an unknown snapshot, a pending one) is a {@link BatonException} with the server's status. A
 * detach the server refuses with {@code FAILED_PRECONDITION} (it has no store for background work)
 * is a failed output with that error, as a local agent gives it, although Genkit JS's and Baton's
 * servers send it as an error; an init refused with that status on a detach request reads the same,
 * since the wire does not tell the two apart. {@link AgentInit#continueFrom} and {@link
 * AgentInput#retryTurn()} travel as Baton's {@code continue} and {@code retry} fields, which a
 * Baton server honours; a Genkit server refuses them, and the refusal comes back with its status
 * and message.
 *
 * <p>Genkit JS serves no waitForSnapshot route: when the route is missing (the server answers
 * {@code NOT_FOUND} for it while getSnapshot finds the snapshot), waits poll getSnapshot every
 * {@link RemoteAgentOptions#waitPollInterval()} until the status is terminal, for the rest of the
 * agent's life. An abort reads the snapshot again when the server's answer does not say where the
 * abort left it (JS answers with the status before the abort).
 *
 * <p>Thread-safe.
 */
public final class RemoteAgent extends ServedAgent {
  private final URI url;
  private final URI snapshotUrl;
  private final URI waitUrl;
  private final URI abortUrl;
  private final RemoteAgentOptions options;
  private final RemoteCalls calls;
  private final Timing timing;
  private volatile boolean waitRouteMissing;

  private RemoteAgent(String name, URI url, RemoteAgentOptions options, Registry registry) {
    super(
        name,
        options.description(),
        metadataOf(options.abortable(), options.stateManagement(), null),
        registry);
    this.url = Objects.requireNonNull(url, "url");
    String base = url.toString().endsWith("/") ? url.toString() : url + "/";
    this.snapshotUrl =
        Objects.requireNonNullElse(options.getSnapshotUrl(), URI.create(base + "getSnapshot"));
    this.waitUrl =
        Objects.requireNonNullElse(
            options.waitForSnapshotUrl(), URI.create(base + "waitForSnapshot"));
    this.abortUrl = Objects.requireNonNullElse(options.abortUrl(), URI.create(base + "abort"));
    this.options = options;
    this.calls = new RemoteCalls(name, options, DefaultRegistry.lifecycle(registry));
    this.timing = DefaultRegistry.timing(registry);
  }

  /**
   * Defines a remote agent: registers its run action and, unless its options declare it
   * client-managed, its companions (the abort companion only when they do not declare that it
   * cannot abort).
   */
  public static RemoteAgent define(
      Registry registry, String name, URI url, RemoteAgentOptions options) {
    RemoteAgent agent = new RemoteAgent(name, url, options, registry);
    agent.register(
        options.stateManagement() != StateManagement.CLIENT,
        !Boolean.FALSE.equals(options.abortable()),
        agent::getSnapshotAction);
    return agent;
  }

  // ---- running ---------------------------------------------------------------------------------

  /**
   * {@inheritDoc}
   *
   * <p>The turn is one HTTP request; cancelling the context closes it, which cancels the run on the
   * server unless it detached. The Baton instance tracks the request as a turn: a closing instance
   * refuses it, and cancels it once the grace period is over.
   */
  @Override
  public AgentOutput run(
      ActionContext context,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    Objects.requireNonNull(input, "input");
    try {
      return tracked(context, turn -> calls.turn(turn, url, input, init, stream));
    } catch (BatonException e) {
      if (input.isDetach() && e.status() == Status.FAILED_PRECONDITION) {
        return refusedDetach(init, e);
      }
      throw e;
    } finally {
      // Detached work runs on the server: nothing of it streams here.
      endFollowed(stream);
    }
  }

  /**
   * A detach the server refused, as a local agent reports one: a failed output with the server's
   * error, naming what the turn started from (the init's session and snapshot, and a client-managed
   * agent's state).
   */
  private static AgentOutput refusedDetach(AgentInit init, BatonException refusal) {
    SessionState state = init.state();
    String sessionId =
        init.sessionId() != null ? init.sessionId() : state == null ? null : state.sessionId();
    return AgentOutput.failed(sessionId, init.snapshotId(), refusal.toPublicErrorInfo())
        .withState(state);
  }

  // ---- snapshots -------------------------------------------------------------------------------

  @Override
  SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return getSnapshotAction(context, GetSnapshotRequest.of(requireId(snapshotId)));
  }

  @Override
  @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    try {
      return getSnapshotAction(context, new GetSnapshotRequest(null, requireId(sessionId)));
    } catch (BatonException e) {
      if (e.status() == Status.NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  @Override
  SessionSnapshot waitForSnapshot(ActionContext context, String snapshotId) {
    requireId(snapshotId);
    while (!waitRouteMissing) {
      try {
        return snapshotOf(
            calls.companion(context, waitUrl, Map.of("snapshotId", snapshotId), true), snapshotId);
      } catch (BatonException e) {
        context.cancellation().throwIfCancelled();
        if (e.status() == Status.NOT_FOUND) {
          // Either the snapshot or the route is missing; a read that finds it means the route.
          getSnapshot(context, snapshotId);
          waitRouteMissing = true;
        } else if (e.status() != Status.DEADLINE_EXCEEDED) {
          throw e;
        } else {
          // The call ran out while the snapshot was still pending: wait again.
          timing.pause(context.cancellation(), options.waitPollInterval());
        }
      }
    }
    return poll(context, snapshotId);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The server's answer is trusted when it names a settled status; otherwise the snapshot is
   * read again. A server without an abort route (it answers {@code NOT_FOUND} while getSnapshot
   * finds the snapshot) cannot abort background work: {@code FAILED_PRECONDITION}.
   */
  @Override
  @Nullable SnapshotStatus abort(ActionContext context, String snapshotId) {
    requireId(snapshotId);
    JsonNode answer;
    try {
      answer = calls.companion(context, abortUrl, Map.of("snapshotId", snapshotId), false);
    } catch (BatonException e) {
      if (e.status() != Status.NOT_FOUND) {
        throw e;
      }
      SessionSnapshot row = snapshotOrNull(context, snapshotId);
      if (row == null) {
        return null;
      }
      // The URL is this process's own configuration: it goes in a cause, for logs only.
      throw new BatonException(
          Status.FAILED_PRECONDITION,
          "remote agent \"" + name() + "\" publishes no route to abort background work",
          null,
          true,
          new BatonException(Status.NOT_FOUND, "no abort route at " + abortUrl, null, false, e));
    }
    JsonNode status = answer == null ? null : answer.get("status");
    if (status != null && status.isString() && !status.stringValue().isEmpty()) {
      try {
        SnapshotStatus after = SnapshotStatus.fromWireName(status.stringValue());
        if (after != SnapshotStatus.PENDING) {
          return after;
        }
      } catch (IllegalArgumentException unknownStatus) {
        // Read the row instead.
      }
    }
    SessionSnapshot row = snapshotOrNull(context, snapshotId);
    return row == null ? null : row.statusOrCompleted();
  }

  /** The snapshot, or null when the server does not find it. */
  private @Nullable SessionSnapshot snapshotOrNull(ActionContext context, String snapshotId) {
    try {
      return getSnapshot(context, snapshotId);
    } catch (BatonException e) {
      if (e.status() == Status.NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  private SessionSnapshot getSnapshotAction(ActionContext context, GetSnapshotRequest request) {
    Map<String, String> data = new LinkedHashMap<>();
    if (request.snapshotId() != null && !request.snapshotId().isEmpty()) {
      data.put("snapshotId", request.snapshotId());
    }
    if (request.sessionId() != null && !request.sessionId().isEmpty()) {
      data.put("sessionId", request.sessionId());
    }
    if (data.isEmpty()) {
      throw BatonException.invalidArgument("getSnapshot: snapshotId or sessionId is required");
    }
    String what =
        data.containsKey("snapshotId")
            ? "snapshot \"" + data.get("snapshotId") + "\""
            : "session \"" + data.get("sessionId") + "\"";
    JsonNode result = calls.companion(context, snapshotUrl, data, false);
    if (result == null) {
      throw BatonException.notFound("getSnapshot: %s not found", what);
    }
    return settledAfterAbort(Json.convert(result, SessionSnapshot.class));
  }

  private SessionSnapshot snapshotOf(@Nullable JsonNode result, String snapshotId) {
    if (result == null) {
      throw BatonException.notFound("snapshot \"%s\" not found", snapshotId);
    }
    return settledAfterAbort(Json.convert(result, SessionSnapshot.class));
  }

  /**
   * Genkit JS never writes an aborted row's finish reason, so such a row would read as still saving
   * its progress (aborting) for ever. Once its heartbeat is older than the default timeout it reads
   * as settled, as a local row does. Only aborted rows are shaped here: whether a pending row has
   * expired is the server's call, made with its own heartbeat timeout.
   */
  private SessionSnapshot settledAfterAbort(SessionSnapshot row) {
    return row.status() == SnapshotStatus.ABORTED && !row.isSettled()
        ? row.shaped(timing.now(), AgentOptions.DEFAULT_HEARTBEAT_TIMEOUT)
        : row;
  }

  /**
   * Waits by reading the snapshot every poll interval until its status is terminal, as Genkit JS's
   * own {@code task.wait()} does: a server without the wait route has no notion of an aborted run
   * still saving its progress (JS never writes the final finish reason of an aborted row).
   */
  private SessionSnapshot poll(ActionContext context, String snapshotId) {
    while (true) {
      SessionSnapshot row = getSnapshot(context, snapshotId);
      if (row.statusOrCompleted().isTerminal()) {
        return row;
      }
      timing.pause(context.cancellation(), options.waitPollInterval());
    }
  }

  // ---- description -----------------------------------------------------------------------------

  /** The URL of the agent's turns. */
  public URI url() {
    return url;
  }

  @Override
  public String toString() {
    return "RemoteAgent[" + name() + " at " + url + "]";
  }
}
