package dev.baton.spring.autoconfigure.internal;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The requests to Baton's servlet that Spring Security's CSRF protection leaves to Baton: those a
 * page of another site cannot make a browser send with the user's cookies or cached credentials.
 *
 * <ul>
 *   <li><b>The console's API</b> ({@code <base-path><console-path>/api/...}): the console checks
 *       every write itself, as a CSRF token does. Its abort needs the console's own token in a
 *       custom header (or a bearer credential, which a browser never adds by itself), and an {@code
 *       Origin} and {@code Sec-Fetch-Site} naming its own origin when the browser sends them; its
 *       reads are {@code GET}s, which CSRF protection never checks.
 *   <li><b>The agent and flow routes</b> ({@code <base-path>/agents/...}, {@code
 *       <base-path>/flows/...}) when the body is declared JSON and the browser, when it says where
 *       the request comes from ({@code Sec-Fetch-Site}), says the same origin. A cross-site form
 *       can send only form or text bodies, and a cross-site script can send a JSON body only after
 *       a CORS preflight the application grants: so such a request is one the application's own
 *       pages, a Genkit client or another server sent. Any other request to these routes keeps
 *       Spring's check.
 * </ul>
 *
 * The paths are the servlet's path and path info, which the container has decoded and normalised,
 * so that an encoded or dotted path does not pass for one of Baton's. Immutable; thread-safe.
 */
public final class CsrfExemption implements RequestMatcher {
  private final String basePath;
  private final @Nullable String consoleApi;

  /**
   * @param basePath {@code baton.server.base-path}, checked by {@link ServletPaths#mapping}
   * @param consolePath {@code baton.console.path} when the console is served, else null
   */
  public CsrfExemption(String basePath, @Nullable String consolePath) {
    String mapping = ServletPaths.mapping(basePath);
    this.basePath = mapping.substring(0, mapping.length() - "/*".length());
    this.consoleApi = consolePath == null ? null : consolePath + "/api/";
  }

  @Override
  public boolean matches(HttpServletRequest request) {
    String path = request.getPathInfo();
    if (path == null || !basePath.equals(request.getServletPath())) {
      return false;
    }
    if (consoleApi != null && path.startsWith(consoleApi)) {
      return true;
    }
    return (path.startsWith("/agents/") || path.startsWith("/flows/"))
        && isJson(request.getContentType())
        && isSameOrigin(request.getHeader("Sec-Fetch-Site"));
  }

  private static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    try {
      return MediaType.APPLICATION_JSON.equalsTypeAndSubtype(MediaType.parseMediaType(contentType));
    } catch (InvalidMediaTypeException malformed) {
      return false;
    }
  }

  /** Absent from clients other than browsers; {@code none} when the user typed the request. */
  private static boolean isSameOrigin(@Nullable String site) {
    return site == null || site.equalsIgnoreCase("same-origin") || site.equalsIgnoreCase("none");
  }
}
