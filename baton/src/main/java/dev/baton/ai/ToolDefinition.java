package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A tool as a model sees it: name, description and JSON schemas. */
public record ToolDefinition(
    String name,
    String description,
    JsonNode inputSchema,
    @Nullable JsonNode outputSchema,
    @Nullable ObjectNode metadata) {
  public ToolDefinition {
    inputSchema = Json.copy(inputSchema);
    outputSchema = outputSchema == null ? null : Json.copy(outputSchema);
    metadata = Metadata.copyOf(metadata);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public JsonNode inputSchema() {
    return Json.copy(inputSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode outputSchema() {
    return outputSchema == null ? null : Json.copy(outputSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable ObjectNode metadata() {
    return metadata == null ? null : metadata.deepCopy();
  }
}
