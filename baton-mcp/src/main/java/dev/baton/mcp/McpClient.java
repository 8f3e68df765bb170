package dev.baton.mcp;

import static java.util.Locale.ROOT;

import dev.baton.ai.ExecutablePrompt;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Part;
import dev.baton.ai.Tool;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.mcp.internal.client.Endpoint;
import dev.baton.mcp.internal.client.McpPrompts;
import dev.baton.mcp.internal.client.McpResources;
import dev.baton.mcp.internal.client.ServerConnection;
import dev.baton.mcp.internal.client.ServerTools;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A connection to one MCP server whose tools, prompts and resources Baton agents use. Built by
 * {@link Mcp#client}:
 *
 * <pre>{@code
 * McpClient fs = Mcp.client("fs")
 *     .stdio("npx", "-y", "@modelcontextprotocol/server-filesystem", dir)
 *     .build();
 * Baton baton = Baton.builder().plugin(fs).build();   // its tools resolve as "fs/<tool>"
 * }</pre>
 *
 * <p>As a plugin, the client serves the server's tools under {@code <name>/<tool>}: looking one up
 * (an agent or a generate call naming {@code fs/read_file}) starts the server and lists its tools.
 * Without registering it, {@link #tools()} gives them as a plain list for {@code
 * GenerateOptions.tools}; then the application closes the client.
 *
 * <p>The server's prompts are Baton prompts ({@link #prompt}), which a registered client also
 * serves by name ({@code /executable-prompt/<name>/<prompt>}); its resources are parts ({@link
 * #resource}) and two tools for the model.
 *
 * <p>A stdio server starts on first use, never at {@code build()} nor when Baton is built, and
 * stops with its whole process tree on {@link #close()}, which {@code Baton.close()} calls for a
 * registered client. A server that died is started again by the next call. Thread-safe: calls run
 * in parallel on one server.
 */
public final class McpClient implements Plugin, AutoCloseable {
  private final ServerTools tools;
  private final ServerConnection connection;
  private final McpPrompts prompts;
  private final McpResources resources;

  private McpClient(String name, Endpoint endpoint, Duration timeout) {
    this.tools = new ServerTools(name, endpoint, timeout);
    this.connection = tools.connection();
    this.prompts = new McpPrompts(connection);
    this.resources = new McpResources(connection);
  }

  /** The client's name, the prefix of its tools' names ({@code fs} in {@code fs/read_file}). */
  @Override
  public String name() {
    return connection.name();
  }

  /**
   * Serves the server's tools under {@code <name>/<tool>} (with the resource tools, see {@link
   * #tools()}) and its prompts under {@code <name>/<prompt>}; does not start the server.
   */
  @Override
  public void init(Registry registry) {
    String prefix = name() + "/";
    registry.addResolver(
        (type, key) -> {
          if (!key.startsWith(prefix)) {
            return null;
          }
          String name = key.substring(prefix.length());
          if (type == ActionType.TOOL) {
            Tool<?, ?> tool = tools.find(name, Cancellation.never());
            return tool != null ? tool : resources.find(name);
          }
          return type == ActionType.EXECUTABLE_PROMPT ? prompts.resolve(name) : null;
        });
  }

  /**
   * The server's current tools, named {@code <name>/<tool>}, with the server's descriptions and
   * input schemas as they are. Starts the server on first use; after the server announces a change
   * to its tools, the new list (a tool taken earlier, or resolved through a registry, keeps its
   * description and schema, and fails with {@code NOT_FOUND} once the server dropped it). A server
   * with resources adds two tools of the client's, {@code <name>/list_resources} and {@code
   * <name>/read_resource} (see the package documentation), unless it has tools of those names
   * itself.
   *
   * @throws BatonException {@code UNAVAILABLE} when the server cannot be reached or started, {@code
   *     FAILED_PRECONDITION} once the client is closed
   */
  public List<Tool<?, ?>> tools() {
    List<Tool<?, ?>> all = new ArrayList<>(tools.list(Cancellation.never()));
    Set<String> names = all.stream().map(Tool::name).collect(Collectors.toSet());
    // A server's own tool keeps its name: the resource tool of that name gives way.
    resources.tools().stream().filter(tool -> !names.contains(tool.name())).forEach(all::add);
    return List.copyOf(all);
  }

  /**
   * The server's prompt {@code name} as a Baton prompt named {@code <name>/<prompt>}, without a
   * model: give one when rendering ({@code render(...).model(...)}) or use {@link #prompt(String,
   * InlinePrompt)}. Its input is the prompt's arguments; see the package documentation. Starts the
   * server on first use.
   *
   * @throws BatonException {@code NOT_FOUND} when the server has no such prompt, {@code
   *     UNAVAILABLE} when the server cannot be reached or started
   */
  public ExecutablePrompt prompt(String name) {
    return prompts.get(name, McpPrompts.NO_OPTIONS);
  }

  /**
   * The server's prompt {@code name} with the model, config, tools and other options of {@code
   * options}, whose messages the server's replace: for an agent or a generate call that renders it.
   * {@code options} stays as it is.
   *
   * @throws BatonException {@code NOT_FOUND} when the server has no such prompt, {@code
   *     UNAVAILABLE} when the server cannot be reached or started
   */
  public ExecutablePrompt prompt(String name, InlinePrompt options) {
    return prompts.get(name, options);
  }

  /**
   * The server's prompts, as {@link #prompt(String)} gives them. Starts the server on first use;
   * after the server announces a change to its prompts, the new list.
   *
   * @throws BatonException {@code UNAVAILABLE} when the server cannot be reached or started
   */
  public List<ExecutablePrompt> prompts() {
    return prompts.list();
  }

  /**
   * What the server reads at {@code uri} (a listed resource's, or one a URI template makes), as
   * parts to put in a message: text as {@code TextPart}, blobs as {@code MediaPart}.
   *
   * @throws BatonException as the server answered (an unknown URI is usually {@code
   *     INVALID_ARGUMENT} or {@code NOT_FOUND}), {@code UNAVAILABLE} when the server cannot be
   *     reached or started
   */
  public List<Part> resource(String uri) {
    return resources.read(Cancellation.never(), uri);
  }

  /** Stops the server (a stdio server's whole process tree); idempotent. */
  @Override
  public void close() {
    connection.close();
  }

  @Override
  public String toString() {
    return "McpClient[" + name() + "]";
  }

  static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Configures a client: one transport ({@link #stdio} or {@link #http}), then its options. Not
   * thread-safe; {@link #build()} may be called more than once, each client being independent.
   */
  public static final class Builder {
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    // What java.net.http.HttpClient refuses to have set: it fails only when sending.
    private static final Set<String> RESTRICTED_HEADERS =
        Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final String name;
    private @Nullable String command;
    private List<String> args = List.of();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private boolean inheritEnvironment;
    private @Nullable URI uri;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;

    private Builder(String name) {
      if (name == null || name.isBlank() || name.contains("/")) {
        throw BatonException.invalidArgument(
            "an MCP client needs a name without \"/\" (its tools are named <name>/<tool>), got %s",
            name);
      }
      this.name = name;
    }

    /** Runs the server as a child process speaking MCP on its stdin and stdout. */
    public Builder stdio(String command, String... args) {
      if (command == null || command.isBlank()) {
        throw BatonException.invalidArgument("MCP client \"%s\": stdio needs a command", name);
      }
      this.command = command;
      this.args = List.of(args);
      return this;
    }

    /**
     * Sets an environment variable of the server's process (stdio only). The process gets these and
     * a few safe variables of the JVM's ({@code PATH}, {@code HOME}, {@code USER}, {@code SHELL},
     * {@code TERM}, {@code LOGNAME}; their Windows counterparts), not the JVM's whole environment,
     * which may hold secrets: see {@link #inheritEnvironment()}.
     */
    public Builder environment(String key, String value) {
      environment.put(key, value);
      return this;
    }

    /**
     * Gives the server's process the JVM's whole environment (stdio only), under the variables of
     * {@link #environment}: for a server that needs variables the application cannot name.
     */
    public Builder inheritEnvironment() {
      this.inheritEnvironment = true;
      return this;
    }

    /** Connects to a server at a streamable HTTP endpoint, such as {@code http://host/mcp}. */
    public Builder http(URI uri) {
      String scheme = uri.getScheme();
      boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
      if (!web || uri.getHost() == null) {
        throw BatonException.invalidArgument(
            "MCP client \"%s\": http needs an absolute http(s) URI, got %s", name, uri);
      }
      this.uri = uri;
      return this;
    }

    /**
     * Sends a header with every HTTP request (HTTP only); a header of the same name, whatever its
     * case, is replaced.
     *
     * @throws BatonException {@code INVALID_ARGUMENT} for a header the HTTP client sets itself
     *     ({@code Host}, {@code Connection}, {@code Content-Length}, {@code Expect}, {@code
     *     Upgrade})
     */
    public Builder header(String name, String value) {
      if (name == null || name.isBlank() || RESTRICTED_HEADERS.contains(name.toLowerCase(ROOT))) {
        throw BatonException.invalidArgument(
            "MCP client \"%s\": the HTTP client sets header %s itself", this.name, name);
      }
      headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(name));
      headers.put(name, value);
      return this;
    }

    /**
     * Sends {@code Authorization: Bearer <token>} with every HTTP request (HTTP only), replacing an
     * {@code Authorization} header.
     */
    public Builder bearerToken(String token) {
      return header("Authorization", "Bearer " + token);
    }

    /** How long one request to the server may take; 60 seconds by default. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw BatonException.invalidArgument(
            "MCP client \"%s\": the timeout must be positive, got %s", name, timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * The client; nothing is started until it is used.
     *
     * @throws BatonException {@code INVALID_ARGUMENT} without exactly one transport, or with an
     *     option the transport does not take
     */
    public McpClient build() {
      List<String> problems = new ArrayList<>();
      if ((command == null) == (uri == null)) {
        problems.add("exactly one of stdio(...) and http(...)");
      }
      if (command == null && (!environment.isEmpty() || inheritEnvironment)) {
        problems.add("environment(...) and inheritEnvironment() only with stdio(...)");
      }
      if (uri == null && !headers.isEmpty()) {
        problems.add("header(...) and bearerToken(...) only with http(...)");
      }
      if (!problems.isEmpty()) {
        throw BatonException.invalidArgument(
            "MCP client \"%s\" needs %s", name, String.join("; ", problems));
      }
      Endpoint endpoint =
          command != null
              ? new Endpoint.Stdio(command, args, environment, inheritEnvironment)
              : new Endpoint.Http(Objects.requireNonNull(uri), headers);
      return new McpClient(name, endpoint, timeout);
    }
  }
}
