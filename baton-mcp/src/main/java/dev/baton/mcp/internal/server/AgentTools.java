package dev.baton.mcp.internal.server;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Baton agent as an MCP tool: it takes {@code {"task": string, "sessionId"?: string}}, runs one
 * turn with the task as the user's message, and answers with the turn's last message as text and as
 * {@code structuredContent} {@code {"text", "sessionId"?}}. With a session store the answer carries
 * the session's ID (also under {@code _meta} as {@value #SESSION_META}), and a call that sends it
 * back continues that session; an agent without one keeps no session between calls. A failed,
 * aborted or interrupted turn is an {@code isError} result with a message a client may see. Each
 * streamed chunk is a progress notification, with the model's text when it has some.
 */
public final class AgentTools {
  static final String TASK = "task";
  static final String SESSION_ID = "sessionId";
  static final String TEXT = "text";

  /** The {@code _meta} key of the session's ID. */
  public static final String SESSION_META = "dev.baton/sessionId";

  private AgentTools() {}

  public static SyncToolSpecification of(Agent agent, Serving serving) {
    Tool tool =
        Tool.builder(agent.name(), Schemas.map(inputSchema()))
            .description(agent.description())
            .outputSchema(Schemas.map(outputSchema()))
            .build();
    return serving.tool(
        tool,
        (context, request, progress) -> {
          AgentOutput output =
              agent.run(
                  context,
                  AgentInput.text(task(request)),
                  init(sessionId(request)),
                  chunk -> progress.report(text(chunk)));
          return result(output, serving);
        });
  }

  private static ObjectNode inputSchema() {
    ObjectNode schema = Schemas.object();
    ObjectNode properties = schema.putObject("properties");
    properties
        .putObject(TASK)
        .put("type", "string")
        .put("description", "What the agent is asked to do, as the user's message");
    properties
        .putObject(SESSION_ID)
        .put("type", "string")
        .put(
            "description",
            "The session to continue: the sessionId of an earlier answer (agents with a session"
                + " store only)");
    schema.putArray("required").add(TASK);
    return schema;
  }

  private static ObjectNode outputSchema() {
    ObjectNode schema = Schemas.object();
    ObjectNode properties = schema.putObject("properties");
    properties.putObject(TEXT).put("type", "string");
    properties.putObject(SESSION_ID).put("type", "string");
    schema.putArray("required").add(TEXT);
    return schema;
  }

  private static String task(CallToolRequest request) {
    if (!(argument(request, TASK) instanceof String task) || task.isBlank()) {
      throw BatonException.invalidArgument("\"%s\" must be a non-empty string", TASK);
    }
    return task;
  }

  private static @Nullable String sessionId(CallToolRequest request) {
    Object value = argument(request, SESSION_ID);
    if (value != null && !(value instanceof String)) {
      throw BatonException.invalidArgument("\"%s\" must be a string", SESSION_ID);
    }
    return (String) value;
  }

  private static @Nullable Object argument(CallToolRequest request, String name) {
    return request.arguments() == null ? null : request.arguments().get(name);
  }

  private static AgentInit init(@Nullable String sessionId) {
    return sessionId == null ? AgentInit.NEW : AgentInit.ofSession(sessionId);
  }

  private static @Nullable String text(AgentStreamChunk chunk) {
    return chunk.modelChunk() == null ? null : chunk.modelChunk().text();
  }

  private static CallToolResult result(AgentOutput output, Serving serving) {
    // A client-managed agent's session lives in the output's state, which MCP does not carry back.
    String sessionId = output.state() == null ? output.sessionId() : null;
    Map<String, Object> meta = sessionId == null ? null : Map.of(SESSION_META, sessionId);
    AgentFinishReason reason = output.finishReason();
    if (output.error() != null
        && (reason == AgentFinishReason.FAILED || reason == AgentFinishReason.ABORTED)) {
      // The agent reports a turn's failure in its public form already.
      return serving.error(output.error().toException(), meta);
    }
    if (reason == AgentFinishReason.INTERRUPTED) {
      return serving.error(
          BatonException.of(
              Status.FAILED_PRECONDITION,
              "the agent stopped for input it needs (an interrupt), which an MCP call cannot"
                  + " give"),
          meta);
    }
    Map<String, Object> structured = new LinkedHashMap<>();
    structured.put(TEXT, output.text());
    if (sessionId != null) {
      structured.put(SESSION_ID, sessionId);
    }
    return CallToolResult.builder()
        .addContent(TextContent.builder(output.text()).build())
        .structuredContent(structured)
        .isError(false)
        .meta(meta)
        .build();
  }
}
