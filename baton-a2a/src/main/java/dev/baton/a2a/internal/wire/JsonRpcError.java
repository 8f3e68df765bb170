package dev.baton.a2a.internal.wire;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A JSON-RPC error: JSON-RPC's own codes (-32700 to -32603) and those of A2A's (-32001 to -32007)
 * that this module sends or reads. The message is always one a remote client may read.
 */
public record JsonRpcError(int code, String message, @Nullable JsonNode data) {
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;
  public static final int TASK_NOT_FOUND = -32001;
  public static final int TASK_NOT_CANCELABLE = -32002;
  public static final int PUSH_NOTIFICATION_NOT_SUPPORTED = -32003;
  public static final int UNSUPPORTED_OPERATION = -32004;
  public static final int CONTENT_TYPE_NOT_SUPPORTED = -32005;
  public static final int AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED = -32007;

  public static JsonRpcError of(int code, String message) {
    return new JsonRpcError(code, message, null);
  }
}
