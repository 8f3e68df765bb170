package dev.baton.ai;

import dev.baton.core.Json;
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

  @Override
  public DataPart withMetadata(@Nullable ObjectNode metadata) {
    return new DataPart(data, metadata);
  }
}
