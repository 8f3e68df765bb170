package dev.baton.devtools;

import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.Action;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What {@code GET /api/actions} and {@code GET /api/values} answer: the registry's actions and
 * values as Genkit's tools read them.
 *
 * <p>Each action is {@code {key, name, description?, inputSchema?, outputSchema?, streamSchema?,
 * initSchema?, metadata}}, keyed by its registry key: models, tools, flows, prompts, agents (whose
 * {@code metadata} carries {@code agent} and {@code bidi}) and their companions. Middleware usable
 * by name are values in Baton, not actions; they are listed too, under {@code /middleware/<name>},
 * with their config schema as the input schema and their descriptor as {@code metadata.middleware},
 * so the Dev UI shows what a generate request may {@code use}.
 *
 * <p>Stateless and thread-safe.
 */
final class ActionCatalog {
  private static final Logger log = LoggerFactory.getLogger(ActionCatalog.class);

  private ActionCatalog() {}

  static ObjectNode actions(Registry registry) {
    ObjectNode out = Json.object();
    for (Action<?, ?, ?> action : registry.actions()) {
      ActionDescriptor d;
      try {
        d = action.descriptor();
      } catch (RuntimeException e) {
        listWithoutDescriptor(out, action, e);
        continue;
      }
      ObjectNode entry = out.putObject(d.key());
      entry.put("key", d.key());
      entry.put("name", d.name());
      if (d.description() != null) {
        entry.put("description", d.description());
      }
      putSchema(entry, "inputSchema", d.inputSchema());
      putSchema(entry, "outputSchema", d.outputSchema());
      putSchema(entry, "streamSchema", d.streamSchema());
      putSchema(entry, "initSchema", d.initSchema());
      entry.set("metadata", d.metadata());
    }
    for (Map.Entry<String, JsonNode> middleware : middleware(registry).entrySet()) {
      String key = "/" + MiddlewareDescriptor.VALUE_TYPE + "/" + middleware.getKey();
      JsonNode descriptor = middleware.getValue();
      ObjectNode entry = out.putObject(key);
      entry.put("key", key);
      entry.put("name", middleware.getKey());
      if (descriptor.path("description").isString()) {
        entry.set("description", descriptor.get("description"));
      }
      putSchema(entry, "inputSchema", descriptor.get("configSchema"));
      entry.putObject("metadata").set("middleware", descriptor);
    }
    return out;
  }

  /**
   * An action whose descriptor cannot be built (a schema that fails to infer, a custom action's
   * descriptor that throws) must not hide the others from the Dev UI: it is listed with what is
   * known without its descriptor, its key and name, and the failure is logged. Baton's actions
   * answer {@link Action#type} and {@link Action#name} without their descriptor; one that answers
   * them from it (the interface's defaults) has neither, so it is left out, and logged.
   */
  private static void listWithoutDescriptor(
      ObjectNode out, Action<?, ?, ?> action, RuntimeException failure) {
    String key;
    String name;
    try {
      name = action.name();
      key = action.type().key(name);
    } catch (RuntimeException e) {
      e.addSuppressed(failure);
      log.warn("action {} is not listed: its descriptor, and so its name, failed", action, e);
      return;
    }
    log.warn("action {} is listed without its schemas: its descriptor failed", key, failure);
    ObjectNode entry = out.putObject(key);
    entry.put("key", key);
    entry.put("name", name);
    entry.putObject("metadata");
  }

  /**
   * The values of a type, by name, as JSON: {@code middleware} gives each middleware's {@code
   * {name, description, configSchema}}; Baton has no default model, so {@code defaultModel} is
   * empty. A value that cannot be written as JSON is left out (and logged).
   */
  static ObjectNode values(Registry registry, String type) {
    ObjectNode out = Json.object();
    new TreeMap<>(registry.values(type))
        .forEach(
            (name, value) -> {
              JsonNode json = toJson(type, name, value);
              if (json != null) {
                out.set(name, json);
              }
            });
    return out;
  }

  private static Map<String, JsonNode> middleware(Registry registry) {
    Map<String, JsonNode> out = new TreeMap<>();
    values(registry, MiddlewareDescriptor.VALUE_TYPE)
        .properties()
        .forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  private static @Nullable JsonNode toJson(String type, String name, Object value) {
    try {
      return Json.toTree(value);
    } catch (RuntimeException e) {
      log.debug("value /{}/{} is not JSON; left out of the reflection API", type, name, e);
      return null;
    }
  }

  private static void putSchema(ObjectNode entry, String field, @Nullable JsonNode schema) {
    if (schema != null && !schema.isNull() && !schema.isMissingNode()) {
      entry.set(field, schema);
    }
  }
}
