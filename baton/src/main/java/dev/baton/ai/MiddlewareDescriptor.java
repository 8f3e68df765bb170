package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import dev.baton.internal.core.JsonSchemas;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A middleware that can be used by name with JSON config (from the Dev UI, the reflection API or a
 * {@code use} entry of a generate request), registered as the value {@code /middleware/<name>}.
 * Every instance registers the bundled middleware ({@code genkit-middleware/retry}, and with {@code
 * experimental()} {@code genkit-middleware-exp/agents}, ...); {@code Baton.defineMiddleware} adds
 * others. Find one with {@link #lookup} and use it with its config:
 *
 * <pre>{@code
 * MiddlewareDescriptor retry = MiddlewareDescriptor.lookup(baton.registry(), "genkit-middleware/retry");
 * GenerateOptions options = GenerateOptions.builder()
 *     .model("googleai/gemini-flash-latest")
 *     .prompt("Hello")
 *     .use(retry, Map.of("maxRetries", 5))
 *     .build();
 * }</pre>
 *
 * <p>JSON config is read over a prototype: fields the JSON leaves out keep the prototype's values.
 * A field the config type does not have, or a value of the wrong type, is {@code INVALID_ARGUMENT}.
 * Immutable and thread-safe, provided the factory is.
 *
 * @param name the registered name, such as {@code genkit-middleware-exp/agents}
 * @param description what the middleware does
 * @param configSchema the JSON schema of its config
 * @param factory builds a middleware from a complete config tree
 */
public record MiddlewareDescriptor(
    String name,
    String description,
    JsonNode configSchema,
    @JsonIgnore Function<JsonNode, Middleware> factory) {

  /** The registry value type middleware descriptors are kept under. */
  public static final String VALUE_TYPE = "middleware";

  public MiddlewareDescriptor {
    configSchema = Json.copy(configSchema);
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public JsonNode configSchema() {
    return Json.copy(configSchema);
  }

  /**
   * A descriptor for a middleware configured by a record.
   *
   * @param prototype the config that JSON config is read over
   * @param factory makes the middleware from a config
   */
  public static <C> MiddlewareDescriptor of(
      String name,
      String description,
      Class<C> configType,
      C prototype,
      Function<C, ? extends Middleware> factory) {
    JsonNode schema = JsonSchemas.infer(configType);
    ObjectNode base = (ObjectNode) Json.toTree(prototype);
    return new MiddlewareDescriptor(
        name,
        description,
        schema,
        config -> factory.apply(Json.convert(overlay(name, schema, base, config), configType)));
  }

  /**
   * A descriptor for a middleware that is its own config record, as the bundled ones are: it is
   * registered under the prototype's {@link Middleware#name() name}, and JSON config read over
   * {@code prototype} is the middleware.
   */
  public static <M extends Middleware> MiddlewareDescriptor of(String description, M prototype) {
    @SuppressWarnings("unchecked") // getClass() of an M is a Class of M
    Class<M> type = (Class<M>) prototype.getClass();
    return of(prototype.name(), description, type, prototype, config -> config);
  }

  /**
   * The middleware registered under {@code name}.
   *
   * @throws BatonException {@code NOT_FOUND} when nothing is registered under the name; {@code
   *     FAILED_PRECONDITION} when the value registered there is not a middleware descriptor
   */
  public static MiddlewareDescriptor lookup(Registry registry, String name) {
    Object value =
        registry
            .lookupValue(VALUE_TYPE, name)
            .orElseThrow(
                () ->
                    BatonException.notFound(
                        "middleware \"%s\" is not registered (is the plugin that provides it"
                            + " installed?)",
                        name));
    if (!(value instanceof MiddlewareDescriptor descriptor)) {
      throw BatonException.failedPrecondition(
          "/%s/%s is not a middleware descriptor", VALUE_TYPE, name);
    }
    return descriptor;
  }

  /** Registers this descriptor on a registry. */
  public void register(Registry registry) {
    registry.registerValue(VALUE_TYPE, name, this);
  }

  /**
   * Builds the middleware from JSON config (null or absent means the prototype as it is).
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for config that is not an object, names a field
   *     the config type does not have, or gives a field a value of the wrong type
   */
  public Middleware create(@Nullable JsonNode config) {
    return factory.apply(config == null ? Json.nodes().nullNode() : config);
  }

  private static JsonNode overlay(
      String name, JsonNode schema, ObjectNode prototype, JsonNode config) {
    if (config.isNull() || config.isMissingNode()) {
      return prototype;
    }
    if (!config.isObject()) {
      throw BatonException.invalidArgument(
          "config of middleware \"%s\" must be a JSON object, got %s", name, config.getNodeType());
    }
    JsonNode known = schema.path("properties");
    ObjectNode merged = prototype.deepCopy();
    for (var field : config.properties()) {
      if (!known.has(field.getKey())) {
        throw BatonException.invalidArgument(
            "config of middleware \"%s\" has no field \"%s\"", name, field.getKey());
      }
      merged.set(field.getKey(), field.getValue());
    }
    return merged;
  }
}
