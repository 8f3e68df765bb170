package dev.baton.core;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What an action says about itself: the shape the reflection API lists under {@code /api/actions}.
 *
 * <p>Schemas are JSON Schema draft-07; a null schema means the action publishes none. {@code
 * metadata} carries type-specific facts, such as {@code {"agent": {...}, "bidi": true}} for an
 * agent or {@code {"model": {...}}} for a model. Build one with {@link #builder}. Trees are copied
 * in and out: the record is immutable.
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

  /** A descriptor of the action of this type and name, keyed {@code /<type>/<name>}. */
  public static Builder builder(ActionType type, String name) {
    return new Builder(type, name);
  }

  /** Whether the action takes an init payload alongside its input (agents do). */
  public boolean isBidi() {
    return metadata.path("bidi").asBoolean(false);
  }

  /** Collects a descriptor; unset schemas are published as absent. Not thread-safe. */
  public static final class Builder {
    private final ActionType type;
    private final String name;
    private @Nullable String description;
    private @Nullable JsonNode inputSchema;
    private @Nullable JsonNode outputSchema;
    private @Nullable JsonNode streamSchema;
    private @Nullable JsonNode initSchema;
    private ObjectNode metadata = Json.object();

    private Builder(ActionType type, String name) {
      this.type = type;
      this.name = name;
    }

    public Builder description(@Nullable String description) {
      this.description = description;
      return this;
    }

    public Builder inputSchema(@Nullable JsonNode inputSchema) {
      this.inputSchema = inputSchema;
      return this;
    }

    public Builder outputSchema(@Nullable JsonNode outputSchema) {
      this.outputSchema = outputSchema;
      return this;
    }

    /** The schema of the chunks the action streams; absent for one that does not stream. */
    public Builder streamSchema(@Nullable JsonNode streamSchema) {
      this.streamSchema = streamSchema;
      return this;
    }

    /** The schema of the init payload, for bidirectional actions (agents). */
    public Builder initSchema(@Nullable JsonNode initSchema) {
      this.initSchema = initSchema;
      return this;
    }

    public Builder metadata(ObjectNode metadata) {
      this.metadata = metadata;
      return this;
    }

    public ActionDescriptor build() {
      return new ActionDescriptor(
          type.key(name),
          name,
          type,
          description,
          inputSchema,
          outputSchema,
          streamSchema,
          initSchema,
          metadata);
    }
  }
}
