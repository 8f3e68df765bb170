package dev.baton.agent;

import dev.baton.core.ActionContext;
import org.jspecify.annotations.Nullable;

/**
 * Writes snapshots to a store. See {@link SessionStore} for the contract. Implementations must be
 * thread-safe, and each read-modify-write atomic against every other writer of the same rows.
 */
public interface SnapshotWriter {
  /**
   * Reads the row, applies {@code update}, and writes the result, as one atomic step.
   *
   * @param snapshotId the row's ID, or null (or empty) to have the store mint one
   * @return the row as persisted, or null when {@code update} returned null and nothing was written
   * @throws dev.baton.core.BatonException {@code INVALID_ARGUMENT} for a row without a session ID
   *     or an ID the store cannot accept
   */
  @Nullable SessionSnapshot saveSnapshot(
      ActionContext context, @Nullable String snapshotId, SnapshotUpdate update);
}
