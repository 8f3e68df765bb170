package dev.baton.mcp.internal.server;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import dev.baton.server.internal.AuthContexts;
import dev.baton.server.internal.Failures;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the context providers before any MCP processing, as {@code BatonHandler} does: a refused
 * request is answered with the refusal's HTTP status (401, 403, ...) and a JSON body {@code
 * {"status", "message"}}, and an admitted one carries its auth context on to the tools it calls.
 */
public final class AuthFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  private final transient List<ContextProvider> providers;
  private final transient Failures failures;

  public AuthFilter(List<ContextProvider> providers, Failures failures) {
    this.providers = List.copyOf(providers);
    this.failures = failures;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Map<String, Object> auth;
    try {
      auth = AuthContexts.of(providers, RequestData.of(request.getMethod(), headers(request)));
    } catch (RuntimeException refusal) {
      BatonException error = failures.classify(refusal);
      response.setStatus(error.status().httpStatus());
      response.setContentType("application/json");
      response.getOutputStream().write(Json.writeBytes(failures.body(error)));
      return;
    }
    request.setAttribute(RequestScope.AUTH, auth);
    chain.doFilter(request, response);
  }

  /** The headers as {@link RequestData} has them: names in lower case, values joined by a space. */
  private static Map<String, String> headers(HttpServletRequest request) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String name : Collections.list(request.getHeaderNames())) {
      for (String value : Collections.list(request.getHeaders(name))) {
        headers.merge(name.toLowerCase(Locale.ROOT), value, (a, b) -> a + " " + b);
      }
    }
    return headers;
  }
}
