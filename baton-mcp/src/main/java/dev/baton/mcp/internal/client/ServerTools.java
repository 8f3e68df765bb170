package dev.baton.mcp.internal.client;

import dev.baton.ai.Tool;
import dev.baton.ai.ToolContext;
import dev.baton.ai.ToolResult;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.internal.core.SchemaValidator;
import dev.baton.internal.core.TraceSpan;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * A server's tools as Baton tools named {@code <client>/<tool>}, listed on first use and replaced
 * when the server announces a change. A tool keeps answering while the server offers it; once it is
 * gone from the list, calling it fails with {@code NOT_FOUND}. A tool already handed out (a
 * registry keeps what it resolved) keeps the description and schema it was made with.
 *
 * <p>A tool whose input schema is not valid JSON Schema is left out of the list, so no model is
 * offered a schema its provider may refuse (with the whole request); called by name, it fails with
 * {@code INVALID_ARGUMENT} saying what is wrong with the schema. Thread-safe.
 */
public final class ServerTools {
  /** The span attribute naming the MCP client a tool call went through. */
  public static final String CLIENT_ATTRIBUTE = "mcp:client";

  private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {};
  private static final Logger log = LoggerFactory.getLogger(ServerTools.class);

  private final String name;
  private final ServerConnection connection;
  // What the server listed last; null until listed.
  private volatile @Nullable Listed tools;

  /**
   * A listing: every tool by the server's name for it, in the server's order, and those a model may
   * be offered (all but the ones whose schema is broken).
   */
  private record Listed(Map<String, Tool<?, ?>> byName, List<Tool<?, ?>> offered) {}

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
    return current(cancellation).offered();
  }

  /** The tool the server calls {@code tool}, or null when it offers none by that name. */
  public @Nullable Tool<?, ?> find(String tool, Cancellation cancellation) {
    return current(cancellation).byName().get(tool);
  }

  private Listed current(Cancellation cancellation) {
    connection.checkOpen();
    Listed listed = tools;
    if (listed != null) {
      return listed;
    }
    Listed fetched = toTools(connection.listTools(cancellation));
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

  private Listed toTools(List<McpSchema.Tool> listed) {
    Map<String, Tool<?, ?>> byName = new LinkedHashMap<>();
    List<Tool<?, ?>> offered = new ArrayList<>();
    for (McpSchema.Tool tool : listed) {
      @Nullable String broken = brokenSchema(tool);
      Tool<?, ?> made = broken == null ? toTool(tool) : brokenTool(tool.name(), broken);
      byName.put(tool.name(), made);
      if (broken == null) {
        offered.add(made);
      }
    }
    return new Listed(Collections.unmodifiableMap(byName), List.copyOf(offered));
  }

  /** What is wrong with a tool's input schema as JSON Schema, or null when nothing is. */
  private @Nullable String brokenSchema(McpSchema.Tool tool) {
    if (tool.inputSchema() == null) {
      return null;
    }
    List<SchemaValidator.Violation> violations =
        SchemaValidator.metaViolations(Json.toTree(tool.inputSchema()));
    if (violations.isEmpty()) {
      return null;
    }
    String why = violations.stream().map(Object::toString).collect(Collectors.joining("; "));
    log.warn(
        "MCP server \"{}\" lists tool \"{}\" with an input schema that is not valid JSON Schema,"
            + " so no model is offered it: {}",
        name,
        tool.name(),
        why);
    return why;
  }

  /** A tool whose schema is broken: called by name, it says so. */
  private Tool<?, ?> brokenTool(String mcpName, String why) {
    return Tool.createJson(
        name + "/" + mcpName,
        "",
        null,
        null,
        (context, input) -> {
          throw BatonException.invalidArgument(
              "MCP server \"%s\" lists tool \"%s\" with an input schema that is not valid JSON"
                  + " Schema: %s",
              name, mcpName, why);
        });
  }

  private Tool<?, ?> toTool(McpSchema.Tool tool) {
    String mcpName = tool.name();
    // The server's schema as it is: Baton validates the model's input against it before a call.
    JsonNode inputSchema = tool.inputSchema() == null ? null : Json.toTree(tool.inputSchema());
    return Tool.createMultipart(
        name + "/" + mcpName,
        tool.description() == null ? "" : tool.description(),
        inputSchema,
        null,
        (context, input) -> call(context, mcpName, input));
  }

  private ToolResult.Output call(ToolContext context, String tool, JsonNode input) {
    Listed listed = tools;
    if (listed != null && !listed.byName().containsKey(tool)) {
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
