package dev.baton.mcp.internal.client;

import dev.baton.ai.Part;
import dev.baton.ai.ToolResult;
import dev.baton.core.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
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
      Part part = toPart(item);
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

  /** One item of MCP content as a part. */
  static Part toPart(McpSchema.Content content) {
    return switch (content) {
      case McpSchema.TextContent text -> Part.text(text.text());
      case McpSchema.ImageContent image ->
          Part.media(dataUrl(image.mimeType(), image.data()), image.mimeType());
      case McpSchema.AudioContent audio ->
          Part.media(dataUrl(audio.mimeType(), audio.data()), audio.mimeType());
      case McpSchema.EmbeddedResource embedded -> toPart(embedded.resource());
      case McpSchema.ResourceLink link -> link(link);
      default -> Part.data(Json.toTree(content));
    };
  }

  /**
   * A resource's contents as a part: text as text, a blob as media, with {@code {"resource":
   * {"uri", "mimeType"}}} in its metadata.
   */
  static Part toPart(McpSchema.ResourceContents resource) {
    Part part =
        switch (resource) {
          case McpSchema.TextResourceContents text -> Part.text(text.text());
          case McpSchema.BlobResourceContents blob ->
              Part.media(dataUrl(blob.mimeType(), blob.blob()), blob.mimeType());
          default -> Part.data(Json.toTree(resource));
        };
    return part.withMetadata(
        resourceMetadata("resource", resource.uri(), null, resource.mimeType()));
  }

  private static Part link(McpSchema.ResourceLink link) {
    String label = link.description() != null ? link.description() : link.name();
    return Part.text("Resource \"%s\": %s".formatted(label, link.uri()))
        .withMetadata(resourceMetadata("resourceLink", link.uri(), link.name(), link.mimeType()));
  }

  private static ObjectNode resourceMetadata(
      String key, String uri, @Nullable String name, @Nullable String mimeType) {
    ObjectNode metadata = Json.object();
    ObjectNode resource = metadata.putObject(key);
    resource.put("uri", uri);
    if (name != null) {
      resource.put("name", name);
    }
    if (mimeType != null) {
      resource.put("mimeType", mimeType);
    }
    return metadata;
  }

  private static String dataUrl(@Nullable String mimeType, String base64) {
    return "data:"
        + (mimeType == null ? "application/octet-stream" : mimeType)
        + ";base64,"
        + base64;
  }
}
