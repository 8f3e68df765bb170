package dev.baton.mcp.internal.server;

import dev.baton.core.Json;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Baton's JSON schemas as MCP carries them: objects, as maps. */
final class Schemas {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private Schemas() {}

  /** Whether a schema describes JSON objects, which is all MCP accepts for tools' schemas. */
  static boolean isObject(@Nullable JsonNode schema) {
    return schema != null && "object".equals(schema.path("type").asString(""));
  }

  static Map<String, Object> map(JsonNode json) {
    return Json.convert(json, MAP);
  }

  /** {@code {"type": "object"}}, with a property or none. */
  static ObjectNode object() {
    ObjectNode schema = Json.object();
    schema.put("type", "object");
    return schema;
  }
}
