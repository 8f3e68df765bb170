package dev.baton.server.internal.protocol.console;

import dev.baton.agent.AgentSnapshots;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.agent.LocalAgent;
import dev.baton.internal.core.Timing;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import dev.baton.server.internal.protocol.AuthContexts;
import dev.baton.server.internal.protocol.Failures;
import dev.baton.server.internal.protocol.Transport;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task console at a path of the protocol's: its page, {@code <path>/} and {@code
 * <path>/assets/<file>}, and its JSON API under {@code <path>/api/}, over the served agents that
 * keep sessions (local agents with a session store). What each route answers is in {@code
 * docs/console.md}.
 *
 * <p>Every API request is the agent routes' caller: the context providers run on its headers (and
 * may refuse it), the principal they or the binding bind scopes every read and the abort, so a
 * principal sees only its own sessions and another's answer 404. Without providers and without a
 * principal from the binding, only loopback clients are answered ({@link Guard}); the static files
 * follow that rule too, but not the providers: they hold no data, and the page must load to show
 * who is signed in. The abort also passes the cross-site checks of {@link Guard}.
 *
 * <p>Thread-safe.
 */
public final class Console {
  /** Where the page's files are, within the console's path. */
  private static final String ASSETS = "/assets/";

  /** How many rows of a session the session view shows at most. */
  private static final int MAX_ROWS = 10_000;

  private final String path;
  private final Registry registry;
  private final Predicate<String> serves;
  private final List<ContextProvider> providers;
  private final Answers answers;
  private final Guard guard;
  private final Assets assets = new Assets();
  private final LiveTasks liveTasks;

  /** What a request runs as, and what its principal was read from. */
  private record Caller(
      ActionContext context,
      @Nullable String principal,
      boolean loopbackOnly,
      @Nullable Map<String, ?> boundAuth,
      RequestData request) {}

  /**
   * @param path the console's path, checked by the caller
   * @param serves whether the protocol serves an agent of this name
   * @param tokenKey the key of the abort tokens, or null for a random one
   */
  public Console(
      String path,
      Registry registry,
      Predicate<String> serves,
      List<ContextProvider> providers,
      Failures failures,
      byte @Nullable [] tokenKey) {
    this.path = Objects.requireNonNull(path, "path");
    this.registry = registry;
    this.serves = serves;
    this.providers = List.copyOf(providers);
    this.answers = new Answers(failures);
    this.guard = new Guard(tokenKey);
    this.liveTasks = new LiveTasks(registry, this::agents);
  }

  /** Whether a request's path (within the binding's context) is the console's. */
  public boolean owns(String requestPath) {
    return requestPath.equals(path) || requestPath.startsWith(path + "/");
  }

  /** Answers a request the console cannot serve now (the server is shutting down, say). */
  public void refuse(Transport transport, Throwable failure) {
    answers.error(transport, failure);
  }

  /**
   * Serves a request to one of the console's paths on the calling thread, and ends it.
   *
   * @param boundAuth the auth context the binding took from its server, or null
   * @param cancellation fires when the server gives up on the request (at shutdown)
   * @param draining whether the server is shutting down, which ends the event stream
   */
  public void serve(
      String requestPath,
      Transport transport,
      @Nullable Map<String, ?> boundAuth,
      Cancellation cancellation,
      BooleanSupplier draining) {
    String rest = requestPath.substring(path.length());
    try {
      if (rest.isEmpty()) {
        // The page's relative links need the trailing slash.
        transport.setStatus(308);
        transport.setHeader("Location", path.substring(path.lastIndexOf('/') + 1) + "/");
        transport.finish(new byte[0]);
      } else if (rest.equals("/") || rest.startsWith(ASSETS)) {
        // HEAD as GET: the server sends the headers alone.
        if (!transport.method().equals("HEAD") && !allows(transport, "GET")) {
          return;
        }
        requireLoopbackWithoutCallers(transport, boundAuth);
        Assets.Asset asset =
            assets.get(rest.equals("/") ? "index.html" : rest.substring(ASSETS.length()));
        answers.file(transport, asset.contentType(), asset.bytes());
      } else if (rest.startsWith("/api/")) {
        api(
            List.of(rest.substring(5).split("/", -1)),
            transport,
            boundAuth,
            cancellation,
            draining);
      } else {
        throw BatonException.notFound("nothing is served at %s", requestPath);
      }
    } catch (Throwable failure) {
      if (transport.isCommitted()) {
        transport.complete(failure, false);
      } else {
        answers.error(transport, failure);
      }
    }
  }

  private void api(
      List<String> route,
      Transport transport,
      @Nullable Map<String, ?> boundAuth,
      Cancellation cancellation,
      BooleanSupplier draining) {
    String method = methodOf(route);
    if (method == null) {
      throw BatonException.notFound(
          "nothing is served at %s/api/%s", path, String.join("/", route));
    }
    if (!allows(transport, method)) {
      return;
    }
    Caller caller = caller(transport, boundAuth, cancellation);
    switch (route.getFirst()) {
      case "info" -> answers.json(transport, 200, info(caller));
      case "sessions" -> answers.json(transport, 200, sessions(caller, query(transport)));
      case "events" ->
          new StatusEvents(liveTasks, caller.context().auth(), transport, cancellation, draining)
              .run();
      default -> agentRoute(route, transport, caller);
    }
  }

  /** The method of an API route ({@code POST} for the abort, the one write), or null for none. */
  private static @Nullable String methodOf(List<String> route) {
    if (route.size() == 1) {
      return Set.of("info", "sessions", "events").contains(route.getFirst()) ? "GET" : null;
    }
    if (route.size() < 4 || !route.getFirst().equals("agents") || route.contains("")) {
      return null;
    }
    return switch (route.get(2)) {
      case "sessions" -> route.size() == 4 ? "GET" : null;
      case "snapshots" ->
          route.size() == 4
              ? "GET"
              : route.size() != 5
                  ? null
                  : switch (route.get(4)) {
                    case "delegations" -> "GET";
                    case "abort" -> "POST";
                    default -> null;
                  };
      default -> null;
    };
  }

  /** The routes of one agent's sessions and snapshots: {@code agents/<agent>/...}. */
  private void agentRoute(List<String> route, Transport transport, Caller caller) {
    String name = route.get(1);
    String id = route.get(3);
    AgentSnapshots snapshots = agent(name).snapshots(caller.context());
    if (route.get(2).equals("sessions")) {
      answers.json(transport, 200, chain(name, id, snapshots));
      return;
    }
    String action = route.size() == 5 ? route.get(4) : "";
    switch (action) {
      case "delegations" ->
          answers.json(
              transport,
              200,
              new DelegationTree(
                      registry, serves, caller.context(), Timing.of(caller.context()).now())
                  .of(name, snapshots, snapshots.get(id)));
      case "abort" -> {
        guard.requireSameOrigin(transport, caller.principal(), isByBearer(caller));
        SnapshotStatus status = snapshots.abort(id);
        if (status == null) {
          throw BatonException.notFound("snapshot \"%s\" not found", id);
        }
        // The row as the other routes shape it: "aborting" until the worker has saved.
        String shaped = Views.status(snapshots.get(id));
        if (status != SnapshotStatus.ABORTED) {
          throw BatonException.failedPrecondition(
              "snapshot \"%s\" has already finished (%s): only a pending task can be aborted",
              id, shaped);
        }
        ObjectNode body = Json.object();
        body.put("snapshotId", id);
        body.put("status", shaped);
        answers.json(transport, 200, body);
      }
      default -> {
        SessionSnapshot row = snapshots.get(id);
        ObjectNode body = Json.object();
        body.put("agent", name);
        body.put("sessionId", row.sessionId());
        body.setAll(Views.snapshotDetail(row));
        new SpendView(registry, serves, caller.context()).addTo(body, Turn.of(snapshots, row));
        answers.json(transport, 200, body);
      }
    }
  }

  private ObjectNode info(Caller caller) {
    ObjectNode body = Json.object();
    body.put("principal", caller.principal());
    body.put("loopbackOnly", caller.loopbackOnly());
    body.put("csrfToken", guard.token(caller.principal()));
    ArrayNode names = body.putArray("agents");
    agents().keySet().forEach(names::add);
    return body;
  }

  private ObjectNode sessions(Caller caller, Map<String, String> query) {
    String agent = query.get("agent");
    Map<String, AgentSnapshots> listed = new LinkedHashMap<>();
    boolean all = agent == null || agent.isEmpty();
    if (agent == null || agent.isEmpty()) {
      agents().forEach((name, local) -> listed.put(name, local.snapshots(caller.context())));
    } else {
      listed.put(agent, agent(agent).snapshots(caller.context()));
    }
    // One agent whose store cannot list does not hide the others'; asked for alone, it answers so.
    return SessionListing.page(
        listed,
        all,
        status(query.get("status")),
        limit(query.get("limit")),
        query.get("pageToken"));
  }

  /**
   * Every row of a session, oldest first, branches included, so the page can draw its tree: one
   * store read of the rows without their conversations. A session of more rows than the page shows
   * sends its newest.
   */
  private static ObjectNode chain(String agent, String sessionId, AgentSnapshots snapshots) {
    List<SessionSnapshot> rows = snapshots.rows(sessionId);
    if (rows.isEmpty()) {
      throw BatonException.notFound("session \"%s\" not found", sessionId);
    }
    ObjectNode body = Json.object();
    body.put("agent", agent);
    body.put("sessionId", sessionId);
    ArrayNode list = body.putArray("snapshots");
    rows.subList(Math.max(0, rows.size() - MAX_ROWS), rows.size())
        .forEach(row -> list.add(Views.snapshot(row)));
    return body;
  }

  /** The agents the console shows: the served local agents with a session store, by name. */
  private Map<String, LocalAgent> agents() {
    return ConsoleAgents.agents(registry, serves);
  }

  private LocalAgent agent(String name) {
    LocalAgent local = ConsoleAgents.agent(registry, serves, name);
    if (local != null) {
      return local;
    }
    throw BatonException.notFound("the console shows no agent \"%s\"", name);
  }

  private Caller caller(
      Transport transport, @Nullable Map<String, ?> boundAuth, Cancellation cancellation) {
    boolean loopbackOnly = requireLoopbackWithoutCallers(transport, boundAuth);
    Map<String, String> headers = new LinkedHashMap<>();
    if (!providers.isEmpty()) {
      transport.forEachRequestHeader((name, value) -> AuthContexts.addHeader(headers, name, value));
    }
    RequestData request = RequestData.of(transport.method(), headers);
    Map<String, Object> auth = AuthContexts.of(boundAuth, providers, request);
    ActionContext context =
        ActionContext.root(registry).withCancellation(cancellation).withAuth(auth);
    return new Caller(context, context.principal().orElse(null), loopbackOnly, boundAuth, request);
  }

  /**
   * Whether the caller's principal comes from its bearer credential: the context providers name it
   * with the request's {@code Authorization: Bearer} header, and not without it. A principal from a
   * cookie, a client certificate or the binding does not, whatever other headers the request has: a
   * browser sends those by itself with a cross-site request.
   */
  private boolean isByBearer(Caller caller) {
    String authorization = caller.request().headers().get("authorization");
    if (caller.principal() == null
        || authorization == null
        || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    Map<String, String> without = new LinkedHashMap<>(caller.request().headers());
    without.remove("authorization");
    try {
      Map<String, Object> auth =
          AuthContexts.of(
              caller.boundAuth(), providers, RequestData.of(caller.request().method(), without));
      return !caller.principal().equals(auth.get(ActionContext.PRINCIPAL));
    } catch (BatonException refused) {
      // Without the credential the providers refuse the request: it is what names the principal.
      return true;
    }
  }

  /**
   * Refuses a client off the loopback interface when nothing can tell callers apart: no context
   * provider, and no principal from the binding.
   *
   * @return whether the rule applies
   */
  private boolean requireLoopbackWithoutCallers(
      Transport transport, @Nullable Map<String, ?> boundAuth) {
    boolean loopbackOnly =
        providers.isEmpty()
            && (boundAuth == null || boundAuth.get(ActionContext.PRINCIPAL) == null);
    if (loopbackOnly) {
      Guard.requireLoopback(transport);
    }
    return loopbackOnly;
  }

  /** Whether the request has the route's method; answers 405 when it has not. */
  private boolean allows(Transport transport, String method) {
    if (transport.method().equals(method)) {
      return true;
    }
    transport.setHeader("Allow", method);
    answers.error(
        transport,
        405,
        BatonException.invalidArgument("this console route answers %s only", method));
    return false;
  }

  private static Map<String, String> query(Transport transport) {
    Map<String, String> parameters = new LinkedHashMap<>();
    String query = transport.query();
    if (query == null || query.isEmpty()) {
      return parameters;
    }
    for (String parameter : query.split("&", -1)) {
      int equals = parameter.indexOf('=');
      String name = equals < 0 ? parameter : parameter.substring(0, equals);
      String value = equals < 0 ? "" : parameter.substring(equals + 1);
      try {
        parameters.putIfAbsent(
            URLDecoder.decode(name, StandardCharsets.UTF_8),
            URLDecoder.decode(value, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException malformed) {
        throw BatonException.invalidArgument("the query is not URL-encoded");
      }
    }
    return parameters;
  }

  private static @Nullable SnapshotStatus status(@Nullable String status) {
    if (status == null || status.isEmpty()) {
      return null;
    }
    for (SnapshotStatus stored : SnapshotStatus.values()) {
      if (stored != SnapshotStatus.EXPIRED && stored.wireName().equals(status)) {
        return stored;
      }
    }
    throw BatonException.invalidArgument(
        "status must be one of pending, completed, failed and aborted, got \"%s\"", status);
  }

  private static int limit(@Nullable String limit) {
    if (limit == null || limit.isEmpty()) {
      return 0;
    }
    try {
      int value = Integer.parseInt(limit);
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException notANumber) {
      // Refused below, with the rest.
    }
    throw BatonException.invalidArgument("limit must be a positive integer, got \"%s\"", limit);
  }
}
