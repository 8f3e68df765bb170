package dev.baton.mcp.internal.client;

import dev.baton.ai.Tool;
import dev.baton.ai.ToolContext;
import dev.baton.ai.ToolResult;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.internal.core.TraceSpan;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * A server's tools as Baton tools named {@code <client>/<tool>}, listed on first use and replaced
 * when the server announces a change. A tool keeps answering while the server offers it; once it is
 * gone from the list, calling it fails with {@code NOT_FOUND}. A tool already handed out (a
 * registry keeps what it resolved) keeps the description and schema it was made with. Thread-safe.
 */
public final class ServerTools {
  /** The span attribute naming the MCP client a tool call went through. */
  public static final String CLIENT_ATTRIBUTE = "mcp:client";

  private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {};

  private final String name;
  private final ServerConnection connection;
  // By the server's tool name, in the server's order; null until listed.
  private volatile @Nullable Map<String, Tool<?, ?>> tools;

  /** The tools of a server not started yet, and the connection that will start it. */
  public ServerTools(String name, Endpoint endpoint, Duration timeout) {
    this.name = name;
    this.connection = new ServerConnection(name, endpoint, timeout, this::changed);
  }

  /** The connection the tools call through. */
  public ServerConnection connection() {
    return connection;
  }

  /** The current tools, listing them (and starting the server) first if need be. */
  public List<Tool<?, ?>> list(Cancellation cancellation) {
    return List.copyOf(current(cancellation).values());
  }

  /** The tool the server calls {@code tool}, or null when it offers none by that name. */
  public @Nullable Tool<?, ?> find(String tool, Cancellation cancellation) {
    return current(cancellation).get(tool);
  }

  private Map<String, Tool<?, ?>> current(Cancellation cancellation) {
    connection.checkOpen();
    Map<String, Tool<?, ?>> listed = tools;
    if (listed != null) {
      return listed;
    }
    Map<String, Tool<?, ?>> fetched = toTools(connection.listTools(cancellation));
    synchronized (this) {
      // A list the server sent after a change while this one was asked for is the newer one.
      if (tools == null) {
        tools = fetched;
      }
      return Objects.requireNonNull(tools);
    }
  }

  private synchronized void changed(List<McpSchema.Tool> listed) {
    tools = toTools(listed);
  }

  private Map<String, Tool<?, ?>> toTools(List<McpSchema.Tool> listed) {
    Map<String, Tool<?, ?>> byName = new LinkedHashMap<>();
    for (McpSchema.Tool tool : listed) {
      byName.put(tool.name(), toTool(tool));
    }
    return byName;
  }

  private Tool<?, ?> toTool(McpSchema.Tool tool) {
    String mcpName = tool.name();
    // The server's schema as it is: Baton validates the model's input against it before a call,
    // and a schema it cannot compile fails that tool's calls with INVALID_ARGUMENT, not the list.
    JsonNode inputSchema = tool.inputSchema() == null ? null : Json.toTree(tool.inputSchema());
    return Tool.createMultipart(
        name + "/" + mcpName,
        tool.description() == null ? "" : tool.description(),
        inputSchema,
        null,
        (context, input) -> call(context, mcpName, input));
  }

  private ToolResult.Output call(ToolContext context, String tool, JsonNode input) {
    Map<String, Tool<?, ?>> listed = tools;
    if (listed != null && !listed.containsKey(tool)) {
      throw BatonException.notFound("MCP server \"%s\" no longer offers tool \"%s\"", name, tool);
    }
    nameClientInSpan(context, name);
    Map<String, Object> arguments = input.isObject() ? Json.convert(input, ARGUMENTS) : Map.of();
    return ToolResults.toOutput(connection.callTool(context.context(), tool, arguments));
  }

  /** Names the MCP client in the span of the tool call running in {@code context}. */
  static void nameClientInSpan(ToolContext context, String client) {
    TraceSpan span = TraceSpan.of(context.context());
    if (span != null) {
      span.setMetadata(CLIENT_ATTRIBUTE, client);
    }
  }
}
