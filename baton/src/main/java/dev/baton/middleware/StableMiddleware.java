package dev.baton.middleware;

import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import java.util.List;

/**
 * The stable middleware as a plugin named {@code genkit-middleware}: registers {@code
 * genkit-middleware/retry}, {@code genkit-middleware/fallback} and {@code
 * genkit-middleware/toolApproval} so they can be used by name with JSON config. Using them as
 * objects needs no plugin.
 *
 * <p>Stateless and thread-safe.
 */
public final class StableMiddleware implements Plugin {
  public static final String NAME = "genkit-middleware";

  /** The plugin, to give to {@code Baton.builder().plugin(...)}. */
  public StableMiddleware() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void init(Registry registry) {
    descriptors().forEach(descriptor -> descriptor.register(registry));
  }

  /** The descriptors this plugin registers. */
  public static List<MiddlewareDescriptor> descriptors() {
    return List.of(
        MiddlewareDescriptor.of(
            "Retry failed model calls with exponential backoff and jitter", new Retry()),
        MiddlewareDescriptor.of(
            "Try the next model when a model call fails",
            new Fallback(List.of(), Fallback.DEFAULT_STATUSES)),
        MiddlewareDescriptor.of(
            "Interrupt tool calls outside an allow list for approval",
            new ToolApproval(List.of())));
  }
}
