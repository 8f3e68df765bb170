package dev.baton.mcp;

import dev.baton.Baton;
import dev.baton.ai.ExecutablePrompt;
import dev.baton.core.Action;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.mcp.internal.McpSdk;
import dev.baton.mcp.internal.server.ActionTools;
import dev.baton.mcp.internal.server.AgentTools;
import dev.baton.mcp.internal.server.AuthFilter;
import dev.baton.mcp.internal.server.CancellationFilter;
import dev.baton.mcp.internal.server.HttpEndpoint;
import dev.baton.mcp.internal.server.Prompts;
import dev.baton.mcp.internal.server.RequestScope;
import dev.baton.mcp.internal.server.SdkServers;
import dev.baton.mcp.internal.server.Serving;
import dev.baton.mcp.internal.server.StdinEnd;
import dev.baton.mcp.internal.server.StdioTransport;
import dev.baton.mcp.internal.server.ToolCalls;
import dev.baton.server.BatonHandler;
import dev.baton.server.ContextProvider;
import dev.baton.server.internal.protocol.Failures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.jspecify.annotations.Nullable;

/**
 * Serves a Baton instance's chosen tools, flows, agents and prompts to MCP clients, on the MCP Java
 * SDK: over stdio ({@link #serveStdio()}), for desktop clients that start the server as a process,
 * and over streamable HTTP ({@link #handler()}), as a Jetty handler beside a {@link BatonHandler}.
 *
 * <pre>{@code
 * McpServer mcp = Mcp.server(baton).tools("weather").agents("researcher").build();
 * BatonServer server = BatonServer.start("127.0.0.1", 8080, batonHandler, mcp.handler());
 * }</pre>
 *
 * <p><b>Tools.</b> A tool or flow is an MCP tool of its name with its description and input schema
 * (an input that is not an object is wrapped as the one argument {@code input}); an output schema
 * that describes an object is the {@code outputSchema}, and the output is also the {@code
 * structuredContent}; a multipart tool's parts are the content (text, and images and audio at
 * base64 {@code data:} URLs). An agent is an MCP tool that takes {@code {"task": string,
 * "sessionId"?: string}}, runs one turn and answers with its last message's text; an agent with a
 * session store answers the session's ID (in {@code structuredContent} and under {@code _meta}
 * {@code "dev.baton/sessionId"}), which a later call sends back to continue the session. A call
 * with a {@code progressToken} gets a progress notification per streamed chunk.
 *
 * <p><b>Errors.</b> A call that fails (bad arguments, a tool's {@link BatonException}, a failed or
 * interrupted agent turn) answers {@code isError: true}, and a {@code prompts/get} that fails a
 * JSON-RPC error, with the message a remote client may see, by baton-server's rules: a public
 * error's message, any other's generic text for its status (every message when {@code
 * GENKIT_ENV=dev}); never a stack trace.
 *
 * <p><b>Prompts</b> are listed with their input schema's top-level properties as arguments, and
 * {@code prompts/get} renders one with the arguments as its input (MCP knows no system role: the
 * system text comes first, as a user message).
 *
 * <p><b>Auth</b> (HTTP only): the {@link ContextProvider}s run before any MCP processing, as a
 * {@code BatonHandler}'s do; a refused request gets the refusal's HTTP status (401, 403), and the
 * auth context of an admitted one is the {@code ActionContext.auth()} of the tools it calls. An MCP
 * session belongs to the principal that opened it (or to no principal): a request of another in it
 * is answered 404, as an unknown session is. Over stdio the auth context is empty.
 *
 * <p><b>Cancellation.</b> Over HTTP, a client's {@code notifications/cancelled} cancels the call it
 * names, even one it overtook. Over stdio it is not honoured (the SDK's classic server drops it),
 * but the end of the input cancels the calls still running. {@link #close()} cancels every call in
 * flight and stops serving; closing the Baton instance aborts its agents' turns.
 *
 * <p><b>Shutdown.</b> The handler drains as a {@link BatonHandler} does: on {@code
 * BatonServer.close()} it answers new POSTs 503 and waits for the calls in flight, for {@link
 * BatonHandler#DEFAULT_SHUTDOWN_GRACE} at most; the calls left are cancelled when the server stops.
 *
 * <p>What is served is resolved when the server is built. Thread-safe.
 */
public final class McpServer implements AutoCloseable {
  /** Where {@link #handler()} answers unless told otherwise. */
  public static final String DEFAULT_PATH = "/mcp";

  private static final int MAX_BODY_BYTES = (int) BatonHandler.DEFAULT_MAX_REQUEST_BYTES;

  private final ToolCalls calls;
  private final Failures failures;
  private final SdkServers servers;
  private final List<ContextProvider> providers;
  private final String path;

  private final Object lock = new Object();
  private @Nullable McpSyncServer httpServer;
  private final List<StdinEnd> inputs = new ArrayList<>();
  private @Nullable Handler endpoint;
  private boolean closed;

  private McpServer(Builder builder, ToolCalls calls, Failures failures, SdkServers servers) {
    this.calls = calls;
    this.failures = failures;
    this.servers = servers;
    this.providers = List.copyOf(builder.providers);
    this.path = builder.path;
  }

  /** The HTTP path {@link #handler()} answers at. */
  public String path() {
    return path;
  }

  /**
   * Serves over stdio: reads requests from {@code System.in} and writes answers to {@code
   * System.out}, blocking until the input ends (the client closed it) or the server is {@link
   * #close() closed}. While it serves, nothing else may write to {@code System.out}: a stray line
   * there breaks the protocol, so send logs to {@code System.err}.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} when the server is closed
   */
  public void serveStdio() {
    serveStdio(System.in, System.out);
  }

  /** Serves over stdio on these streams; see {@link #serveStdio()}. */
  void serveStdio(InputStream in, OutputStream out) {
    StdinEnd input = new StdinEnd(in);
    synchronized (lock) {
      if (closed) {
        throw BatonException.failedPrecondition("the MCP server is closed");
      }
      inputs.add(input);
    }
    // Built once the input is registered, so that a close from now on ends the wait below.
    StdioTransport transport = new StdioTransport(McpSdk.MAPPER, input, out);
    McpSyncServer server =
        servers.build(io.modelcontextprotocol.server.McpServer.sync(transport), false);
    try {
      input.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (lock) {
        inputs.remove(input);
      }
      // No one is left to read the answers of the calls still running.
      String session = transport.sessionId();
      if (session != null) {
        calls.cancelSession(session);
      }
      server.closeGracefully();
    }
  }

  /**
   * The streamable HTTP endpoint: a Jetty handler that answers at {@link #path()} and declines
   * every other path, so that it sits beside other handlers ({@code BatonServer.start(host, port,
   * batonHandler, mcp.handler())}). The same handler every time.
   *
   * <p>In a Jetty server of your own with context providers, set {@code
   * HttpConfiguration.setHeaderCacheCaseSensitive(true)} on its HTTP/1 connectors, as {@link
   * BatonHandler} explains ({@code BatonServer} does): otherwise the handler refuses to start, with
   * an {@link IllegalStateException}.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} when the server is closed
   */
  public Handler handler() {
    synchronized (lock) {
      if (closed) {
        throw BatonException.failedPrecondition("the MCP server is closed");
      }
      if (endpoint == null) {
        HttpServletStreamableServerTransportProvider transport =
            HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(McpSdk.MAPPER)
                .mcpEndpoint(path)
                .contextExtractor(RequestScope::extract)
                .maxRequestSize(MAX_BODY_BYTES)
                .build();
        httpServer = servers.build(io.modelcontextprotocol.server.McpServer.sync(transport), true);
        endpoint =
            new HttpEndpoint(
                path,
                transport,
                List.of(
                    new AuthFilter(providers, failures),
                    new CancellationFilter(calls, McpSdk.MAPPER, MAX_BODY_BYTES)),
                !providers.isEmpty(),
                calls);
      }
      return endpoint;
    }
  }

  /**
   * Stops serving: cancels the calls in flight, closes the MCP sessions, and ends {@link
   * #serveStdio()}. The Baton instance stays open: it is the application's. Idempotent.
   */
  @Override
  public void close() {
    McpSyncServer http;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      http = httpServer;
      inputs.forEach(StdinEnd::end);
    }
    calls.cancelAll();
    if (http != null) {
      http.close();
    }
  }

  /** Configures an {@link McpServer}; it serves nothing until told. Not thread-safe; build once. */
  public static final class Builder {
    private final Baton baton;
    private final Set<String> tools = new LinkedHashSet<>();
    private final Set<String> flows = new LinkedHashSet<>();
    private final Set<String> agents = new LinkedHashSet<>();
    private final Set<String> prompts = new LinkedHashSet<>();
    private final List<ContextProvider> providers = new ArrayList<>();
    private String path = DEFAULT_PATH;

    Builder(Baton baton) {
      this.baton = Objects.requireNonNull(baton, "baton");
    }

    /** Serves these registered tools as MCP tools of the same names. */
    public Builder tools(String... names) {
      tools.addAll(List.of(names));
      return this;
    }

    /** Serves these flows as MCP tools of the same names. */
    public Builder flows(String... names) {
      flows.addAll(List.of(names));
      return this;
    }

    /** Serves these agents as MCP tools of the same names, one turn a call. */
    public Builder agents(String... names) {
      agents.addAll(List.of(names));
      return this;
    }

    /** Serves these prompts as MCP prompts of the same names. */
    public Builder prompts(String... names) {
      prompts.addAll(List.of(names));
      return this;
    }

    /**
     * Adds a context provider for HTTP requests; providers run in the order added, as a {@link
     * BatonHandler}'s do. Stdio has no requests to authenticate: its calls carry no auth context.
     */
    public Builder contextProvider(ContextProvider provider) {
      providers.add(Objects.requireNonNull(provider, "provider"));
      return this;
    }

    /**
     * The HTTP path {@link McpServer#handler()} answers at (default {@code /mcp}).
     *
     * @throws BatonException {@code INVALID_ARGUMENT} unless it is an absolute path without a
     *     trailing slash, query or fragment
     */
    public Builder path(String path) {
      if (!path.matches("(/[^/?#]+)+")) {
        throw BatonException.invalidArgument(
            "the MCP path must be an absolute path such as /mcp, without a trailing slash, query or"
                + " fragment: \"%s\"",
            path);
      }
      this.path = path;
      return this;
    }

    /**
     * The server, serving what this builder was given as the Baton instance has it now.
     *
     * @throws BatonException {@code NOT_FOUND} when a named tool, flow, agent or prompt does not
     *     exist; {@code INVALID_ARGUMENT} when two served actions would have the same MCP tool name
     */
    public McpServer build() {
      Failures failures = new Failures(Failures.exposeByDefault());
      ToolCalls calls = new ToolCalls();
      Serving serving = new Serving(baton.registry(), calls, failures);
      List<SyncToolSpecification> served = new ArrayList<>();
      for (String name : tools) {
        served.add(ActionTools.of(lookup(ActionType.TOOL, name), serving));
      }
      for (String name : flows) {
        served.add(ActionTools.of(lookup(ActionType.FLOW, name), serving));
      }
      for (String name : agents) {
        served.add(AgentTools.of(baton.agent(name), serving));
      }
      Set<String> names = new HashSet<>();
      for (SyncToolSpecification tool : served) {
        if (!names.add(tool.tool().name())) {
          throw BatonException.invalidArgument(
              "two of the served tools, flows and agents are named \"%s\"; MCP tool names must be"
                  + " unique",
              tool.tool().name());
        }
      }
      List<SyncPromptSpecification> servedPrompts = new ArrayList<>();
      for (String name : prompts) {
        servedPrompts.add(Prompts.of(ExecutablePrompt.lookup(baton.registry(), name), serving));
      }
      return new McpServer(this, calls, failures, new SdkServers(served, servedPrompts));
    }

    private Action<?, ?, ?> lookup(ActionType type, String name) {
      return baton
          .registry()
          .lookup(type, name)
          .orElseThrow(
              () ->
                  BatonException.notFound(
                      "no %s named \"%s\" to serve", type.name().toLowerCase(Locale.ROOT), name));
    }
  }
}
