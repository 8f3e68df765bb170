package dev.baton.server.internal.protocol;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.internal.core.Utf16;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The auth context of a request: what its context providers return, merged (a later key wins, but
 * never over a principal the server binding bound), or the refusal one of them throws. Shared by
 * every transport that takes {@link ContextProvider}s, so that a principal binds the same way
 * whichever one a request comes through.
 *
 * <p>Stateless and thread-safe.
 */
public final class AuthContexts {
  private AuthContexts() {}

  /**
   * Adds a request header as {@link RequestData} has them: its name in lower case, and the values
   * of a repeated one joined by a space.
   */
  public static void addHeader(Map<String, String> headers, String name, String value) {
    headers.merge(name.toLowerCase(Locale.ROOT), value, (a, b) -> a + " " + b);
  }

  /**
   * The merged auth context of {@code providers} for {@code request}.
   *
   * @throws BatonException the refusal of a provider, or {@code INTERNAL} when a provider put
   *     something other than a non-empty, well-formed string under the principal key
   */
  public static Map<String, Object> of(List<ContextProvider> providers, RequestData request) {
    return of(null, providers, request);
  }

  /**
   * The merged auth context of what the server binding took from its own server ({@code bound}: the
   * principal a servlet container authenticated, say) and of {@code providers}, in that order,
   * under the same checks. A principal the binding bound is the request's: a provider may add
   * entries, and may repeat that principal, but a provider that names another principal refuses the
   * request with {@code PERMISSION_DENIED}, since its credentials and the server's name two
   * different callers.
   *
   * @throws BatonException as {@link #of(List, RequestData)}, and {@code PERMISSION_DENIED} when a
   *     provider names a principal other than the bound one
   */
  public static Map<String, Object> of(
      @Nullable Map<String, ?> bound, List<ContextProvider> providers, RequestData request) {
    if (providers.isEmpty() && (bound == null || bound.isEmpty())) {
      return Map.of();
    }
    Map<String, Object> auth = new HashMap<>();
    merge(auth, bound);
    Object boundPrincipal = auth.get(ActionContext.PRINCIPAL);
    check(boundPrincipal, "the server's own authentication");
    for (ContextProvider provider : providers) {
      merge(auth, provider.provide(request));
      if (boundPrincipal != null && !boundPrincipal.equals(auth.get(ActionContext.PRINCIPAL))) {
        throw BatonException.of(
            Status.PERMISSION_DENIED,
            "the request's credentials name a caller other than the one the server authenticated");
      }
    }
    check(auth.get(ActionContext.PRINCIPAL), "a context provider");
    return auth;
  }

  /**
   * Refuses a principal that binds nothing: such a principal would run the request in the namespace
   * of calls without one, or, with a lone surrogate, in that of the name with "?" in its place, so
   * it is refused before anything runs rather than failing open.
   */
  private static void check(@Nullable Object principal, String source) {
    if (principal != null
        && !(principal instanceof String name && !name.isEmpty() && Utf16.isWellFormed(name))) {
      throw BatonException.internal(
          "the server is misconfigured: "
              + source
              + " put "
              + (principal instanceof String name
                  ? name.isEmpty() ? "an empty string" : "a string with a lone surrogate"
                  : "a " + principal.getClass().getName())
              + " under \""
              + ActionContext.PRINCIPAL
              + "\", where only a non-empty, well-formed string binds a principal",
          null);
    }
  }

  /** Adds a provided map's entries, a later key winning; null keys and values are left out. */
  private static void merge(Map<String, Object> auth, @Nullable Map<String, ?> provided) {
    if (provided != null) {
      provided.forEach(
          (key, value) -> {
            if (key != null && value != null) {
              auth.put(key, value);
            }
          });
    }
  }
}
