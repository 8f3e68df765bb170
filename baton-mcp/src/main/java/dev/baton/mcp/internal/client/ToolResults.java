package dev.baton.mcp.internal.client;

import dev.baton.ai.Part;
import dev.baton.ai.ToolResult;
import dev.baton.core.Json;
import dev.baton.mcp.internal.McpContent;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An MCP tool result as a Baton tool's answer: content becomes parts (text as text, images and
 * audio as {@code data:} URLs, embedded resources as text or media, resource links as text that
 * keeps the link in its metadata), and the output is the structured content when there is one, else
 * the texts joined. A result flagged {@code isError} is still an answer: the model reads what went
 * wrong, with {@code {"isError": true}} in the output. Prompt messages and resource reads map their
 * content to parts the same way.
 */
public final class ToolResults {
  private ToolResults() {}

  /** The answer a Baton tool gives for this MCP result. */
  public static ToolResult.Output toOutput(McpSchema.CallToolResult result) {
    List<McpSchema.Content> content = result.content() == null ? List.of() : result.content();
    List<Part> parts = new ArrayList<>(content.size());
    List<String> texts = new ArrayList<>();
    for (McpSchema.Content item : content) {
      Part part = McpContent.toPart(item);
      parts.add(part);
      if (part instanceof dev.baton.ai.TextPart text) {
        texts.add(text.text());
      }
    }
    String text = String.join("\n", texts);
    JsonNode output;
    if (Boolean.TRUE.equals(result.isError())) {
      ObjectNode error = Json.object();
      error.put("isError", true);
      error.put("error", text);
      output = error;
    } else if (result.structuredContent() != null) {
      output = Json.toTree(result.structuredContent());
    } else {
      output = Json.nodes().stringNode(text);
    }
    return new ToolResult.Output(output, parts);
  }

  /** One item of MCP content as a part ({@link McpContent#toPart(McpSchema.Content)}). */
  static Part toPart(McpSchema.Content content) {
    return McpContent.toPart(content);
  }

  /** A resource's contents as a part ({@link McpContent#toPart(McpSchema.ResourceContents)}). */
  static Part toPart(McpSchema.ResourceContents resource) {
    return McpContent.toPart(resource);
  }
}
