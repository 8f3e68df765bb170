package dev.baton.mcp.internal.client;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * A transport that can cancel a request it sent. The classic SDK assigns request IDs itself and
 * sends no {@code notifications/cancelled} when a caller stops waiting, so this decorator notes the
 * ID of every outgoing request that carries a {@code progressToken} in its {@code _meta}, and sends
 * the notification for that token on {@link #cancel}. Thread-safe.
 */
final class CancellingTransport implements McpClientTransport {
  // The SDK has no constant for it: it never sends it.
  private static final String CANCELLED = "notifications/cancelled";

  private final McpClientTransport delegate;
  private final Map<Object, Object> requestIds = new ConcurrentHashMap<>();

  CancellingTransport(McpClientTransport delegate) {
    this.delegate = delegate;
  }

  /** Forgets the request sent with {@code progressToken}, which has been answered. */
  void forget(Object progressToken) {
    requestIds.remove(progressToken);
  }

  /**
   * Tells the server to stop the request sent with {@code progressToken}, if it was sent; the
   * notification is sent without waiting.
   */
  void cancel(Object progressToken, String reason) {
    Object id = requestIds.remove(progressToken);
    if (id == null) {
      return;
    }
    var notification =
        new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION, CANCELLED, Map.of("requestId", id, "reason", reason));
    delegate.sendMessage(notification).onErrorComplete().subscribe();
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request
        && request.params() instanceof McpSchema.Request params) {
      Object token = params.progressToken();
      if (token != null) {
        requestIds.put(token, request.id());
      }
    }
    return delegate.sendMessage(message);
  }

  @Override
  public Mono<Void> connect(
      Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return delegate.connect(handler);
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    delegate.setExceptionHandler(handler);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return delegate.unmarshalFrom(data, type);
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }
}
