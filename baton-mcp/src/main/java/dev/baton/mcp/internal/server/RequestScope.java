package dev.baton.mcp.internal.server;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import jakarta.servlet.http.HttpServletRequest;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What an HTTP request carries from the servlet filters to the tool it calls, through the SDK's
 * transport context: the auth context its providers returned, and the call's {@link CallKey}. A
 * stdio call carries neither: its auth context is empty.
 */
public final class RequestScope {
  static final String AUTH = "dev.baton.mcp.auth";
  static final String CALL = "dev.baton.mcp.call";

  private RequestScope() {}

  /** The SDK's context extractor: the attributes the filters set on the servlet request. */
  public static McpTransportContext extract(HttpServletRequest request) {
    Map<String, Object> values = new HashMap<>();
    Object auth = request.getAttribute(AUTH);
    if (auth != null) {
      values.put(AUTH, auth);
    }
    Object call = request.getAttribute(CALL);
    if (call != null) {
      values.put(CALL, call);
    }
    return McpTransportContext.create(values);
  }

  /** The request's auth context, empty when it has none. */
  @SuppressWarnings("unchecked") // only the auth filter sets it, to a Map<String, Object>
  public static Map<String, Object> auth(McpSyncServerExchange exchange) {
    McpTransportContext context = exchange.transportContext();
    return context != null && context.get(AUTH) instanceof Map<?, ?> auth
        ? (Map<String, Object>) auth
        : Map.of();
  }

  /** The call's key, when a client can cancel it. */
  public static @Nullable CallKey call(McpSyncServerExchange exchange) {
    McpTransportContext context = exchange.transportContext();
    return context != null && context.get(CALL) instanceof CallKey key ? key : null;
  }
}
