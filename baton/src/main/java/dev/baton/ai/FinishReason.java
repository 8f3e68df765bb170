package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonValue;

/** Why a model stopped generating. A value Baton does not know reads as {@link #UNKNOWN}. */
public enum FinishReason {
  /** The model finished its answer, or asked for tools. */
  STOP("stop"),
  /** The output hit the token limit. */
  LENGTH("length"),
  /** A safety filter or a blocked prompt stopped the response. */
  BLOCKED("blocked"),
  /**
   * A tool interrupted the loop and waits for an answer (see {@code
   * GenerateResponse#interrupts()}).
   */
  INTERRUPTED("interrupted"),
  OTHER("other"),
  @JsonEnumDefaultValue
  UNKNOWN("unknown");

  private final String wireName;

  FinishReason(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
