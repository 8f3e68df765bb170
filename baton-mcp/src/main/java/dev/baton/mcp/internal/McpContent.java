package dev.baton.mcp.internal;

import dev.baton.ai.MediaPart;
import dev.baton.ai.Part;
import dev.baton.ai.TextPart;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Baton's parts as MCP content and back. MCP carries media inline, base64-encoded, where Baton
 * carries a {@code data:} URL: the two are turned into each other here only.
 */
public final class McpContent {
  private static final String DATA = "data:";
  private static final String BASE64 = ";base64";

  private McpContent() {}

  /**
   * One item of MCP content as a part: text as text, images and audio as {@code data:} URLs,
   * embedded resources as text or media, resource links as text that keeps the link in its
   * metadata, anything else as data.
   */
  public static Part toPart(McpSchema.Content content) {
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
  public static Part toPart(McpSchema.ResourceContents resource) {
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

  /**
   * A part as MCP content: text as text, and media at a base64 {@code data:} URL as an image or
   * audio.
   *
   * @throws BatonException {@code FAILED_PRECONDITION} for any other part, which MCP content cannot
   *     carry
   */
  public static McpSchema.Content toContent(Part part) {
    if (part instanceof TextPart text) {
      return McpSchema.TextContent.builder(text.text()).build();
    }
    if (part instanceof MediaPart media) {
      String url = media.media().url();
      int comma = url.indexOf(',');
      if (url.regionMatches(true, 0, DATA, 0, DATA.length()) && comma > 0) {
        String header = url.substring(DATA.length(), comma);
        if (header.toLowerCase(Locale.ROOT).endsWith(BASE64)) {
          String mimeType = header.substring(0, header.length() - BASE64.length());
          String data = url.substring(comma + 1);
          if (mimeType.startsWith("image/")) {
            return McpSchema.ImageContent.builder(data, mimeType).build();
          }
          if (mimeType.startsWith("audio/")) {
            return McpSchema.AudioContent.builder(data, mimeType).build();
          }
        }
      }
    }
    throw BatonException.failedPrecondition(
        "MCP content carries only text, and images and audio at base64 data: URLs");
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
    return DATA
        + (mimeType == null ? "application/octet-stream" : mimeType)
        + BASE64
        + ","
        + base64;
  }
}
