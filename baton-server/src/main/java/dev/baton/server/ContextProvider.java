package dev.baton.server;

import dev.baton.core.BatonException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Turns a request into the auth context of the run it starts ({@code ActionContext.auth()}), which
 * the agent, its tools and its middleware read, or refuses the request. A handler runs its
 * providers in order, before the action, and merges their maps (a later key wins).
 *
 * <p>To bind the request to a principal, put it under {@link
 * dev.baton.core.ActionContext#PRINCIPAL} as a non-empty, well-formed string (no lone surrogate): a
 * server-managed agent's sessions then belong to the principal that started them, and another
 * principal's IDs answer as unknown ones. Anything else under that key binds no one, so the request
 * is refused as the server's own misconfiguration ({@code INTERNAL}, logged) rather than run
 * unbound or in another principal's sessions. A tenant key that a store's prefix or tenant function
 * reads (say {@code "tenant"}) scopes the store the same way.
 *
 * <p>Implementations must be thread-safe: requests call them concurrently.
 */
@FunctionalInterface
public interface ContextProvider {
  /**
   * The auth context for this request (null for none).
   *
   * @throws BatonException to refuse the request: {@code UNAUTHENTICATED} (HTTP 401) when it
   *     carries no valid credentials, {@code PERMISSION_DENIED} (403) when they do not allow it; a
   *     public message reaches the client, any other is replaced by the status's generic text
   */
  @Nullable Map<String, ?> provide(RequestData request);
}
