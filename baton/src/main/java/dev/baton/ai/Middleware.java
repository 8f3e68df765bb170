package dev.baton.ai;

import dev.baton.core.ActionContext;

/**
 * Behaviour wrapped around a generate call: extra tools, and interceptors around each tool-loop
 * iteration, each model call and each tool call.
 *
 * <p>A middleware is a configuration value. {@link #newHooks} runs once per generate call, so
 * per-call state (counters, caches) belongs in the returned hooks, not in the middleware. In a
 * {@code use(...)} list the first middleware is the outermost, for every hook kind.
 *
 * <pre>{@code
 * Middleware logging = Middleware.of("logging", ctx -> Hooks.builder()
 *     .wrapModel((c, params, next) -> {
 *       log.info("calling the model with {} messages", params.request().messages().size());
 *       return next.apply(c, params);
 *     })
 *     .build());
 * }</pre>
 *
 * <p>One middleware object serves concurrent generate calls, so {@code newHooks} must be
 * thread-safe. The hooks it returns belong to one call, within which {@code wrapTool} may run
 * concurrently.
 */
public interface Middleware {
  /** A stable name, unique within one generate call's middleware. */
  String name();

  /**
   * Builds fresh hooks for one generate call. A failure fails the call with {@code
   * INVALID_ARGUMENT} (or the status of a {@code BatonException} thrown here).
   */
  Hooks newHooks(ActionContext context);

  /** An inline middleware from a name and a hook factory. */
  static Middleware of(String name, java.util.function.Function<ActionContext, Hooks> factory) {
    return new Middleware() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Hooks newHooks(ActionContext context) {
        return factory.apply(context);
      }

      @Override
      public String toString() {
        return "Middleware[" + name + "]";
      }
    };
  }
}
