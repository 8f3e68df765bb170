package dev.baton.agent.store;

import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import dev.baton.internal.store.RowHeader;
import dev.baton.internal.store.StatusSubscribers;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The status subscriptions of a file store: it delivers the changes the store saves at once and, by
 * re-reading the subscribed row files every interval, the changes other processes or instances
 * save. The poller runs only while there are subscriptions, on a virtual thread of its own; a
 * change seen both ways is delivered once.
 *
 * <p>Thread-safe. One lock orders what reaches subscribers, row by row: a save publishes under it
 * once its row is in place, and the poller reads each row and publishes its status under it, so a
 * status the poller read cannot reach subscribers after a newer one this store saved, and a
 * subscription misses no save that lands between reading the row's status and subscribing. Both
 * guarantees are per row, so a poll round takes the lock for one row at a time: a save never waits
 * for a whole round, and a listener (which runs under the lock) delays only that row.
 *
 * <p>Lock order: the folder's lock, then this one. A save must publish while it still holds its
 * folder's lock, or an older save of the same row could publish after it; the poller and
 * subscribers take only this lock, so a listener must not save to the store from its callback on
 * the poller's thread (it would wait for a folder lock while holding this one).
 */
final class StatusFeed {
  /** A row as subscriptions name it: its directory and ID. */
  private record RowRef(SnapshotDirectory directory, String snapshotId) {}

  private final ReentrantLock lock = new ReentrantLock();
  private final StatusSubscribers<RowRef> subscribers;
  private final @Nullable SnapshotPoller poller;
  private final Consumer<String> beforePollRead;

  /**
   * @param pollInterval how often subscribed rows are re-read; zero or negative polls never, so
   *     only the store's own saves are delivered
   * @param beforePollRead runs before the poller takes the lock to read a row, with its ID; for
   *     tests that hold the poller mid-round
   */
  StatusFeed(Duration pollInterval, Consumer<String> beforePollRead) {
    this.beforePollRead = beforePollRead;
    // The poller starts with the first subscription and stops with the last one.
    SnapshotPoller newPoller =
        pollInterval.isPositive()
            ? new SnapshotPoller(pollInterval, this::pollSubscribedRows, "baton-file-store-poller")
            : null;
    this.poller = newPoller;
    this.subscribers =
        newPoller == null
            ? new StatusSubscribers<>()
            : new StatusSubscribers<>(newPoller::start, newPoller::stop);
  }

  /** Delivers the status of a row the store has just put in place. */
  void publish(SnapshotDirectory directory, String snapshotId, SnapshotStatus status) {
    lock.lock();
    try {
      subscribers.publish(new RowRef(directory, snapshotId), status);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Subscribes to the row's status changes, starting from its status now; an ended subscription
   * when its header cannot be read (see {@link SnapshotDirectory#readHeader}).
   */
  StatusSubscription subscribe(SnapshotDirectory directory, String snapshotId) {
    lock.lock();
    try {
      RowHeader header = directory.readHeader(snapshotId);
      return header == null
          ? StatusSubscription.ended()
          : subscribers.subscribe(new RowRef(directory, snapshotId), header.statusOrCompleted());
    } finally {
      lock.unlock();
    }
  }

  /** Whether the poller is running: only while there are subscriptions. */
  boolean isPolling() {
    return poller != null && poller.isRunning();
  }

  /**
   * One round of the poller: re-reads the status of every subscribed row and delivers the changed
   * ones. A file that is missing or unreadable is skipped until the next round.
   */
  private void pollSubscribedRows() {
    for (RowRef row : subscribers.subscribedRows()) {
      beforePollRead.accept(row.snapshotId());
      lock.lock();
      try {
        RowHeader header = row.directory().readHeader(row.snapshotId());
        if (header != null) {
          subscribers.publish(row, header.statusOrCompleted());
        }
      } finally {
        lock.unlock();
      }
    }
  }
}
