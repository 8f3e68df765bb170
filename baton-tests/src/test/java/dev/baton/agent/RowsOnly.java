package dev.baton.agent;

import dev.baton.core.ActionContext;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * The rows of another store and nothing else: it cannot subscribe to snapshots, so an agent on it
 * runs no work in the background and cannot be aborted. A test overrides the calls whose behaviour
 * it changes.
 */
public class RowsOnly implements SessionStore {
  private final SessionStore rows;

  public RowsOnly(SessionStore rows) {
    this.rows = rows;
  }

  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return rows.getSnapshot(context, snapshotId);
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    return rows.getLatestSnapshot(context, sessionId);
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    return rows.saveSnapshot(context, snapshotId, update);
  }
}
