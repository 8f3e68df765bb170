package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.internal.ai.Metadata;
import dev.baton.internal.core.JsonSchemas;
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

  /** A tool named {@code name} that takes any input, with no description. */
  public static ToolDefinition of(String name) {
    return new ToolDefinition(name, "", JsonSchemas.any(), null, null);
  }

  public ToolDefinition withDescription(String description) {
    return new ToolDefinition(name, description, inputSchema, outputSchema, metadata);
  }

  public ToolDefinition withInputSchema(JsonNode inputSchema) {
    return new ToolDefinition(name, description, inputSchema, outputSchema, metadata);
  }

  public ToolDefinition withOutputSchema(@Nullable JsonNode outputSchema) {
    return new ToolDefinition(name, description, inputSchema, outputSchema, metadata);
  }

  public ToolDefinition withMetadata(@Nullable ObjectNode metadata) {
    return new ToolDefinition(name, description, inputSchema, outputSchema, metadata);
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
