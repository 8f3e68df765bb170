package dev.baton.agent;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.jspecify.annotations.Nullable;

/**
 * The state of a persisted snapshot. An empty or absent status means {@link #COMPLETED}, in storage
 * and on the wire. {@link #EXPIRED} is never stored: reads compute it for a pending row whose
 * worker stopped heartbeating.
 */
public enum SnapshotStatus {
  PENDING("pending"),
  COMPLETED("completed"),
  FAILED("failed"),
  ABORTED("aborted"),
  EXPIRED("expired");

  private final String wireName;

  SnapshotStatus(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** Reads a wire name; empty or null is {@link #COMPLETED}. */
  @JsonCreator
  public static SnapshotStatus fromWireName(@Nullable String wireName) {
    if (wireName == null || wireName.isEmpty()) {
      return COMPLETED;
    }
    for (SnapshotStatus status : values()) {
      if (status.wireName.equals(wireName)) {
        return status;
      }
    }
    throw new IllegalArgumentException("unknown snapshot status \"" + wireName + "\"");
  }

  /**
   * Whether the status is past {@link #PENDING}. An {@link #ABORTED} row may still be saving its
   * progress: {@link SessionSnapshot#isSettled()} tells whether waiting for it is over.
   */
  public boolean isTerminal() {
    return this != PENDING;
  }
}
