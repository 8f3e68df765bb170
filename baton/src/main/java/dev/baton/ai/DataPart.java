package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.annotation.JsonDeserialize;
import tools.jackson.databind.node.ObjectNode;

/** Structured JSON data. */
@JsonDeserialize(using = ValueDeserializer.None.class)
public record DataPart(JsonNode data, @Nullable ObjectNode metadata) implements Part {
  public DataPart {
    data = Json.copy(data);
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public JsonNode data() {
    return Json.copy(data);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }

  @Override
  public DataPart withMetadata(@Nullable ObjectNode metadata) {
    return new DataPart(data, metadata);
  }
}
