package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonProperty;

/** A task's lifecycle states; the last five are terminal, {@code input-required} interrupted. */
public enum TaskState {
  @JsonProperty("submitted")
  SUBMITTED,
  @JsonProperty("working")
  WORKING,
  @JsonProperty("input-required")
  INPUT_REQUIRED,
  @JsonProperty("auth-required")
  AUTH_REQUIRED,
  @JsonProperty("completed")
  COMPLETED,
  @JsonProperty("canceled")
  CANCELED,
  @JsonProperty("failed")
  FAILED,
  @JsonProperty("rejected")
  REJECTED,
  @JsonEnumDefaultValue
  @JsonProperty("unknown")
  UNKNOWN;

  /** Whether the task is over: no message continues it and no cancel stops it. */
  public boolean isTerminal() {
    return switch (this) {
      case COMPLETED, CANCELED, FAILED, REJECTED, UNKNOWN -> true;
      case SUBMITTED, WORKING, INPUT_REQUIRED, AUTH_REQUIRED -> false;
    };
  }
}
