package dev.baton.server.internal.protocol;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInput;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.RemoteAgent;
import dev.baton.internal.core.RootSpanHooks;
import dev.baton.internal.core.TracedContext;
import dev.baton.internal.http.GenkitHttp;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request, from its body to its answer, on a virtual thread of its own: admission (refused
 * while draining), the envelope, the context providers, the action, and the answer as JSON or as an
 * SSE stream. The run's cancellation fires when the client goes away or the server gives up on it
 * at shutdown. It reads and writes through the binding's {@link Transport}, and so is the same on
 * every server.
 */
final class Exchange {
  private static final Logger log = LoggerFactory.getLogger(Exchange.class);

  /** What every exchange of one protocol shares. */
  record Settings(
      Registry registry,
      List<ContextProvider> providers,
      RequestBody body,
      Failures failures,
      Duration keepAliveInterval) {}

  /** How the exchange ends: the output, or the error it failed with. */
  private sealed interface Outcome {}

  private record Succeeded(JsonNode output) implements Outcome {}

  private record Failed(BatonException error) implements Outcome {}

  private final Settings settings;
  private final Drain drain;
  private final ScheduledExecutorService keepAlives;
  private final Route route;
  private final Transport transport;
  private final @Nullable Map<String, ?> boundAuth;
  private final Cancellation cancellation = Cancellation.create();
  private boolean watching;

  /** The SSE answer once it has begun: from then on every path ends it with a closing frame. */
  private @Nullable SseStream stream;

  /**
   * An exchange of the protocol's current run: {@code drain} and {@code keepAlives} are new each
   * time the protocol starts.
   *
   * @param boundAuth the auth context the binding took from its server (an authenticated principal,
   *     say), merged before the context providers', or null for none
   */
  Exchange(
      Settings settings,
      Drain drain,
      ScheduledExecutorService keepAlives,
      Route route,
      Transport transport,
      @Nullable Map<String, ?> boundAuth) {
    this.settings = settings;
    this.drain = drain;
    this.keepAlives = keepAlives;
    this.route = route;
    this.transport = transport;
    this.boundAuth = boundAuth;
  }

  void run() {
    if (!drain.enter(cancellation)) {
      answer(
          new Failed(BatonException.of(Status.UNAVAILABLE, "the server is shutting down")), false);
      return;
    }
    try {
      if (!"POST".equals(transport.method())) {
        transport.setHeader("Allow", "POST");
        answerError(405, BatonException.invalidArgument("%s answers POST only", route));
        return;
      }
      ObjectNode envelope = settings.body().read(transport);
      JsonNode data = envelope.get("data");
      JsonNode init = envelope.get("init");
      Map<String, Object> auth = auth(data);
      ActionContext context =
          ActionContext.root(settings.registry())
              .withCancellation(cancellation)
              .withAuth(auth)
              .with(RootSpanHooks.KEY, tracedContext(auth));
      Action<?, ?, ?> action = resolve();
      watching = true;
      transport.watchClient(this::clientGone);
      if (wantsStream()) {
        stream(action, context, data, init);
      } else {
        Outcome outcome = execute(action, context, data, init, StreamCallback.discard());
        answer(outcome, stopWatching());
      }
    } catch (Throwable failure) {
      answer(new Failed(settings.failures().classify(failure)), stopWatching());
    } finally {
      drain.exit(cancellation);
    }
  }

  /** Runs the action. The Baton instance tracks the runs it detaches, which the drain waits for. */
  private Outcome execute(
      Action<?, ?, ?> action,
      ActionContext context,
      @Nullable JsonNode data,
      @Nullable JsonNode init,
      StreamCallback<JsonNode> chunks) {
    try {
      JsonNode input = data != null ? data : Json.nodes().nullNode();
      JsonNode output = action.runJson(context, input, init, chunks);
      return isRefusedDetach(input, output)
          ? new Failed(GenkitHttp.errorOf(output.path("error")))
          : new Succeeded(output);
    } catch (Throwable failure) {
      return new Failed(settings.failures().classify(failure));
    }
  }

  /**
   * Whether a turn asked to detach and did not: the agent cannot run work in the background (it has
   * no store, or one that cannot subscribe to snapshots), or it could not save the pending
   * snapshot. An agent answers that with a failed output, as Genkit Go's runtime does; on the wire
   * it is an error, as a Genkit JS server sends it, since Genkit JS's client reads a failed answer
   * to a detach as a missing snapshot and throws an error without a status. Whether the turn asked
   * is read from the input as the agent read it, once the output has failed.
   */
  private boolean isRefusedDetach(JsonNode input, JsonNode output) {
    return route.type() == ActionType.AGENT
        && "failed".equals(output.path("finishReason").asString(""))
        && output.path("error").isObject()
        && Json.convert(input, AgentInput.class).isDetach();
  }

  private void stream(
      Action<?, ?, ?> action,
      ActionContext context,
      @Nullable JsonNode data,
      @Nullable JsonNode init)
      throws IOException {
    SseStream sse = SseStream.open(transport);
    stream = sse;
    ScheduledFuture<?> keepAlive = null;
    if (transport.requestHeader(GenkitHttp.KEEP_ALIVE_HEADER) != null) {
      long every = settings.keepAliveInterval().toMillis();
      keepAlive =
          keepAlives.scheduleAtFixedRate(
              () -> Thread.ofVirtual().start(() -> keepAlive(sse)),
              every,
              every,
              TimeUnit.MILLISECONDS);
    }
    Outcome outcome;
    try {
      outcome =
          execute(
              action,
              context,
              data,
              init,
              chunk -> {
                try {
                  sse.message(chunk);
                } catch (IOException gone) {
                  throw clientGone();
                }
              });
    } finally {
      if (keepAlive != null) {
        keepAlive.cancel(false);
      }
    }
    answer(outcome, stopWatching());
  }

  /**
   * Ends an open stream with its one closing frame. A stream that ends without a result or an error
   * frame hangs a Genkit JS client, so a result that cannot be written becomes an error frame too.
   */
  private void end(SseStream sse, Outcome outcome, boolean close) {
    try {
      try {
        switch (outcome) {
          case Succeeded succeeded -> sse.result(succeeded.output());
          case Failed failed -> sse.error(settings.failures().wire(failed.error()));
        }
      } catch (RuntimeException unwritable) {
        sse.error(settings.failures().wire(settings.failures().classify(unwritable)));
      }
      complete(close, null);
    } catch (IOException e) {
      complete(close, e);
    }
  }

  private void keepAlive(SseStream sse) {
    try {
      sse.keepAlive();
    } catch (IOException gone) {
      clientGone();
    }
  }

  /** Cancels the run because its client went away, and returns the reason. */
  private BatonException clientGone() {
    BatonException reason = BatonException.of(Status.CANCELLED, "the client closed the connection");
    cancellation.cancel(reason);
    return reason;
  }

  /**
   * The run's root span records its context, as Genkit JS's Express handler has every run it serves
   * record one ({@code {}} when its context provider gives none).
   */
  private static RootSpanHooks tracedContext(Map<String, ?> auth) {
    return new RootSpanHooks(
        Map.of(TracedContext.ATTRIBUTE, TracedContext.ofAuth(auth)), (traceId, spanId) -> {});
  }

  /** The merged auth context of the binding's and the providers', which may refuse the request. */
  private Map<String, Object> auth(@Nullable JsonNode data) {
    if (settings.providers().isEmpty()) {
      return boundAuth == null || boundAuth.isEmpty()
          ? Map.of()
          : AuthContexts.of(boundAuth, List.of(), RequestData.of(transport.method(), Map.of()));
    }
    Map<String, String> headers = new LinkedHashMap<>();
    transport.forEachRequestHeader((name, value) -> AuthContexts.addHeader(headers, name, value));
    return AuthContexts.of(
        boundAuth,
        settings.providers(),
        RequestData.of(transport.method(), headers).withInput(data));
  }

  private Action<?, ?, ?> resolve() {
    Action<?, ?, ?> action = settings.registry().lookup(route.type(), route.name()).orElse(null);
    if (action == null
        || (route.type() == ActionType.AGENT && !(action instanceof Agent))
        || isUnnamedRemoteAgent()) {
      throw BatonException.notFound(
          "nothing is served at %s%s",
          route,
          route.isCompanion()
              ? ": the agent does not exist or its store does not support this"
              : "");
    }
    return action;
  }

  /**
   * Whether the route is a remote agent's (or one of its companions) that was not mounted by name.
   * Serving it would make the server an open proxy, forwarding any client's calls to the remote
   * server with this process's own credentials; it answers as an agent that does not exist.
   */
  private boolean isUnnamedRemoteAgent() {
    return route.type() != ActionType.FLOW
        && !route.named()
        && settings.registry().lookup(ActionType.AGENT, route.name()).orElse(null)
            instanceof RemoteAgent;
  }

  private boolean wantsStream() {
    String query = transport.query();
    if (query != null) {
      for (String parameter : query.split("&", -1)) {
        if (parameter.equalsIgnoreCase("stream=true")) {
          return true;
        }
      }
    }
    String accept = transport.requestHeader("Accept");
    return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/event-stream");
  }

  /** Stops the client watch; true when the connection must be closed after the answer. */
  private boolean stopWatching() {
    return watching && transport.stopWatching();
  }

  /**
   * Answers: with the closing frame once a stream has begun (whatever failed after it began);
   * otherwise 200 with the result, or the error's status.
   */
  private void answer(Outcome outcome, boolean close) {
    SseStream sse = stream;
    if (sse != null) {
      end(sse, outcome, close);
      return;
    }
    switch (outcome) {
      case Succeeded succeeded -> {
        ObjectNode body = Json.object();
        body.set("result", succeeded.output());
        write(200, body, close);
      }
      case Failed failed ->
          answerError(
              RequestBody.isTooLarge(failed.error()) ? 413 : failed.error().status().httpStatus(),
              failed.error(),
              close);
    }
  }

  private void answerError(int httpStatus, BatonException error) {
    answerError(httpStatus, error, false);
  }

  private void answerError(int httpStatus, BatonException error, boolean close) {
    write(httpStatus, settings.failures().body(error), close);
  }

  private void write(int httpStatus, JsonNode body, boolean close) {
    if (transport.isCommitted()) {
      // Only a stream commits early, and one that failed to open has no client left to answer.
      complete(true, null);
      return;
    }
    writeJson(transport, httpStatus, body, close);
  }

  /** Answers a request with a JSON body and ends it. */
  static void writeJson(Transport transport, int httpStatus, JsonNode body, boolean close) {
    byte[] json = Json.writeBytes(body);
    byte[] bytes = new byte[json.length + 1];
    System.arraycopy(json, 0, bytes, 0, json.length);
    bytes[json.length] = '\n';
    transport.setStatus(httpStatus);
    transport.setHeader("Content-Type", "application/json");
    if (close) {
      transport.setHeader("Connection", "close");
    }
    transport.finish(bytes);
  }

  private void complete(boolean close, @Nullable Throwable failure) {
    if (failure != null) {
      log.debug("could not finish answering {}", route, failure);
    }
    transport.complete(failure, close);
  }
}
