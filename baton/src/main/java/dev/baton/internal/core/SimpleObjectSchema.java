package dev.baton.internal.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A fast check for the simplest object schemas: {@code "type": "object"} with {@code properties}
 * whose schemas are a {@code string}, {@code boolean} or {@code integer} type, optional {@code
 * required} and {@code additionalProperties: true|false}, and nothing else that constrains (titles
 * and descriptions are allowed). The delegation and task tools' inputs are such schemas, and a
 * fan-out validates thousands of them in one model response.
 *
 * <p>It only ever says yes: {@link #accepts} is true for a value the full validator would accept,
 * and false for everything else, including values the full validator might accept that this check
 * does not try to judge. So {@link SchemaValidator} answers a value this check accepts at once, and
 * hands every other value, with the error texts it needs, to the full validator: verdicts and texts
 * are the full validator's in every case.
 *
 * <p>Immutable and thread-safe.
 */
final class SimpleObjectSchema {
  private static final Set<String> ANNOTATIONS = Set.of("description", "title");
  private static final Set<String> SIMPLE_TYPES = Set.of("string", "boolean", "integer");

  private final Map<String, String> types;
  private final List<String> required;
  private final boolean closed;

  private SimpleObjectSchema(Map<String, String> types, List<String> required, boolean closed) {
    this.types = types;
    this.required = required;
    this.closed = closed;
  }

  /** The fast check of {@code schema}, or null when the schema is not of the simple kind. */
  static @Nullable SimpleObjectSchema of(JsonNode schema) {
    if (!schema.isObject() || !"object".equals(textOf(schema.get("type")))) {
      return null;
    }
    Map<String, String> types = new HashMap<>();
    List<String> required = List.of();
    boolean closed = false;
    for (Map.Entry<String, JsonNode> keyword : schema.properties()) {
      JsonNode value = keyword.getValue();
      switch (keyword.getKey()) {
        case "type" -> {}
        case "$schema" -> {
          // Another dialect could read the same keywords differently.
          if (!JsonSchemas.DRAFT_07.equals(textOf(value))) {
            return null;
          }
        }
        case "properties" -> {
          if (!value.isObject()) {
            return null;
          }
          for (Map.Entry<String, JsonNode> property : value.properties()) {
            String type = simpleType(property.getValue());
            if (type == null) {
              return null;
            }
            types.put(property.getKey(), type);
          }
        }
        case "required" -> {
          required = names(value);
          if (required == null) {
            return null;
          }
        }
        case "additionalProperties" -> {
          if (!value.isBoolean()) {
            return null;
          }
          closed = !value.booleanValue();
        }
        default -> {
          if (!ANNOTATIONS.contains(keyword.getKey())) {
            return null;
          }
        }
      }
    }
    return new SimpleObjectSchema(Map.copyOf(types), required, closed);
  }

  /** Whether {@code value} certainly matches the schema; false says nothing either way. */
  boolean accepts(JsonNode value) {
    if (!value.isObject()) {
      return false;
    }
    for (String name : required) {
      if (!value.has(name)) {
        return false;
      }
    }
    for (Map.Entry<String, JsonNode> field : value.properties()) {
      String type = types.get(field.getKey());
      if (type == null ? closed : !hasType(field.getValue(), type)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasType(JsonNode value, String type) {
    return switch (type) {
      case "string" -> value.isString();
      case "boolean" -> value.isBoolean();
      // Integral nodes only: whether 1.0 is an integer is the full validator's call.
      case "integer" -> value.isIntegralNumber();
      default -> false;
    };
  }

  /** The type of a property schema of the simple kind, or null. */
  private static @Nullable String simpleType(JsonNode property) {
    if (!property.isObject()) {
      return null;
    }
    String type = null;
    for (Map.Entry<String, JsonNode> keyword : property.properties()) {
      if (keyword.getKey().equals("type")) {
        type = textOf(keyword.getValue());
      } else if (!ANNOTATIONS.contains(keyword.getKey())) {
        return null;
      }
    }
    return type != null && SIMPLE_TYPES.contains(type) ? type : null;
  }

  private static @Nullable List<String> names(JsonNode required) {
    if (!required.isArray()) {
      return null;
    }
    List<String> names = new ArrayList<>(required.size());
    for (JsonNode element : required) {
      String name = textOf(element);
      if (name == null) {
        return null;
      }
      names.add(name);
    }
    return List.copyOf(names);
  }

  private static @Nullable String textOf(@Nullable JsonNode node) {
    return node != null && node.isString() ? node.stringValue() : null;
  }
}
