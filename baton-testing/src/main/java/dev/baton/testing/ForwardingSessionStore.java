package dev.baton.testing;

import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import java.util.List;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A session store that passes every call on to another, for tests and benchmarks that change one
 * behaviour of a real store (fail or stall its writes, forget its rows) and keep the rest: override
 * the calls to change.
 *
 * <p>As thread-safe as the store it forwards to, provided the overrides are.
 */
public abstract class ForwardingSessionStore implements SessionStore, SnapshotSubscriber {
  private final SessionStore store;
  private final SnapshotSubscriber subscriber;

  protected <S extends SessionStore & SnapshotSubscriber> ForwardingSessionStore(S delegate) {
    this.store = delegate;
    this.subscriber = delegate;
  }

  @Override
  public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
    return store.getSnapshot(context, snapshotId);
  }

  @Override
  public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
    return store.getLatestSnapshot(context, sessionId);
  }

  @Override
  public @Nullable SessionSnapshot saveSnapshot(
      ActionContext context,
      @Nullable String snapshotId,
      UnaryOperator<@Nullable SessionSnapshot> update) {
    return store.saveSnapshot(context, snapshotId, update);
  }

  @Override
  public SessionPage listSessions(ActionContext context, SessionQuery query) {
    return store.listSessions(context, query);
  }

  @Override
  public List<SessionSnapshot> listSnapshots(ActionContext context, String sessionId) {
    return store.listSnapshots(context, sessionId);
  }

  @Override
  public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
    return subscriber.onSnapshotStatusChange(context, snapshotId);
  }
}
