package dev.baton.internal.ai;

import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.BatonException;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;

/** Reads a part by the key that names its kind: {@code text}, {@code toolRequest}, and so on. */
public final class PartReader extends ValueDeserializer<Part> {
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
