package dev.baton.mcp.internal.server;

import dev.baton.ai.ToolResult;
import dev.baton.core.Action;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.Json;
import dev.baton.mcp.internal.McpContent;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A Baton tool or flow as an MCP tool. Its input schema is the MCP {@code inputSchema} when it
 * describes an object; MCP takes nothing else, so any other input (a string, say) is wrapped as the
 * one argument {@code input}. Its output schema is the {@code outputSchema} when it describes an
 * object, and the output is then also the {@code structuredContent}; the content is the output as
 * text (a string as it is, anything else as JSON), or a multipart tool's parts as MCP content.
 * Streamed chunks are progress notifications.
 */
public final class ActionTools {
  /** The argument a non-object input is wrapped in. */
  static final String INPUT = "input";

  // Where a schema keeps the definitions its references name, in current and older drafts.
  private static final List<String> DEFINITIONS = List.of("$defs", "definitions");

  private ActionTools() {}

  public static SyncToolSpecification of(Action<?, ?, ?> action, Serving serving) {
    ActionDescriptor descriptor = action.descriptor();
    JsonNode inputSchema = descriptor.inputSchema();
    boolean wrapped = inputSchema != null && !Schemas.isObject(inputSchema);
    JsonNode outputSchema = descriptor.outputSchema();
    boolean structured = outputSchema != null && Schemas.isObject(outputSchema);
    boolean multipart = descriptor.metadata().path("tool").path("multipart").asBoolean(false);
    Tool.Builder tool =
        Tool.builder(descriptor.name(), Schemas.map(inputSchema(inputSchema, wrapped)))
            .description(descriptor.description());
    if (outputSchema != null && structured) {
      tool.outputSchema(Schemas.map(outputSchema));
    }
    return serving.tool(
        tool.build(),
        (context, request, progress) -> {
          JsonNode output =
              action.runJson(
                  context, input(request, wrapped), chunk -> progress.report(text(chunk)));
          return multipart ? multipart(output, structured) : result(output, structured);
        });
  }

  private static JsonNode inputSchema(@Nullable JsonNode schema, boolean wrapped) {
    if (schema == null) {
      return Schemas.object();
    }
    if (!wrapped) {
      return schema;
    }
    ObjectNode object = Schemas.object();
    JsonNode input = schema;
    if (schema instanceof ObjectNode fields) {
      // A dialect is declared once, at the root; so are definitions, which a "$ref" such as
      // "#/$defs/x" finds from the root of the document.
      ObjectNode copy = fields.deepCopy();
      copy.remove("$schema");
      for (String definitions : DEFINITIONS) {
        JsonNode value = copy.remove(definitions);
        if (value != null) {
          object.set(definitions, value);
        }
      }
      input = copy;
    }
    object.putObject("properties").set(INPUT, input);
    object.putArray("required").add(INPUT);
    return object;
  }

  private static JsonNode input(CallToolRequest request, boolean wrapped) {
    JsonNode arguments =
        request.arguments() == null ? Json.object() : Json.toTree(request.arguments());
    if (!wrapped) {
      return arguments;
    }
    JsonNode input = arguments.get(INPUT);
    return input == null ? Json.nodes().nullNode() : input;
  }

  private static CallToolResult result(JsonNode output, boolean structured) {
    return result(output, List.of(TextContent.builder(text(output)).build()), structured);
  }

  /**
   * A multipart tool's answer, {@code {"output": …, "content": […]}}: its parts are the content
   * (the output as text when it has none), and its output alone is the structured content.
   */
  private static CallToolResult multipart(JsonNode answer, boolean structured) {
    ToolResult.Output parts = Json.convert(answer, ToolResult.Output.class);
    JsonNode output = parts.output();
    if (parts.content() == null || parts.content().isEmpty()) {
      return result(output, structured);
    }
    return result(output, parts.content().stream().map(McpContent::toContent).toList(), structured);
  }

  private static CallToolResult result(JsonNode output, List<Content> content, boolean structured) {
    CallToolResult.Builder result = CallToolResult.builder().content(content).isError(false);
    if (structured && output.isObject()) {
      result.structuredContent(Schemas.map(output));
    }
    return result.build();
  }

  private static String text(JsonNode json) {
    return json.isString() ? json.asString() : Json.write(json);
  }
}
