package dev.baton.server.internal.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a servlet application already knows of a request's caller, as an auth context: the principal
 * its security filters authenticated, say, under {@code ActionContext.PRINCIPAL}. {@link
 * WireServlet} calls it on the container's thread, before the request goes async (where a security
 * framework's thread-bound context is still set), and merges its map first, before the context
 * providers', under the same principal checks.
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface RequestAuth {
  /** No auth context: the context providers alone decide. */
  RequestAuth NONE = request -> null;

  /**
   * The auth context of a request, or null for none.
   *
   * @throws dev.baton.core.BatonException to refuse the request, as a context provider does
   */
  @Nullable Map<String, ?> of(HttpServletRequest request);
}
