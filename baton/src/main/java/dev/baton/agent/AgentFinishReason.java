package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.baton.ai.FinishReason;
import org.jspecify.annotations.Nullable;

/**
 * Why a turn or an invocation ended: a model's finish reason, passed through, or one of the
 * agent-only reasons {@link #ABORTED}, {@link #DETACHED} and {@link #FAILED}.
 */
public enum AgentFinishReason {
  STOP("stop"),
  LENGTH("length"),
  BLOCKED("blocked"),
  INTERRUPTED("interrupted"),
  OTHER("other"),
  @JsonEnumDefaultValue
  UNKNOWN("unknown"),
  ABORTED("aborted"),
  DETACHED("detached"),
  FAILED("failed");

  private final String wireName;

  AgentFinishReason(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** The agent reason for a model's finish reason (null stays null). */
  public static @Nullable AgentFinishReason of(@Nullable FinishReason reason) {
    if (reason == null) {
      return null;
    }
    return switch (reason) {
      case STOP -> STOP;
      case LENGTH -> LENGTH;
      case BLOCKED -> BLOCKED;
      case INTERRUPTED -> INTERRUPTED;
      case OTHER -> OTHER;
      case UNKNOWN -> UNKNOWN;
    };
  }
}
