package dev.baton.a2a;

import dev.baton.Baton;
import dev.baton.a2a.internal.server.JsonRpcEndpoint;
import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.Json;
import dev.baton.server.BatonHandler;
import dev.baton.server.ContextProvider;
import dev.baton.server.internal.HeaderCaches;
import dev.baton.server.internal.JettyTransport;
import dev.baton.server.internal.protocol.Drain;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Jetty 12 core handler that serves Baton agents as A2A agents (A2A 0.3, JSON-RPC over HTTP).
 * Each agent named to the builder lives at its base URL {@code /a2a/<name>}: its agent card at
 * {@code GET /a2a/<name>/.well-known/agent-card.json}, its JSON-RPC methods at {@code POST
 * /a2a/<name>}. Mount it beside a {@link BatonHandler}, or alone:
 *
 * <pre>{@code
 * A2aHandler a2a = A2aHandler.builder(baton).agents("researcher").build();
 * BatonServer.start("0.0.0.0", 8080, batonHandler, a2a);
 * }</pre>
 *
 * <p>A served agent needs a session store that runs detached turns (the in-memory, file and
 * PostgreSQL stores do): every A2A task is a detached turn. See {@link dev.baton.a2a} for the
 * methods and how tasks, contexts and parts map to Baton's. Other paths are left to the next
 * handler.
 *
 * <p>Its cards list the agent and the tools named to {@link Builder#skills} as skills, and the
 * security schemes of {@link Builder#securityScheme}. It shuts down gracefully as a {@link
 * BatonHandler} does (see {@link #shutdown()}).
 *
 * <p>Every request runs on a virtual thread of its own. Thread-safe.
 */
public final class A2aHandler extends Handler.Abstract.NonBlocking implements Graceful {
  /** The path under which the agents' base URLs lie. */
  public static final String PREFIX = "/a2a/";

  private static final String CARD = "/.well-known/agent-card.json";

  private final Map<String, JsonRpcEndpoint> endpoints;
  private final @Nullable URI publicUrl;
  private final boolean hasContextProviders;
  private final Baton baton;
  private final Duration shutdownGrace;
  // New on every start, so that a stopped handler can start again.
  private volatile Drain drain;

  private A2aHandler(Builder builder) {
    Map<String, ObjectNode> schemes = securitySchemes(builder);
    Map<String, JsonRpcEndpoint> endpoints = new LinkedHashMap<>();
    for (String name : builder.agents) {
      endpoints.put(
          name,
          new JsonRpcEndpoint(
              builder.baton,
              name,
              builder.providers,
              builder.tools(name),
              schemes,
              builder.maxRequestBytes,
              builder.keepAliveInterval,
              builder.exposeErrorMessages));
    }
    this.endpoints = Map.copyOf(endpoints);
    this.publicUrl = builder.publicUrl;
    this.hasContextProviders = !builder.providers.isEmpty();
    this.baton = builder.baton;
    this.shutdownGrace = builder.shutdownGrace;
    this.drain = new Drain(baton);
  }

  /**
   * The schemes the cards declare: those declared to the builder, else a bearer token when context
   * providers authenticate requests (what {@link dev.baton.server.ContextProviders#bearerToken}
   * reads), else none.
   */
  private static Map<String, ObjectNode> securitySchemes(Builder builder) {
    if (!builder.securitySchemes.isEmpty() || builder.providers.isEmpty()) {
      return Collections.unmodifiableMap(new LinkedHashMap<>(builder.securitySchemes));
    }
    return Map.of("bearer", Json.object().put("type", "http").put("scheme", "bearer"));
  }

  /** A builder for a handler of {@code baton}'s agents; it serves none until told. */
  public static Builder builder(Baton baton) {
    return new Builder(baton);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = Request.getPathInContext(request);
    if (!path.startsWith(PREFIX)) {
      return false;
    }
    String rest = path.substring(PREFIX.length());
    boolean card = rest.endsWith(CARD);
    String name = card ? rest.substring(0, rest.length() - CARD.length()) : rest;
    JsonRpcEndpoint endpoint = endpoints.get(name);
    if (endpoint == null) {
      return false;
    }
    String method = request.getMethod();
    if (card ? !"GET".equals(method) : !"POST".equals(method)) {
      return false;
    }
    JettyTransport transport = new JettyTransport(request, response, callback);
    String url = baseUrl(request, name);
    Thread.ofVirtual()
        .name("baton-a2a " + name)
        .start(
            () -> {
              if (card) {
                endpoint.card(transport, url);
              } else {
                endpoint.call(transport, drain);
              }
            });
    return true;
  }

  /** The agent's base URL: under the public URL when one is set, else under the request's. */
  private String baseUrl(Request request, String name) {
    if (publicUrl != null) {
      String base = publicUrl.toString();
      return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PREFIX + name;
    }
    HttpURI uri = request.getHttpURI();
    String context = Request.getContextPath(request);
    return HttpURI.build(uri)
        .path((context == null ? "" : context) + PREFIX + name)
        .query(null)
        .asString();
  }

  /**
   * Starts a graceful shutdown: new JSON-RPC requests are refused (HTTP 503 with a JSON-RPC error),
   * and the future completes when the requests in flight and the Baton instance's agent work are
   * done, or when the grace is over and the requests left have been cancelled. Detached tasks are
   * left to the Baton instance, as a {@link BatonHandler}'s are.
   */
  @Override
  public CompletableFuture<Void> shutdown() {
    return drain.shutdown(shutdownGrace);
  }

  @Override
  public boolean isShutdown() {
    return drain.isDraining();
  }

  @Override
  protected void doStart() throws Exception {
    // Credentials are read from headers; see BatonHandler's "In a server of your own".
    if (hasContextProviders) {
      HeaderCaches.requireCaseSensitive(getServer(), "A2aHandler");
    }
    drain = new Drain(baton);
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    drain.cancelAll();
    super.doStop();
  }

  /** Configures an {@link A2aHandler}. Not thread-safe; build once. */
  public static final class Builder {
    private final Baton baton;
    private final List<String> agents = new ArrayList<>();
    private final List<ContextProvider> providers = new ArrayList<>();
    private final Map<String, List<String>> tools = new HashMap<>();
    private final Map<String, ObjectNode> securitySchemes = new LinkedHashMap<>();
    private Duration shutdownGrace = BatonHandler.DEFAULT_SHUTDOWN_GRACE;
    private long maxRequestBytes = BatonHandler.DEFAULT_MAX_REQUEST_BYTES;
    private Duration keepAliveInterval = BatonHandler.DEFAULT_KEEP_ALIVE_INTERVAL;
    private boolean exposeErrorMessages =
        dev.baton.server.internal.protocol.Failures.exposeByDefault();
    private @Nullable URI publicUrl;

    private Builder(Baton baton) {
      this.baton = baton;
    }

    /** Serves these agents, each at {@code /a2a/<name>}. */
    public Builder agents(String... names) {
      for (String name : names) {
        if (name.isEmpty() || name.contains("/")) {
          throw new IllegalArgumentException("an agent served over A2A needs a name without '/'");
        }
        agents.add(name);
      }
      return this;
    }

    /**
     * The URL clients reach this handler at, as the agent cards give it ({@code
     * https://agents.example.com}, say, behind a proxy). Unset, a card gives the URL its own
     * request came to.
     */
    public Builder publicUrl(URI url) {
      this.publicUrl = url;
      return this;
    }

    /** Adds a context provider; providers run in the order added, as a BatonHandler's do. */
    public Builder contextProvider(ContextProvider provider) {
      providers.add(provider);
      return this;
    }

    /**
     * Lists these tools on {@code agent}'s card as skills of their own, beside the agent, each
     * described as registered. Baton cannot see which tools an agent's turns use, so the card names
     * only the tools named here.
     *
     * @throws IllegalArgumentException at {@link #build} when a tool is not registered
     */
    public Builder skills(String agent, String... toolNames) {
      tools.computeIfAbsent(agent, name -> new ArrayList<>()).addAll(List.of(toolNames));
      return this;
    }

    /**
     * Declares a security scheme on the cards, in the specification's shape ({@code {"type":
     * "apiKey", "in": "header", "name": "Authorization"}}, say), as an alternative to the others
     * declared. Declare the schemes the context providers accept: without any, a handler with
     * context providers declares {@code bearer} ({@code {"type": "http", "scheme": "bearer"}}),
     * which {@link dev.baton.server.ContextProviders#bearerToken} reads, and one without declares
     * none.
     */
    public Builder securityScheme(String name, ObjectNode scheme) {
      if (!scheme.path("type").isString()) {
        throw new IllegalArgumentException("a security scheme needs a string \"type\"");
      }
      securitySchemes.put(name, scheme.deepCopy());
      return this;
    }

    /** How long a graceful shutdown waits for requests and detached runs (default 30 s). */
    public Builder shutdownGrace(Duration grace) {
      if (grace.isNegative()) {
        throw new IllegalArgumentException("shutdownGrace must not be negative");
      }
      this.shutdownGrace = grace;
      return this;
    }

    /** The largest request accepted (default 4 MiB); a larger one is a JSON-RPC error. */
    public Builder maxRequestBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxRequestBytes must be positive");
      }
      this.maxRequestBytes = bytes;
      return this;
    }

    /**
     * How long a stream ({@code message/stream}, {@code tasks/resubscribe}) may go without sending
     * before it sends an SSE comment ({@code : keep-alive}), so that proxies and clients do not
     * take a long turn for a dead connection (default 15 s, as {@link BatonHandler}'s).
     */
    public Builder keepAliveInterval(Duration interval) {
      if (!interval.isPositive()) {
        throw new IllegalArgumentException("the keep-alive interval must be positive");
      }
      this.keepAliveInterval = interval;
      return this;
    }

    /**
     * Whether error answers carry every error's own message, internal ones included (never a stack
     * trace). By default only when {@code GENKIT_ENV=dev}, as Genkit does.
     */
    public Builder exposeErrorMessages(boolean expose) {
      this.exposeErrorMessages = expose;
      return this;
    }

    public A2aHandler build() {
      for (String agent : tools.keySet()) {
        if (!agents.contains(agent)) {
          throw new IllegalArgumentException("skills of an agent not served: " + agent);
        }
      }
      return new A2aHandler(this);
    }

    private List<Action<?, ?, ?>> tools(String agent) {
      List<Action<?, ?, ?>> actions = new ArrayList<>();
      for (String tool : tools.getOrDefault(agent, List.of())) {
        actions.add(
            baton
                .registry()
                .lookup(ActionType.TOOL, tool)
                .orElseThrow(() -> new IllegalArgumentException("no tool named " + tool)));
      }
      return actions;
    }
  }
}
