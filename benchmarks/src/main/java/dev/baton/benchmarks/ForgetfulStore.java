package dev.baton.benchmarks;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionContext;
import dev.baton.testing.ForwardingSessionStore;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * An in-memory store that, once told to, stops keeping new rows: it computes and returns them but
 * forgets them. A long-session benchmark seeds its history and then measures turns without the
 * store growing by a row per operation.
 */
final class ForgetfulStore extends ForwardingSessionStore {
  private volatile boolean forgetting;

  ForgetfulStore(InMemorySessionStore delegate) {
    super(delegate);
  }

  void forgetFromNowOn() {
    forgetting = true;
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    if (!forgetting) {
      return super.saveSnapshot(context, snapshotId, update);
    }
    SessionSnapshot row =
        update.apply(snapshotId == null ? null : getSnapshot(context, snapshotId));
    return row == null ? null : row.withSnapshotId(snapshotId == null ? "forgotten" : snapshotId);
  }
}
