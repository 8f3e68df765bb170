package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.MessageSendParams;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import java.util.Base64;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A request's params checked against A2A 0.3's shapes before the server reads them: every field it
 * reads, at any depth, has its type, and a missing required field or an unknown part kind is named
 * by its path ({@code params.message.parts[0].text}) in an {@code INVALID_ARGUMENT} error, which
 * answers -32602. An optional field may be JSON {@code null}, which reads as absent. Nothing of the
 * JSON reader reaches the client.
 *
 * <p>Stateless.
 */
final class Params {
  private Params() {}

  /** The params of {@code message/send} and {@code message/stream}. */
  static MessageSendParams messageSend(@Nullable JsonNode body) {
    JsonNode params = object(body, "params");
    message(params.get("message"), "params.message");
    JsonNode configuration = optional(params, "configuration");
    if (configuration != null) {
      String at = "params.configuration";
      object(configuration, at);
      optionalBoolean(configuration, "blocking", at);
      historyLength(configuration, at);
      optionalStrings(configuration, "acceptedOutputModes", at);
      optionalObject(configuration, "pushNotificationConfig", at);
    }
    optionalObject(params, "metadata", "params");
    return convert(params, MessageSendParams.class);
  }

  /**
   * The task ID of {@code tasks/get}, {@code tasks/cancel} and {@code tasks/resubscribe}, whose
   * params are {@code {"id"}} with an optional {@code historyLength} (get) and {@code metadata}.
   */
  static String taskId(@Nullable JsonNode body) {
    JsonNode params = object(body, "params");
    String id = requireString(params, "id", "params");
    historyLength(params, "params");
    optionalObject(params, "metadata", "params");
    return id;
  }

  /** The {@code historyLength} of {@code tasks/get}, or null for the whole history. */
  static @Nullable Integer historyLength(@Nullable JsonNode body) {
    return historyLength(object(body, "params"), "params");
  }

  private static @Nullable Integer historyLength(JsonNode parent, String at) {
    optionalInteger(parent, "historyLength", at);
    JsonNode value = optional(parent, "historyLength");
    if (value != null && value.intValue() < 0) {
      throw invalid(at + ".historyLength", "must not be negative");
    }
    return value == null ? null : value.intValue();
  }

  private static void message(@Nullable JsonNode node, String at) {
    JsonNode message = object(node, at);
    JsonNode kind = optional(message, "kind");
    if (kind != null && !"message".equals(kind.stringValue(null))) {
      throw invalid(at + ".kind", "must be \"message\"");
    }
    if (!"user".equals(requireString(message, "role", at))) {
      throw invalid(at + ".role", "must be \"user\": the client sends the user's messages");
    }
    requireString(message, "messageId", at);
    JsonNode parts = message.get("parts");
    if (parts == null || !parts.isArray() || parts.isEmpty()) {
      throw invalid(at + ".parts", "must be a non-empty array of parts");
    }
    for (int i = 0; i < parts.size(); i++) {
      part(parts.get(i), at + ".parts[" + i + "]");
    }
    optionalString(message, "taskId", at);
    optionalString(message, "contextId", at);
    optionalStrings(message, "referenceTaskIds", at);
    optionalStrings(message, "extensions", at);
    optionalObject(message, "metadata", at);
  }

  private static void part(JsonNode node, String at) {
    JsonNode part = object(node, at);
    switch (requireString(part, "kind", at)) {
      case "text" -> {
        JsonNode text = part.get("text");
        if (text == null || !text.isString()) {
          throw invalid(at + ".text", "a text part needs a string \"text\"");
        }
      }
      case "file" -> file(part.get("file"), at + ".file");
      case "data" -> object(part.get("data"), at + ".data");
      default -> throw invalid(at + ".kind", "must be \"text\", \"file\" or \"data\"");
    }
    optionalObject(part, "metadata", at);
  }

  private static void file(@Nullable JsonNode node, String at) {
    JsonNode file = object(node, at);
    String encoded = optionalString(file, "bytes", at);
    boolean bytes = encoded != null;
    if (encoded != null && !isBase64(encoded)) {
      throw invalid(at + ".bytes", "must be base64");
    }
    boolean uri = optionalString(file, "uri", at) != null;
    if (bytes == uri) {
      throw invalid(at, "a file needs exactly one of \"bytes\" (base64) and \"uri\"");
    }
    optionalString(file, "name", at);
    optionalString(file, "mimeType", at);
  }

  private static boolean isBase64(String text) {
    try {
      Base64.getDecoder().decode(text);
      return true;
    } catch (IllegalArgumentException notBase64) {
      return false;
    }
  }

  private static JsonNode object(@Nullable JsonNode node, String at) {
    if (node == null || !node.isObject()) {
      throw invalid(at, "must be an object");
    }
    return node;
  }

  private static String requireString(JsonNode parent, String field, String at) {
    JsonNode value = parent.get(field);
    if (value == null || !value.isString() || value.stringValue().isEmpty()) {
      throw invalid(at + "." + field, "must be a non-empty string");
    }
    return value.stringValue();
  }

  /** A field's value, or null when it is absent or JSON null. */
  private static @Nullable JsonNode optional(JsonNode parent, String field) {
    JsonNode value = parent.get(field);
    return value == null || value.isNull() ? null : value;
  }

  private static @Nullable String optionalString(JsonNode parent, String field, String at) {
    JsonNode value = optional(parent, field);
    if (value != null && !value.isString()) {
      throw invalid(at + "." + field, "must be a string");
    }
    return value == null ? null : value.stringValue();
  }

  private static void optionalStrings(JsonNode parent, String field, String at) {
    JsonNode value = optional(parent, field);
    if (value == null) {
      return;
    }
    if (!value.isArray()) {
      throw invalid(at + "." + field, "must be an array of strings");
    }
    for (JsonNode item : value) {
      if (!item.isString()) {
        throw invalid(at + "." + field, "must be an array of strings");
      }
    }
  }

  private static void optionalObject(JsonNode parent, String field, String at) {
    JsonNode value = optional(parent, field);
    if (value != null && !value.isObject()) {
      throw invalid(at + "." + field, "must be an object");
    }
  }

  private static void optionalBoolean(JsonNode parent, String field, String at) {
    JsonNode value = optional(parent, field);
    if (value != null && !value.isBoolean()) {
      throw invalid(at + "." + field, "must be true or false");
    }
  }

  private static void optionalInteger(JsonNode parent, String field, String at) {
    JsonNode value = optional(parent, field);
    if (value != null && !(value.isIntegralNumber() && value.canConvertToInt())) {
      throw invalid(at + "." + field, "must be an integer");
    }
  }

  /** Reads checked params; a shape the checks let through and the reader refuses stays generic. */
  private static <T> T convert(JsonNode params, Class<T> type) {
    try {
      return Json.convert(params, type);
    } catch (RuntimeException unreadable) {
      throw BatonException.invalidArgument("params are not of the expected shape");
    }
  }

  private static BatonException invalid(String at, String problem) {
    return BatonException.invalidArgument("%s: %s", at, problem);
  }
}
