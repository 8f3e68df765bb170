package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/** Provider-specific content that Baton passes through untouched. */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record CustomPart(JsonNode custom, @Nullable ObjectNode metadata) implements Part {
  public CustomPart {
    custom = Json.copy(custom);
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public JsonNode custom() {
    return Json.copy(custom);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public CustomPart withMetadata(@Nullable ObjectNode metadata) {
    return new CustomPart(custom, metadata);
  }
}
