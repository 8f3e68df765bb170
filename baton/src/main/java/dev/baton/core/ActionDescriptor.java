package dev.baton.core;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an action says about itself: the shape the reflection API lists under {@code /api/actions}.
 *
 * <p>Schemas are JSON Schema draft-07; a null schema means the action publishes none. {@code
 * metadata} carries type-specific facts, such as {@code {"agent": {...}, "bidi": true}} for an
 * agent or {@code {"model": {...}}} for a model. Trees are copied on construction; treat the
 * accessors' results as read-only.
 */
public record ActionDescriptor(
    String key,
    String name,
    ActionType type,
    @Nullable String description,
    @Nullable JsonNode inputSchema,
    @Nullable JsonNode outputSchema,
    @Nullable JsonNode streamSchema,
    @Nullable JsonNode initSchema,
    ObjectNode metadata) {

  public ActionDescriptor {
    inputSchema = inputSchema == null ? null : Json.copy(inputSchema);
    outputSchema = outputSchema == null ? null : Json.copy(outputSchema);
    streamSchema = streamSchema == null ? null : Json.copy(streamSchema);
    initSchema = initSchema == null ? null : Json.copy(initSchema);
    metadata = metadata.deepCopy();
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode inputSchema() {
    return inputSchema == null ? null : Json.copy(inputSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode outputSchema() {
    return outputSchema == null ? null : Json.copy(outputSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode streamSchema() {
    return streamSchema == null ? null : Json.copy(streamSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode initSchema() {
    return initSchema == null ? null : Json.copy(initSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public ObjectNode metadata() {
    return metadata.deepCopy();
  }

  /** Whether the action takes an init payload alongside its input (agents do). */
  public boolean isBidi() {
    return metadata.path("bidi").asBoolean(false);
  }
}
