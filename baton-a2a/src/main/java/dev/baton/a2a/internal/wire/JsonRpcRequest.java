package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 request: {@code id} is a string, a number or null; {@code params} is read by the
 * method.
 */
public record JsonRpcRequest(
    String jsonrpc, @Nullable JsonNode id, String method, @Nullable JsonNode params) {

  public static final String VERSION = "2.0";

  public static JsonRpcRequest of(JsonNode id, String method, JsonNode params) {
    return new JsonRpcRequest(VERSION, id, method, params);
  }
}
