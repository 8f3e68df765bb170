package dev.baton.internal.ai;

import dev.baton.ai.Hooks;
import dev.baton.ai.Middleware;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Registry;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A middleware named by its registered name, with JSON config: resolved against the registry of the
 * generate call that uses it, when that call builds its hooks, so configuration-driven setups need
 * no object of the middleware's own type.
 *
 * @param name the registered name, such as {@code genkit-middleware/retry}
 * @param config the JSON config, read over the descriptor's prototype; null for the prototype
 */
public record NamedMiddleware(String name, @Nullable JsonNode config) implements Middleware {
  public NamedMiddleware {
    config = config == null || config.isNull() ? null : Json.copy(config);
  }

  @Override
  public Hooks newHooks(ActionContext context) {
    return resolve(context.registry(), name, config).newHooks(context);
  }

  /**
   * The middleware registered under {@code name}, built from JSON config.
   *
   * @throws BatonException {@code NOT_FOUND} when nothing is registered under the name
   */
  public static Middleware resolve(Registry registry, String name, @Nullable JsonNode config) {
    Object value =
        registry
            .lookupValue(MiddlewareDescriptor.VALUE_TYPE, name)
            .orElseThrow(
                () ->
                    BatonException.notFound(
                        "middleware \"%s\" is not registered (is the plugin that provides it"
                            + " installed?)",
                        name));
    if (!(value instanceof MiddlewareDescriptor descriptor)) {
      throw BatonException.failedPrecondition(
          "/middleware/%s is not a middleware descriptor", name);
    }
    return descriptor.create(config);
  }
}
