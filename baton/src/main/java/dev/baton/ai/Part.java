package dev.baton.ai;

import dev.baton.internal.ai.PartReader;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
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
@JsonDeserialize(using = PartReader.class)
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
    return new ToolRequestPart(ToolRequest.of(name, input).withRef(ref), null);
  }

  static ToolResponsePart toolResponse(
      String name, @Nullable String ref, @Nullable JsonNode output) {
    return new ToolResponsePart(ToolResponse.of(name, output).withRef(ref), null);
  }

  static DataPart data(JsonNode data) {
    return new DataPart(data, null);
  }

  static ReasoningPart reasoning(String reasoning) {
    return new ReasoningPart(reasoning, null);
  }
}
