package dev.baton.a2a.internal.server;

import dev.baton.Baton;
import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.a2a.internal.wire.Artifact;
import dev.baton.a2a.internal.wire.Event;
import dev.baton.a2a.internal.wire.JsonRpcError;
import dev.baton.a2a.internal.wire.JsonRpcResponse;
import dev.baton.a2a.internal.wire.MessageSendParams;
import dev.baton.a2a.internal.wire.Task;
import dev.baton.a2a.internal.wire.TaskArtifactUpdateEvent;
import dev.baton.a2a.internal.wire.TaskState;
import dev.baton.a2a.internal.wire.TaskStatusUpdateEvent;
import dev.baton.agent.Agent;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import dev.baton.server.internal.protocol.AuthContexts;
import dev.baton.server.internal.protocol.Drain;
import dev.baton.server.internal.protocol.Failures;
import dev.baton.server.internal.protocol.RequestBody;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A served agent's A2A endpoint: its card, and its JSON-RPC methods over the protocol core's
 * transport, with the core's request limits, auth contexts and error rules. Every error is a
 * JSON-RPC error whose message a remote client may read; nothing else reaches the wire.
 *
 * <p>Thread-safe: a request's state lives on its own thread.
 */
public final class JsonRpcEndpoint {
  private final Baton baton;
  private final String agentName;
  private final List<ContextProvider> providers;
  private final List<Action<?, ?, ?>> tools;
  private final Map<String, ObjectNode> securitySchemes;
  private final RequestBody body;
  private final Duration keepAliveInterval;
  private final Failures failures;
  private final LiveTasks live = new LiveTasks();

  /**
   * @param tools the tools the agent's card lists as skills
   * @param securitySchemes the security schemes the card declares, by name; empty for none
   * @param keepAliveInterval how long a stream goes without sending before a keep-alive comment
   */
  public JsonRpcEndpoint(
      Baton baton,
      String agentName,
      List<ContextProvider> providers,
      List<Action<?, ?, ?>> tools,
      Map<String, ObjectNode> securitySchemes,
      long maxRequestBytes,
      Duration keepAliveInterval,
      boolean exposeErrorMessages) {
    this.baton = baton;
    this.agentName = agentName;
    this.providers = List.copyOf(providers);
    this.tools = List.copyOf(tools);
    this.securitySchemes = securitySchemes;
    this.body = new RequestBody(maxRequestBytes);
    this.keepAliveInterval = keepAliveInterval;
    this.failures = new Failures(exposeErrorMessages);
  }

  /** Answers a request for the agent's card, which lives at {@code url}. */
  public void card(Transport transport, String url) {
    try {
      AgentCard card = TaskMapping.card(agent(), agentName, url, tools, securitySchemes);
      answer(transport, 200, Json.writeBytes(card));
    } catch (Refused refused) {
      answer(transport, refused.httpStatus, Json.writeBytes(refused.error));
    } catch (Throwable failure) {
      BatonException error = failures.classify(failure);
      answer(transport, error.status().httpStatus(), Json.writeBytes(failures.body(error)));
    }
  }

  /**
   * Answers one JSON-RPC request, unless {@code drain} refuses it: a server shutting down answers
   * HTTP 503 with a JSON-RPC error, and cancels the request if it outlasts the shutdown's grace.
   */
  public void call(Transport transport, Drain drain) {
    Cancellation cancellation = Cancellation.create();
    if (!drain.enter(cancellation)) {
      answer(
          transport,
          503,
          response(
              JsonRpcResponse.failure(
                  null,
                  JsonRpcError.of(
                      JsonRpcError.INTERNAL_ERROR,
                      "the server is shutting down; try again shortly"))));
      return;
    }
    try {
      call(transport, cancellation);
    } finally {
      drain.exit(cancellation);
    }
  }

  private void call(Transport transport, Cancellation cancellation) {
    JsonNode id = null;
    try {
      Agent agent = agent();
      Map<String, Object> auth = auth(transport);
      ObjectNode request = read(transport);
      id = request.get("id");
      String method = method(request);
      JsonNode params = request.get("params");
      ActionContext context = baton.context().withCancellation(cancellation).withAuth(auth);
      AgentTasks tasks = new AgentTasks(agent, context, live);
      switch (method) {
        case "message/send" -> send(transport, id, tasks, Params.messageSend(params), cancellation);
        case "message/stream" -> {
          String taskId = tasks.start(Params.messageSend(params).message());
          stream(transport, id, tasks, taskId, cancellation);
        }
        case "tasks/get" -> {
          Task task = tasks.get(Params.taskId(params));
          answer(
              transport,
              id,
              TaskMapping.withHistoryLength(task, Params.historyLength(params)),
              false);
        }
        case "tasks/cancel" -> answer(transport, id, tasks.cancel(Params.taskId(params)), false);
        case "tasks/resubscribe" -> {
          String taskId = Params.taskId(params);
          tasks.get(taskId);
          stream(transport, id, tasks, taskId, cancellation);
        }
        case "tasks/pushNotificationConfig/set",
            "tasks/pushNotificationConfig/get",
            "tasks/pushNotificationConfig/list",
            "tasks/pushNotificationConfig/delete" ->
            throw new RpcFailure(
                JsonRpcError.PUSH_NOTIFICATION_NOT_SUPPORTED,
                "push notifications are not supported");
        case "agent/getAuthenticatedExtendedCard" ->
            throw new RpcFailure(
                JsonRpcError.AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED,
                "the agent has no authenticated extended card");
        default -> throw new RpcFailure(JsonRpcError.METHOD_NOT_FOUND, "method not found");
      }
    } catch (Refused refused) {
      answer(transport, refused.httpStatus, response(JsonRpcResponse.failure(null, refused.error)));
    } catch (Throwable failure) {
      if (transport.isCommitted()) {
        transport.complete(failure, true);
        return;
      }
      answer(transport, 200, response(JsonRpcResponse.failure(validId(id), rpcError(failure))));
    }
  }

  /**
   * Answers a send: at once with the running task, or, when blocking, once it has settled. The
   * client going away ends the wait, never the task; the watch also lifts the idle timeout a long
   * turn would otherwise run into.
   */
  private void send(
      Transport transport,
      @Nullable JsonNode id,
      AgentTasks tasks,
      MessageSendParams params,
      Cancellation cancellation) {
    String taskId = tasks.start(params.message());
    @Nullable Integer historyLength =
        params.configuration() == null ? null : params.configuration().historyLength();
    if (!params.blocking()) {
      answer(transport, id, TaskMapping.withHistoryLength(tasks.get(taskId), historyLength), false);
      return;
    }
    transport.watchClient(cancellation::cancel);
    Task settled;
    boolean closeConnection;
    try {
      settled = tasks.await(taskId);
    } finally {
      closeConnection = transport.stopWatching();
    }
    answer(transport, id, TaskMapping.withHistoryLength(settled, historyLength), closeConnection);
  }

  /**
   * Streams a task: as it stands, then, while it runs, its turn's artifacts as they appear or
   * change, and once it has settled, those not yet sent as they are and its final status. The
   * client going away ends the wait, never the task.
   */
  private void stream(
      Transport transport,
      @Nullable JsonNode id,
      AgentTasks tasks,
      String taskId,
      Cancellation cancellation)
      throws IOException {
    EventStream events = EventStream.open(transport, id);
    try {
      transport.watchClient(cancellation::cancel);
      Task task = tasks.get(taskId);
      events.send(task);
      if (task.status().state() == TaskState.WORKING) {
        task = follow(events, tasks, task, cancellation);
      }
      boolean closeConnection = transport.stopWatching();
      events.last(new TaskStatusUpdateEvent(taskId, task.contextId(), task.status(), true, null));
      transport.complete(null, closeConnection);
    } catch (IOException gone) {
      transport.stopWatching();
      transport.complete(gone, true);
    } catch (Throwable failure) {
      boolean closeConnection = transport.stopWatching();
      events.error(rpcError(failure));
      transport.complete(null, closeConnection);
    }
  }

  /** What wakes a stream that follows a running task. */
  private sealed interface Signal {}

  /** The turn made or changed an artifact. */
  private record Changed() implements Signal {}

  private record Settled(Task task) implements Signal {}

  private record Failed(BatonException error) implements Signal {}

  /**
   * Follows a running task until it settles and returns it settled. An artifact of its turn goes
   * out as it appears, and again each time it changes (whole, replacing the one sent before under
   * its ID); a stream with nothing to send for the keep-alive interval sends a comment. The wait
   * runs on a thread of its own, which the request's cancellation ends.
   */
  private Task follow(EventStream events, AgentTasks tasks, Task running, Cancellation cancellation)
      throws IOException, InterruptedException {
    String taskId = running.id();
    Map<String, Artifact> sent = new HashMap<>();
    for (Artifact artifact : artifacts(running)) {
      sent.put(artifact.artifactId(), artifact);
    }
    LinkedBlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
    boolean settled = false;
    // Changes coalesce: a stream reads the task once for any number of them.
    AtomicBoolean changePending = new AtomicBoolean();
    Thread.ofVirtual()
        .name("a2a-wait-" + taskId)
        .start(
            () -> {
              try {
                signals.add(new Settled(tasks.await(taskId)));
              } catch (Throwable failure) {
                signals.add(new Failed(failures.classify(failure)));
              }
            });
    try (LiveTasks.Watch ignored =
        tasks.watch(
            taskId,
            () -> {
              if (changePending.compareAndSet(false, true)) {
                signals.add(new Changed());
              }
            })) {
      // What the turn made between the first read and the watch goes out at once.
      changePending.set(true);
      signals.add(new Changed());
      while (true) {
        Signal signal = signals.poll(keepAliveInterval.toNanos(), TimeUnit.NANOSECONDS);
        switch (signal) {
          case null -> events.keepAlive();
          case Changed changed -> {
            changePending.set(false);
            sendChanged(events, tasks.get(taskId), sent);
          }
          case Settled end -> {
            settled = true;
            sendChanged(events, end.task(), sent);
            return end.task();
          }
          case Failed failed -> throw failed.error();
        }
      }
    } finally {
      if (!settled) {
        // A stream that ends early (its client gone) ends the wait with it.
        cancellation.cancel();
      }
    }
  }

  /** Sends the task's artifacts that were not sent yet as they are now. */
  private static void sendChanged(EventStream events, Task task, Map<String, Artifact> sent)
      throws IOException {
    for (Artifact artifact : artifacts(task)) {
      if (!artifact.equals(sent.put(artifact.artifactId(), artifact))) {
        events.send(
            new TaskArtifactUpdateEvent(task.id(), task.contextId(), artifact, false, true, null));
      }
    }
  }

  private static List<Artifact> artifacts(Task task) {
    return task.artifacts() == null ? List.of() : task.artifacts();
  }

  /** The served agent; one not (or no longer) defined answers 404. */
  private Agent agent() {
    try {
      return baton.agent(agentName);
    } catch (BatonException unknown) {
      throw new Refused(404, JsonRpcError.of(JsonRpcError.INVALID_REQUEST, "no such agent"));
    }
  }

  private Map<String, Object> auth(Transport transport) {
    if (providers.isEmpty()) {
      return Map.of();
    }
    Map<String, String> headers = new HashMap<>();
    transport.forEachRequestHeader((name, value) -> AuthContexts.addHeader(headers, name, value));
    try {
      return AuthContexts.of(providers, RequestData.of(transport.method(), headers));
    } catch (Throwable failure) {
      BatonException error = failures.classify(failure);
      throw new Refused(
          error.status().httpStatus(),
          JsonRpcError.of(JsonRpcError.INVALID_REQUEST, failures.wire(error).message()));
    }
  }

  private ObjectNode read(Transport transport) {
    try {
      return body.read(transport);
    } catch (BatonException error) {
      if (RequestBody.isTooLarge(error)) {
        throw new RpcFailure(JsonRpcError.INVALID_REQUEST, "the request is too large");
      }
      throw RequestBody.isNotJson(error)
          ? new RpcFailure(JsonRpcError.PARSE_ERROR, "the request is not valid JSON")
          : new RpcFailure(
              JsonRpcError.INVALID_REQUEST, "the request must be one JSON-RPC request object");
    }
  }

  private static String method(ObjectNode request) {
    JsonNode version = request.get("jsonrpc");
    JsonNode method = request.get("method");
    JsonNode id = request.get("id");
    if (version == null
        || !"2.0".equals(version.stringValue(null))
        || method == null
        || !method.isString()
        || id == null
        || validId(id) == null) {
      throw new RpcFailure(
          JsonRpcError.INVALID_REQUEST,
          "a request needs \"jsonrpc\": \"2.0\", a string \"method\" and an \"id\" that is a string,"
              + " an integer or null");
    }
    return method.stringValue();
  }

  /** An id JSON-RPC 2.0 allows (a string, an integer, or null), else null. */
  private static @Nullable JsonNode validId(@Nullable JsonNode id) {
    return id != null && (id.isString() || id.isIntegralNumber() || id.isNull()) ? id : null;
  }

  private JsonRpcError rpcError(Throwable failure) {
    if (failure instanceof RpcFailure rpc) {
      return rpc.error;
    }
    BatonException error = failures.classify(failure);
    String message = failures.wire(error).message();
    int code =
        switch (error) {
          case AgentTasks.NotCancelable ignored -> JsonRpcError.TASK_NOT_CANCELABLE;
          case AgentTasks.NotContinuable ignored -> JsonRpcError.INVALID_REQUEST;
          default ->
              switch (error.status()) {
                case NOT_FOUND -> JsonRpcError.TASK_NOT_FOUND;
                case INVALID_ARGUMENT -> JsonRpcError.INVALID_PARAMS;
                case FAILED_PRECONDITION, UNIMPLEMENTED -> JsonRpcError.UNSUPPORTED_OPERATION;
                default -> JsonRpcError.INTERNAL_ERROR;
              };
        };
    return JsonRpcError.of(code, code == JsonRpcError.TASK_NOT_FOUND ? "task not found" : message);
  }

  private void answer(
      Transport transport, @Nullable JsonNode id, Event result, boolean closeConnection) {
    if (closeConnection) {
      transport.setHeader("Connection", "close");
    }
    answer(transport, 200, response(JsonRpcResponse.success(id, Json.toTree(result))));
  }

  private static void answer(Transport transport, int status, byte[] json) {
    transport.setStatus(status);
    transport.setHeader("Content-Type", "application/json");
    transport.finish(json);
  }

  private static byte[] response(JsonRpcResponse response) {
    return Json.writeBytes(response);
  }

  /** A failure with its own JSON-RPC code. */
  private static final class RpcFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient JsonRpcError error;

    RpcFailure(int code, String message) {
      super(message, null, false, false);
      this.error = JsonRpcError.of(code, message);
    }
  }

  /** A request its context providers refused: an HTTP status besides the JSON-RPC error. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int httpStatus;
    private final transient JsonRpcError error;

    Refused(int httpStatus, JsonRpcError error) {
      super(error.message(), null, false, false);
      this.httpStatus = httpStatus;
      this.error = error;
    }
  }
}
