package dev.baton.server.internal;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.core.Utf16;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The auth context of a request: what its context providers return, merged (a later key wins), or
 * the refusal one of them throws. Shared by every transport that takes {@link ContextProvider}s, so
 * that a principal binds the same way whichever one a request comes through.
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
    if (providers.isEmpty()) {
      return Map.of();
    }
    Map<String, Object> auth = new HashMap<>();
    for (ContextProvider provider : providers) {
      Map<String, ?> provided = provider.provide(request);
      if (provided != null) {
        provided.forEach(
            (key, value) -> {
              if (key != null && value != null) {
                auth.put(key, value);
              }
            });
      }
    }
    Object principal = auth.get(ActionContext.PRINCIPAL);
    if (principal != null
        && !(principal instanceof String name && !name.isEmpty() && Utf16.isWellFormed(name))) {
      // Such a principal binds nothing, and the request would run in the namespace of calls
      // without one, or, with a lone surrogate, in that of the name with "?" in its place: refuse
      // it, before anything runs, rather than fail open.
      throw BatonException.internal(
          "the server is misconfigured: a context provider put "
              + (principal instanceof String name
                  ? name.isEmpty() ? "an empty string" : "a string with a lone surrogate"
                  : "a " + principal.getClass().getName())
              + " under \""
              + ActionContext.PRINCIPAL
              + "\", where only a non-empty, well-formed string binds a principal",
          null);
    }
    return auth;
  }
}
