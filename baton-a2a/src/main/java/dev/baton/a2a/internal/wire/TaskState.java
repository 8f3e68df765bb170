package dev.baton.a2a.internal.wire;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A task's lifecycle states: {@code completed}, {@code canceled}, {@code failed} and {@code
 * rejected} are terminal, {@code input-required} and {@code auth-required} wait for the client.
 */
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
  UNKNOWN
}
