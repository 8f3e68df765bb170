package dev.baton.internal.ai;

import dev.baton.core.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Helpers for the {@code metadata} objects on messages and parts. Every method returns a new object
 * and leaves its argument as it was, because messages are immutable and shared.
 */
public final class Metadata {
  private Metadata() {}

  /** A copy of {@code metadata} (or a new object) with {@code key} set to {@code value}. */
  public static ObjectNode with(@Nullable ObjectNode metadata, String key, JsonNode value) {
    ObjectNode copy = metadata == null ? Json.object() : metadata.deepCopy();
    copy.set(key, Json.copy(value));
    return copy;
  }

  /** A copy of {@code metadata} with {@code key} set to {@code true}. */
  public static ObjectNode withFlag(@Nullable ObjectNode metadata, String key) {
    return with(metadata, key, Json.nodes().booleanNode(true));
  }

  /** A copy without {@code key}, or null when nothing is left. */
  public static @Nullable ObjectNode without(@Nullable ObjectNode metadata, String key) {
    if (metadata == null || !metadata.has(key)) {
      return metadata;
    }
    ObjectNode copy = metadata.deepCopy();
    copy.remove(key);
    return copy.isEmpty() ? null : copy;
  }

  /** Whether {@code metadata.key} is the JSON value {@code true}. */
  public static boolean isTrue(@Nullable ObjectNode metadata, String key) {
    return metadata != null && metadata.path(key).isBoolean() && metadata.path(key).asBoolean();
  }

  /** Whether {@code metadata} has a non-null {@code key}. */
  public static boolean has(@Nullable ObjectNode metadata, String key) {
    return metadata != null && metadata.hasNonNull(key);
  }

  public static @Nullable ObjectNode copyOf(@Nullable ObjectNode metadata) {
    return metadata == null ? null : metadata.deepCopy();
  }
}
