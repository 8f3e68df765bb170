package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonValue;

/** Who a message is from. JSON values are lower case ({@code "user"}). */
public enum Role {
  USER("user"),
  MODEL("model"),
  SYSTEM("system"),
  TOOL("tool");

  private final String wireName;

  Role(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
