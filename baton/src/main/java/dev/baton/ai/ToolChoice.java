package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonValue;

/** Whether the model may, must or must not call tools. */
public enum ToolChoice {
  AUTO("auto"),
  REQUIRED("required"),
  NONE("none");

  private final String wireName;

  ToolChoice(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
