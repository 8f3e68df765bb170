package dev.baton.mcp.internal.server;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.server.ContextProvider;
import dev.baton.server.RequestData;
import dev.baton.server.internal.protocol.AuthContexts;
import dev.baton.server.internal.protocol.Failures;
import io.modelcontextprotocol.spec.HttpHeaders;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs the context providers before any MCP processing, as {@code BatonHandler} does: a refused
 * request is answered with the refusal's HTTP status (401, 403, ...) and a JSON body {@code
 * {"status", "message"}}, and an admitted one carries its auth context on to the tools it calls.
 *
 * <p>With providers, an MCP session belongs to the principal (or the absence of one) that opened
 * it: a request in another's session is answered 404, as an unknown session is, so that no one can
 * call, cancel or listen in another principal's session by its ID.
 */
public final class AuthFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  private final transient List<ContextProvider> providers;
  private final transient Failures failures;
  // The principal of each open session: empty for a session opened without one.
  private final transient Map<String, Optional<String>> owners = new ConcurrentHashMap<>();

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
      refuse(response, failures.classify(refusal));
      return;
    }
    request.setAttribute(RequestScope.AUTH, auth);
    if (providers.isEmpty()) {
      chain.doFilter(request, response);
      return;
    }
    Optional<String> principal =
        Optional.ofNullable((String) auth.get(ActionContext.PRINCIPAL)); // a String, if any
    String session = request.getHeader(HttpHeaders.MCP_SESSION_ID);
    if (session != null) {
      Optional<String> owner = owners.get(session);
      if (owner != null && !owner.equals(principal)) {
        refuse(response, BatonException.notFound("no such MCP session"));
        return;
      }
      chain.doFilter(request, response);
      if ("DELETE".equals(request.getMethod()) && response.getStatus() < 300) {
        owners.remove(session);
      }
      return;
    }
    chain.doFilter(request, response);
    // Only initialize opens a session, and its answer names it. Until it is recorded, only the
    // opener, who alone has read the ID, can use it.
    String opened = response.getHeader(HttpHeaders.MCP_SESSION_ID);
    if (opened != null) {
      owners.put(opened, principal);
    }
  }

  private void refuse(HttpServletResponse response, BatonException error) throws IOException {
    response.setStatus(error.status().httpStatus());
    response.setContentType("application/json");
    response.getOutputStream().write(Json.writeBytes(failures.body(error)));
  }

  /** The headers as {@link RequestData} has them: names in lower case, values joined by a space. */
  private static Map<String, String> headers(HttpServletRequest request) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (String name : Collections.list(request.getHeaderNames())) {
      for (String value : Collections.list(request.getHeaders(name))) {
        AuthContexts.addHeader(headers, name, value);
      }
    }
    return headers;
  }
}
