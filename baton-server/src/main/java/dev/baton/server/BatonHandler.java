package dev.baton.server;

import dev.baton.Baton;
import dev.baton.server.internal.HeaderCaches;
import dev.baton.server.internal.JettyTransport;
import dev.baton.server.internal.protocol.Route;
import dev.baton.server.internal.protocol.WireProtocol;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;

/**
 * A Jetty 12 core handler that serves a Baton instance's agents and flows in Genkit's wire format.
 * Mount it in any Jetty {@code Server} (under a {@code ContextHandler} for a path prefix), or run
 * it with {@link BatonServer}.
 *
 * <p><b>Routes</b>, all {@code POST}: {@code /agents/<name>} runs one turn; {@code
 * /agents/<name>/getSnapshot}, {@code /waitForSnapshot} and {@code /abort} run the agent's
 * companions, which exist when its store supports them; {@code /flows/<name>} runs a flow. The
 * application may serve an agent or a flow at a route of its own instead, as Genkit's servers let
 * it ({@link Builder#agentAt}, {@link Builder#flowAt}); an agent's companions then answer at the
 * same suffixes of that route. Only the agents and flows the builder mounts are served; any other
 * path is left to the next handler. A mounted route whose action does not exist answers 404, and so
 * does a remote agent that was not mounted by name (see {@link Builder#allAgents()}).
 *
 * <p><b>Envelope.</b> The body is {@code {"data": <input>, "init": <init>}}; {@code init} is for
 * turns only (an {@code AgentInit}; {@code {}} or none is a fresh session). The answer is {@code
 * 200 {"result": <output>}}, or Server-Sent Events with {@code ?stream=true} or an {@code Accept}
 * header naming {@code text/event-stream}: a {@code data: {"message": <chunk>}} frame per chunk,
 * then one {@code data: {"result": <output>}} or {@code data: {"error": {"status", "message"}}}
 * frame, on every path, shutdown and cancellation included. Clients that send {@code
 * X-Baton-Keep-Alive} also get a {@code : keep-alive} comment every keep-alive interval.
 *
 * <p><b>Errors</b> come in two tiers. A turn that fails is a result: 200 with {@code finishReason:
 * "failed"}, its {@code error} and the snapshot to continue from. A request that cannot run (a
 * malformed body, an init the agent refuses, an unknown snapshot, a detach the agent cannot take, a
 * refused credential) is an error: in a stream, the error frame; otherwise an HTTP status from
 * Genkit's table (400 for {@code INVALID_ARGUMENT} and {@code FAILED_PRECONDITION}, 401, 403, 404,
 * 409, 429, 499, 500, 501, 503, 504) with a JSON body {@code {"status", "message"}}. A body over
 * the size limit is the one exception: 413, status {@code INVALID_ARGUMENT}. Only public messages
 * are sent; any other becomes its status's generic text (unless messages are exposed, by default
 * when {@code GENKIT_ENV=dev}), and no stack trace is ever sent.
 *
 * <p><b>Traces.</b> With OpenTelemetry set up on the Baton instance, each request's run is the root
 * of a trace, whose root span records the run's context as {@code genkit:metadata:context}, as
 * Genkit JS's Express handler has it recorded: {@code {"auth": "<redacted>"}} when the context
 * providers gave an auth context, {@code {}} otherwise.
 *
 * <p><b>Clients that go away.</b> A client that closes its connection cancels its run, unless the
 * run detached: a detached run outlives its request.
 *
 * <p><b>Shutdown.</b> On a graceful stop ({@link BatonServer#close()}, or Jetty's {@code
 * Server.stop()} with a stop timeout above the grace period) new requests are refused with 503, and
 * requests in flight and the Baton instance's agent work ({@link Baton#drain}: its turns and the
 * runs detached in this process, such as a detached turn or the background delegations of a served
 * orchestrator) get the grace period to finish and save their final rows. Then the requests still
 * running end with an {@code UNAVAILABLE} error, and the detached runs are left to the instance,
 * which the application owns: its {@link Baton#close()} aborts them so that they settle as
 * resumable rows, continued later (by {@code continue_task}, or {@code AgentInit.continueFrom})
 * against any server that shares the store. The handler can start again on the same instance.
 *
 * <p><b>In a server of your own.</b> Jetty's HTTP/1 connections reuse a header field parsed earlier
 * on the same connection when a new one matches it, and by default they match values without regard
 * to case: behind a proxy or gateway that sends several users' requests over one connection, a
 * credential would be read as an earlier request's credential that differs from it only in case. A
 * handler with context providers therefore refuses to start ({@link IllegalStateException}) on a
 * server with an HTTP/1 connector whose {@code HttpConfiguration} has a header cache that is not
 * case-sensitive; set {@code setHeaderCacheCaseSensitive(true)} on it (or {@code
 * setHeaderCacheSize(0)}), as {@link BatonServer} does. Connectors added after the start are not
 * checked.
 *
 * <p><b>Console.</b> With {@link Builder#console}, the handler also serves the task console, a web
 * page over the served agents' sessions, and its JSON API.
 *
 * <p>Every request runs on a virtual thread of its own, whatever the server's thread pool.
 * Thread-safe.
 */
public final class BatonHandler extends Handler.Abstract.NonBlocking implements Graceful {
  /** The body size accepted unless set: 4 MiB. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = WireProtocol.DEFAULT_MAX_REQUEST_BYTES;

  /** How often a keep-alive comment is sent unless set: every 15 seconds. */
  public static final Duration DEFAULT_KEEP_ALIVE_INTERVAL =
      WireProtocol.DEFAULT_KEEP_ALIVE_INTERVAL;

  /** How long a shutdown waits for requests and detached runs unless set: 30 seconds. */
  public static final Duration DEFAULT_SHUTDOWN_GRACE = WireProtocol.DEFAULT_SHUTDOWN_GRACE;

  private final WireProtocol protocol;

  private BatonHandler(Builder builder) {
    this.protocol = builder.protocol.build();
  }

  /** A builder for a handler of {@code baton}'s agents and flows; it mounts none until told. */
  public static Builder builder(Baton baton) {
    return new Builder(baton);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    if (protocol.isConsole(path)) {
      return protocol.serveConsole(path, new JettyTransport(request, response, callback), null);
    }
    Route route = protocol.route(path);
    // Not serving (the handler is not started) leaves the request to the next handler too.
    return route != null
        && protocol.serve(route, new JettyTransport(request, response, callback), null);
  }

  /** Starts a graceful shutdown; see the class comment. */
  @Override
  public CompletableFuture<Void> shutdown() {
    return protocol.shutdown();
  }

  @Override
  public boolean isShutdown() {
    return protocol.isShutdown();
  }

  /** How long a graceful shutdown waits for requests and detached runs. */
  public Duration shutdownGrace() {
    return protocol.shutdownGrace();
  }

  @Override
  protected void doStart() throws Exception {
    // See "In a server of your own" in the class comment.
    if (protocol.hasContextProviders()) {
      HeaderCaches.requireCaseSensitive(getServer(), "BatonHandler");
    }
    protocol.start();
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    protocol.stop();
    super.doStop();
  }

  /** Configures a {@link BatonHandler}. Not thread-safe; build once. */
  public static final class Builder {
    private final WireProtocol.Builder protocol;

    private Builder(Baton baton) {
      this.protocol = WireProtocol.builder(baton);
    }

    /**
     * Serves every local agent of the instance, those defined after the handler included. Remote
     * agents ({@code defineRemoteAgent}) are left out unless also named with {@link #agents}:
     * serving one forwards any client's calls to its server with this process's credentials, which
     * would make this server an open proxy. A left-out one answers 404, as an unknown agent does.
     */
    public Builder allAgents() {
      protocol.allAgents();
      return this;
    }

    /**
     * Serves these agents at {@code /agents/<name>} (with their companions), remote ones included.
     */
    public Builder agents(String... names) {
      protocol.agents(List.of(names));
      return this;
    }

    /**
     * Serves an agent at a route of the application's choosing, as Genkit's servers let it: turns
     * at {@code route}, and the companions the agent has at {@code route + "/getSnapshot"}, {@code
     * "/waitForSnapshot"} and {@code "/abort"}, where Genkit's clients look for them: {@code
     * agentAt("/api/researcher", "researcher")}, say. A remote agent is served too, as with {@link
     * #agents}. The agent is served at its default route only if also mounted there ({@link
     * #agents}, {@link #allAgents}). Neither the route nor its companions' routes may be ones the
     * default layout serves ({@code /agents/<name>} and its companions' routes for the agents
     * mounted there, {@code /flows/<name>} for the flows): {@link #build} refuses them.
     *
     * @param route an absolute path within the handler's context, such as {@code /api/researcher}:
     *     non-empty segments, no trailing slash, query or fragment
     * @throws IllegalArgumentException when the route is not such a path, or it or one of its
     *     companions' routes is taken by another chosen route
     */
    public Builder agentAt(String route, String name) {
      protocol.agentAt(route, name);
      return this;
    }

    /** Serves every flow of the instance, those defined after the handler included. */
    public Builder allFlows() {
      protocol.allFlows();
      return this;
    }

    /** Serves these flows at {@code /flows/<name>}. */
    public Builder flows(String... names) {
      protocol.flows(List.of(names));
      return this;
    }

    /**
     * Serves a flow at a route of the application's choosing. The flow is served at its default
     * route only if also mounted there ({@link #flows}, {@link #allFlows}). The route may not be
     * one the default layout serves, as for {@link #agentAt}.
     *
     * @param route an absolute path within the handler's context, as for {@link #agentAt}
     * @throws IllegalArgumentException when the route is not such a path, or is taken
     */
    public Builder flowAt(String route, String name) {
      protocol.flowAt(route, name);
      return this;
    }

    /** Adds a context provider; providers run in the order added. */
    public Builder contextProvider(ContextProvider provider) {
      protocol.contextProvider(provider);
      return this;
    }

    /** The largest request body accepted (default 4 MiB); a larger one is refused with 413. */
    public Builder maxRequestBytes(long bytes) {
      protocol.maxRequestBytes(bytes);
      return this;
    }

    /** How often streams send keep-alive comments to clients that ask (default 15 s). */
    public Builder keepAliveInterval(Duration interval) {
      protocol.keepAliveInterval(interval);
      return this;
    }

    /** How long a graceful shutdown waits for requests and detached runs (default 30 s). */
    public Builder shutdownGrace(Duration grace) {
      protocol.shutdownGrace(grace);
      return this;
    }

    /**
     * Whether error answers carry every error's own message, internal ones included (never a stack
     * trace). By default only when {@code GENKIT_ENV=dev}, as Genkit does.
     */
    public Builder exposeErrorMessages(boolean expose) {
      protocol.exposeErrorMessages(expose);
      return this;
    }

    /**
     * Serves the task console at {@code path}: a web page of the served agents' sessions (local
     * agents with a session store), their snapshot chains, delegation trees and spend, with live
     * status updates and an abort of running tasks, and the JSON API it reads, under {@code path +
     * "/api/"}. Off unless set. Every request goes through the context providers, and a principal
     * sees only its own sessions; without a context provider the console answers only clients on
     * the loopback interface. See {@code docs/console.md}.
     *
     * @param path an absolute path within the handler's context, such as {@code /console}:
     *     non-empty segments, no trailing slash, outside {@code /agents} and {@code /flows}
     * @throws IllegalArgumentException (from {@link #build}) when the path is not such a path, or a
     *     route chosen with {@link #agentAt} or {@link #flowAt} is under it
     */
    public Builder console(String path) {
      protocol.console(path);
      return this;
    }

    /**
     * The key of the console's abort tokens, for a console served by several replicas, or one that
     * keeps an open page's token across a restart: every server given the same key makes the same
     * token for a principal. Without it each handler makes a random key at build. Keep it as secret
     * as a session-signing key: whoever knows it can make any principal's token (though an abort
     * still needs that principal's credentials).
     *
     * @param key at least 32 characters, from a secure random source
     * @throws IllegalArgumentException when the key is shorter
     */
    public Builder consoleTokenKey(String key) {
      protocol.consoleTokenKey(key);
      return this;
    }

    /**
     * The handler, serving what this builder was given.
     *
     * @throws IllegalArgumentException when a route chosen with {@link #agentAt} or {@link #flowAt}
     *     (or one of its companions' routes) is one the default layout serves with the mounts made,
     *     such as {@code flowAt("/agents/x", ...)} with {@link #allAgents}
     */
    public BatonHandler build() {
      return new BatonHandler(this);
    }
  }
}
