package dev.baton.mcp.internal.server;

import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Registry;
import dev.baton.server.internal.protocol.Failures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What every served tool and prompt shares: the registry, the calls in flight, and the rules for
 * what of a failure reaches a client (baton-server's: a public message, or its status's generic
 * text; never a stack trace).
 *
 * <p>Thread-safe.
 */
public record Serving(Registry registry, ToolCalls calls, Failures failures) {

  /** What a served tool does with one call, in the context {@link #call} gives it. */
  @FunctionalInterface
  public interface ToolCall {
    CallToolResult run(ActionContext context, CallToolRequest request, Progress progress);
  }

  /**
   * {@code tool} served by {@code call}: each call runs through {@link #call}, with a progress
   * reporter for the request's progress token.
   */
  public SyncToolSpecification tool(Tool tool, ToolCall call) {
    return SyncToolSpecification.builder()
        .tool(tool)
        .callHandler(
            (exchange, request) ->
                call(
                    exchange,
                    context -> call.run(context, request, Progress.of(exchange, request))))
        .build();
  }

  /**
   * Runs a tool call in a root context that carries the request's auth context and a cancellation
   * that the client's cancellation and the server's close fire. A failure becomes an {@code
   * isError} result with the message a client may see.
   */
  public CallToolResult call(
      McpSyncServerExchange exchange, Function<ActionContext, CallToolResult> call) {
    try {
      return calls.run(
          exchange.sessionId(),
          RequestScope.call(exchange),
          cancellation -> call.apply(context(exchange).withCancellation(cancellation)));
    } catch (RuntimeException failure) {
      return error(failures.classify(failure), null);
    }
  }

  /** A root context with the request's auth context. */
  public ActionContext context(McpSyncServerExchange exchange) {
    return ActionContext.root(registry).withAuth(RequestScope.auth(exchange));
  }

  /** The error's message as a client may see it, in an {@code isError} result. */
  public CallToolResult error(BatonException error, @Nullable Map<String, Object> meta) {
    return CallToolResult.builder()
        .addContent(TextContent.builder(failures.wire(error).message()).build())
        .isError(true)
        .meta(meta)
        .build();
  }
}
