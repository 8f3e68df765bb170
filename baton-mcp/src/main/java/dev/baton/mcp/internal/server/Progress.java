package dev.baton.mcp.internal.server;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The progress notifications of one call, sent only when the client asked for them with a {@code
 * progressToken}: one per streamed chunk, numbered from 1, with no total (a run's length is not
 * known in advance).
 *
 * <p>Thread-safe.
 */
public final class Progress {
  private final McpSyncServerExchange exchange;
  private final @Nullable Object token;
  private final AtomicInteger count = new AtomicInteger();

  private Progress(McpSyncServerExchange exchange, @Nullable Object token) {
    this.exchange = exchange;
    this.token = token;
  }

  public static Progress of(McpSyncServerExchange exchange, CallToolRequest request) {
    return new Progress(
        exchange, request.meta() == null ? null : request.meta().get("progressToken"));
  }

  /** Reports one more step, with a message (a chunk's text) or none. */
  public void report(@Nullable String message) {
    if (token != null) {
      exchange.progressNotification(
          ProgressNotification.builder(token, count.incrementAndGet())
              .message(message == null || message.isEmpty() ? null : message)
              .build());
    }
  }
}
