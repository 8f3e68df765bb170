package dev.baton.mcp.internal.client;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The one place SDK failures become Genkit statuses. A remote caller sees the status and a message
 * naming the client; the SDK's exception stays the cause, for logs, never the message. What a
 * third-party server says is public only when it is about the caller's request ({@code
 * INVALID_ARGUMENT}, {@code NOT_FOUND}), and then cut short; its internal errors are for logs.
 */
public final class McpErrors {
  // The most of a server's error text a caller sees: enough for "no such file", not for a dump.
  private static final int MAX_PUBLIC_TEXT = 200;

  private McpErrors() {}

  /**
   * The Baton error for a failure of a request to the MCP server {@code client}: a JSON-RPC error
   * by its code, an HTTP 401 or 403 as {@code UNAUTHENTICATED} or {@code PERMISSION_DENIED}, a
   * timeout as {@code DEADLINE_EXCEEDED}, anything else (a closed transport, a dead process, a
   * refused connection) as {@code UNAVAILABLE}. A {@code BatonException} is returned as it is.
   */
  public static BatonException toBaton(String client, Throwable error) {
    Throwable e = unwrap(error);
    if (e instanceof BatonException baton) {
      return baton;
    }
    McpError mcp = find(e, McpError.class);
    if (mcp != null && mcp.getJsonRpcError() != null) {
      return answered(client, mcp.getJsonRpcError(), error);
    }
    McpHttpClientTransportAuthorizationException denied =
        find(e, McpHttpClientTransportAuthorizationException.class);
    if (denied != null) {
      boolean forbidden = denied.getResponseInfo().statusCode() == 403;
      return new BatonException(
          forbidden ? Status.PERMISSION_DENIED : Status.UNAUTHENTICATED,
          "MCP server \"%s\" refused the client's credentials (HTTP %d)"
              .formatted(client, denied.getResponseInfo().statusCode()),
          error);
    }
    if (find(e, TimeoutException.class) != null) {
      return new BatonException(
          Status.DEADLINE_EXCEEDED,
          "MCP server \"%s\" did not answer in time".formatted(client),
          error);
    }
    return unavailable(client, null, error);
  }

  /**
   * {@code UNAVAILABLE} naming the client, with {@code detail} (say, the tail of a server's stderr)
   * when there is one.
   */
  public static BatonException unavailable(
      String client, @Nullable String detail, @Nullable Throwable cause) {
    String message = "MCP server \"%s\" is unavailable".formatted(client);
    return new BatonException(
        Status.UNAVAILABLE,
        detail == null || detail.isBlank() ? message : message + ": " + detail,
        cause);
  }

  private static BatonException answered(
      String client, McpSchema.JSONRPCResponse.JSONRPCError rpc, Throwable error) {
    Status status = status(rpc.code());
    String answered = "MCP server \"%s\" answered error %d".formatted(client, rpc.code());
    return switch (status) {
      case INVALID_ARGUMENT, NOT_FOUND ->
          new BatonException(status, answered + ": " + shortened(rpc.message()), error);
      // The server's own failure: its text may hold its internals, so it is for logs only.
      case INTERNAL, UNKNOWN ->
          new BatonException(status, answered + ": " + rpc.message(), null, false, error);
      default -> new BatonException(status, answered, error);
    };
  }

  private static String shortened(@Nullable String text) {
    if (text == null) {
      return "";
    }
    return text.length() <= MAX_PUBLIC_TEXT ? text : text.substring(0, MAX_PUBLIC_TEXT) + "...";
  }

  private static Status status(int code) {
    return switch (code) {
      case McpSchema.ErrorCodes.INVALID_PARAMS, McpSchema.ErrorCodes.INVALID_REQUEST ->
          Status.INVALID_ARGUMENT;
      case McpSchema.ErrorCodes.METHOD_NOT_FOUND -> Status.UNIMPLEMENTED;
      case McpSchema.ErrorCodes.RESOURCE_NOT_FOUND -> Status.NOT_FOUND;
      case McpSchema.ErrorCodes.PARSE_ERROR, McpSchema.ErrorCodes.INTERNAL_ERROR -> Status.INTERNAL;
      default -> Status.UNKNOWN;
    };
  }

  private static Throwable unwrap(Throwable error) {
    Throwable e = error;
    while ((e instanceof CompletionException || e instanceof ExecutionException)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  private static <T extends Throwable> @Nullable T find(Throwable error, Class<T> type) {
    // getCause() answers null, not the exception itself, for one that has no cause.
    for (Throwable e = error; e != null; e = e.getCause()) {
      if (type.isInstance(e)) {
        return type.cast(e);
      }
    }
    return null;
  }
}
