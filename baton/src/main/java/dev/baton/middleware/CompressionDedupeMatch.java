package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How {@link CompressionDedupe} tells that two tool responses are duplicates. */
public enum CompressionDedupeMatch {
  /**
   * Responses from calls to the same tool with the same input, the input being read from the tool
   * request each response answers. Inputs compare as JSON values, so key order does not matter. The
   * default.
   */
  NAME_AND_INPUT("name-and-input"),
  /**
   * Every response from the same tool, whatever its input, so only the newest survives. Use it only
   * for tools that return the latest overall state.
   */
  NAME_ONLY("name-only");

  private final String wireName;

  CompressionDedupeMatch(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /**
   * Reads a wire name.
   *
   * @throws IllegalArgumentException for anything but {@code name-and-input} and {@code name-only}
   *     (JSON config reports it as {@code INVALID_ARGUMENT})
   */
  @JsonCreator
  public static CompressionDedupeMatch fromWireName(String wireName) {
    for (CompressionDedupeMatch match : values()) {
      if (match.wireName.equals(wireName)) {
        return match;
      }
    }
    throw new IllegalArgumentException(
        "matchBy must be \"name-and-input\" or \"name-only\", got \"" + wireName + "\"");
  }
}
