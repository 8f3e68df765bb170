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
import java.util.List;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads a part by the key that names its kind: {@code text}, {@code toolRequest}, and so on. A part
 * of a message carries what its key names, as Genkit's part schemas require: {@code {"toolRequest":
 * null}} is {@code INVALID_ARGUMENT}; only {@code data} and {@code custom} may be null. (A resume's
 * entries are read without this reader, and one without its payload is skipped.)
 */
public final class PartReader extends ValueDeserializer<Part> {
  private record Kind(String key, Class<? extends Part> type, boolean required) {}

  private static final List<Kind> KINDS =
      List.of(
          new Kind("text", TextPart.class, true),
          new Kind("toolRequest", ToolRequestPart.class, true),
          new Kind("toolResponse", ToolResponsePart.class, true),
          new Kind("media", MediaPart.class, true),
          new Kind("data", DataPart.class, false),
          new Kind("reasoning", ReasoningPart.class, true),
          new Kind("custom", CustomPart.class, false));

  @Override
  public Part deserialize(JsonParser parser, DeserializationContext context) {
    JsonNode node = context.readTree(parser);
    Kind kind = kindOf(node);
    if (kind.required() && node.get(kind.key()).isNull()) {
      throw BatonException.invalidArgument("a %s part needs its %s", kind.key(), kind.key());
    }
    return context.readTreeAsValue(node, kind.type());
  }

  private static Kind kindOf(JsonNode node) {
    for (Kind kind : KINDS) {
      if (node.has(kind.key())) {
        return kind;
      }
    }
    throw BatonException.invalidArgument(
        "unknown message part: expected one of text, media, toolRequest, toolResponse, data,"
            + " custom or reasoning, got %s",
        node.isObject() ? node.propertyNames().toString() : node.getNodeType());
  }
}
