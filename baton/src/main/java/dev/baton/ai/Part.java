package dev.baton.ai;

import dev.baton.core.BatonException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/**
 * One piece of a message's content. Genkit's JSON tells the kinds apart by their key: {@code
 * {"text": …}}, {@code {"media": …}}, {@code {"toolRequest": …}}, {@code {"toolResponse": …}},
 * {@code {"data": …}}, {@code {"custom": …}} or {@code {"reasoning": …}}, each with optional {@code
 * metadata}.
 *
 * <p>Parts are immutable values; {@code with…} methods return modified copies. Switch over the
 * sealed set to handle every kind.
 */
@JsonDeserialize(using = Part.Reader.class)
public sealed interface Part
    permits TextPart,
        MediaPart,
        ToolRequestPart,
        ToolResponsePart,
        DataPart,
        CustomPart,
        ReasoningPart {

  /** Free-form metadata, or null. Treat it as read-only. */
  @Nullable ObjectNode metadata();

  /** This part with other metadata. */
  Part withMetadata(@Nullable ObjectNode metadata);

  static TextPart text(String text) {
    return new TextPart(text, null);
  }

  static MediaPart media(String url, @Nullable String contentType) {
    return new MediaPart(new Media(url, contentType), null);
  }

  static ToolRequestPart toolRequest(String name, @Nullable String ref, @Nullable JsonNode input) {
    return new ToolRequestPart(new ToolRequest(name, ref, input), null);
  }

  static ToolResponsePart toolResponse(
      String name, @Nullable String ref, @Nullable JsonNode output) {
    return new ToolResponsePart(new ToolResponse(name, ref, output), null);
  }

  static DataPart data(JsonNode data) {
    return new DataPart(data, null);
  }

  static ReasoningPart reasoning(String reasoning) {
    return new ReasoningPart(reasoning, null);
  }

  /** Reads a part by the key that names its kind. */
  final class Reader extends ValueDeserializer<Part> {
    @Override
    public Part deserialize(JsonParser parser, DeserializationContext context) {
      JsonNode node = context.readTree(parser);
      Class<? extends Part> kind = kindOf(node);
      return context.readTreeAsValue(node, kind);
    }

    private static Class<? extends Part> kindOf(JsonNode node) {
      if (node.has("text")) {
        return TextPart.class;
      }
      if (node.has("toolRequest")) {
        return ToolRequestPart.class;
      }
      if (node.has("toolResponse")) {
        return ToolResponsePart.class;
      }
      if (node.has("media")) {
        return MediaPart.class;
      }
      if (node.has("data")) {
        return DataPart.class;
      }
      if (node.has("reasoning")) {
        return ReasoningPart.class;
      }
      if (node.has("custom")) {
        return CustomPart.class;
      }
      throw BatonException.invalidArgument(
          "unknown message part: expected one of text, media, toolRequest, toolResponse, data,"
              + " custom or reasoning, got %s",
          node.isObject() ? node.propertyNames().toString() : node.getNodeType());
    }
  }
}
