package dev.baton.mcp.internal.client;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
  // How long sending a notification may take: a stuck transport must not hold a subscription.
  private final Duration timeout;
  // Progress token to request ID, for the requests in flight. Both maps are guarded by this.
  private final Map<Object, Object> requestIds = new HashMap<>();
  // Progress token to reason, for requests cancelled before they were sent.
  private final Map<Object, String> cancelledEarly = new HashMap<>();

  CancellingTransport(McpClientTransport delegate, Duration timeout) {
    this.delegate = delegate;
    this.timeout = timeout;
  }

  /** Forgets the request sent with {@code progressToken}, which has been answered or given up. */
  synchronized void forget(Object progressToken) {
    requestIds.remove(progressToken);
    cancelledEarly.remove(progressToken);
  }

  /**
   * Tells the server to stop the request sent with {@code progressToken}; the notification is sent
   * without waiting. A request not sent yet (the caller gave up first) is cancelled as it goes:
   * over stdio right after it, over HTTP once its POST is done (the transport completes the send
   * with the answer's stream), which is late but harmless.
   */
  void cancel(Object progressToken, String reason) {
    Object id;
    synchronized (this) {
      id = requestIds.remove(progressToken);
      if (id == null) {
        cancelledEarly.put(progressToken, reason);
        return;
      }
    }
    notifyCancelled(id, reason);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request
        && request.params() instanceof McpSchema.Request params
        && params.progressToken() != null) {
      Object token = params.progressToken();
      String reason;
      synchronized (this) {
        reason = cancelledEarly.remove(token);
        if (reason == null) {
          requestIds.put(token, request.id());
        }
      }
      if (reason != null) {
        return delegate
            .sendMessage(message)
            .doOnSuccess(unused -> notifyCancelled(request.id(), reason));
      }
    }
    return delegate.sendMessage(message);
  }

  private void notifyCancelled(Object requestId, String reason) {
    var notification =
        new McpSchema.JSONRPCNotification(
            McpSchema.JSONRPC_VERSION, CANCELLED, Map.of("requestId", requestId, "reason", reason));
    delegate.sendMessage(notification).timeout(timeout).onErrorComplete().subscribe();
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
