package dev.baton.a2a;

import dev.baton.Baton;
import dev.baton.a2a.internal.server.JsonRpcEndpoint;
import dev.baton.server.BatonHandler;
import dev.baton.server.ContextProvider;
import dev.baton.server.internal.HeaderCaches;
import dev.baton.server.internal.JettyTransport;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

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
 * <p>Every request runs on a virtual thread of its own. Thread-safe.
 */
public final class A2aHandler extends Handler.Abstract.NonBlocking {
  /** The path under which the agents' base URLs lie. */
  public static final String PREFIX = "/a2a/";

  private static final String CARD = "/.well-known/agent-card.json";

  private final Map<String, JsonRpcEndpoint> endpoints;
  private final @Nullable URI publicUrl;
  private final boolean hasContextProviders;

  private A2aHandler(Builder builder) {
    Map<String, JsonRpcEndpoint> endpoints = new LinkedHashMap<>();
    for (String name : builder.agents) {
      endpoints.put(
          name,
          new JsonRpcEndpoint(
              builder.baton,
              name,
              builder.providers,
              builder.maxRequestBytes,
              builder.exposeErrorMessages));
    }
    this.endpoints = Map.copyOf(endpoints);
    this.publicUrl = builder.publicUrl;
    this.hasContextProviders = !builder.providers.isEmpty();
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
                endpoint.call(transport);
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

  @Override
  protected void doStart() throws Exception {
    // Credentials are read from headers; see BatonHandler's "In a server of your own".
    if (hasContextProviders) {
      HeaderCaches.requireCaseSensitive(getServer(), "A2aHandler");
    }
    super.doStart();
  }

  /** Configures an {@link A2aHandler}. Not thread-safe; build once. */
  public static final class Builder {
    private final Baton baton;
    private final List<String> agents = new ArrayList<>();
    private final List<ContextProvider> providers = new ArrayList<>();
    private long maxRequestBytes = BatonHandler.DEFAULT_MAX_REQUEST_BYTES;
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

    /** The largest request accepted (default 4 MiB); a larger one is a JSON-RPC error. */
    public Builder maxRequestBytes(long bytes) {
      if (bytes <= 0) {
        throw new IllegalArgumentException("maxRequestBytes must be positive");
      }
      this.maxRequestBytes = bytes;
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
      return new A2aHandler(this);
    }
  }
}
