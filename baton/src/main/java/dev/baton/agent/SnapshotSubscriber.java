package dev.baton.agent;

import dev.baton.core.ActionContext;

/**
 * A store that can report status changes of a snapshot, which detached runs and abort need: a
 * worker learns through it that its pending row was aborted, possibly from another process.
 * Implementations must be thread-safe; each subscription is consumed by one thread.
 */
public interface SnapshotSubscriber {
  /**
   * Subscribes to a snapshot's status. The first value is the status at subscription time; after
   * that each change is delivered until the subscription is closed. Delivery is level-triggered and
   * coalescing: a slow reader may miss intermediate values but always sees the latest, and may see
   * one twice. The subscription to a snapshot that does not exist is closed at once.
   */
  StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId);
}
