package dev.baton.mcp.internal.server;

/**
 * A tool call as a client's {@code notifications/cancelled} names it: the MCP session it was made
 * in and its JSON-RPC request ID (as text, since a client may send it as a number or a string).
 */
public record CallKey(String sessionId, String requestId) {
  public static CallKey of(String sessionId, Object requestId) {
    return new CallKey(sessionId, String.valueOf(requestId));
  }
}
