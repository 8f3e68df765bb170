package dev.baton.internal.middleware.compression;

import dev.baton.ai.CustomPart;
import dev.baton.ai.DataPart;
import dev.baton.ai.MediaPart;
import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.ReasoningPart;
import dev.baton.ai.TextPart;
import dev.baton.ai.ToolRequest;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Estimates the size of messages where no model reported one: one token per four characters, a
 * common rule of thumb. Text counts as it is, tool inputs, outputs and data as compact JSON
 * (counted without building it, escapes ignored), and a media part as {@value #MEDIA_CHARS}
 * characters whatever its size, since providers bill images by resolution rather than bytes.
 */
final class TokenEstimator {
  static final int CHARS_PER_TOKEN = 4;
  static final int MEDIA_CHARS = 1000;

  private TokenEstimator() {}

  /** Tokens for a number of characters, rounded up. */
  static long tokens(long chars) {
    return (chars + CHARS_PER_TOKEN - 1) / CHARS_PER_TOKEN;
  }

  /** The characters of a message's content. */
  static long chars(Message message) {
    return chars(message.content());
  }

  static long chars(List<Part> parts) {
    long chars = 0;
    for (Part part : parts) {
      chars += chars(part);
    }
    return chars;
  }

  static long chars(Part part) {
    return switch (part) {
      case TextPart text -> text.text().length();
      case ReasoningPart reasoning -> reasoning.reasoning().length();
      case ToolRequestPart request -> chars(request.toolRequest());
      case ToolResponsePart response -> chars(response.toolResponse());
      case MediaPart media -> MEDIA_CHARS;
      case DataPart data -> jsonChars(data.data());
      case CustomPart custom -> jsonChars(custom.custom());
    };
  }

  /** A tool response's name and text rendering, plus its non-text content. */
  private static long chars(ToolResponse response) {
    long chars = response.name().length() + ToolOutputs.chars(response);
    if (response.content() != null) {
      for (Part part : response.content()) {
        if (!(part instanceof TextPart)) {
          chars += chars(part);
        }
      }
    }
    return chars;
  }

  private static long chars(ToolRequest request) {
    return request.name().length() + jsonChars(request.input());
  }

  /** The length of a value's compact JSON, escapes aside; 0 for an absent value. */
  static long jsonChars(@Nullable JsonNode node) {
    if (node == null || node.isMissingNode()) {
      return 0;
    }
    if (node.isString()) {
      return node.asString().length() + 2L;
    }
    if (node.isNull()) {
      return 4;
    }
    if (node.isArray()) {
      long chars = 1L + Math.max(1, node.size());
      for (JsonNode element : node) {
        chars += jsonChars(element);
      }
      return chars;
    }
    if (node.isObject()) {
      long chars = 1L + Math.max(1, node.size());
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        chars += field.getKey().length() + 3L + jsonChars(field.getValue());
      }
      return chars;
    }
    return node.asString().length();
  }
}
