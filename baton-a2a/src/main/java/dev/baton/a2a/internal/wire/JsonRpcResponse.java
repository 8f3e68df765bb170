package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 response: a result or an error, never both. {@code id} is written even when null
 * (a request whose id could not be read), as JSON-RPC requires.
 */
public record JsonRpcResponse(
    String jsonrpc,
    @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable JsonNode id,
    @Nullable JsonNode result,
    @Nullable JsonRpcError error) {

  public static JsonRpcResponse success(@Nullable JsonNode id, JsonNode result) {
    return new JsonRpcResponse(JsonRpcRequest.VERSION, id, result, null);
  }

  public static JsonRpcResponse failure(@Nullable JsonNode id, JsonRpcError error) {
    return new JsonRpcResponse(JsonRpcRequest.VERSION, id, null, error);
  }
}
