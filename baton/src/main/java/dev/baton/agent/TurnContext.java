package dev.baton.agent;

import dev.baton.core.ContextKey;

/**
 * The current turn, visible to the turn's code through its context.
 *
 * @param snapshotId the ID the turn-end snapshot will be saved under, reserved before the turn
 *     runs; "" for a client-managed agent
 * @param parentSnapshotId the previous snapshot in this timeline, or ""
 * @param turnIndex 0 for the invocation's first turn
 */
public record TurnContext(String snapshotId, String parentSnapshotId, int turnIndex) {
  public static final ContextKey<TurnContext> KEY = ContextKey.of("baton.turn", TurnContext.class);

  /**
   * The invocation's first turn, to be saved as {@code snapshotId} after {@code parentSnapshotId}.
   */
  public static TurnContext of(String snapshotId, String parentSnapshotId) {
    return new TurnContext(snapshotId, parentSnapshotId, 0);
  }

  public TurnContext withTurnIndex(int turnIndex) {
    return new TurnContext(snapshotId, parentSnapshotId, turnIndex);
  }
}
