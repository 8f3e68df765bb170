package dev.baton.testing;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.FAILED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.present;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.ActionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The part of the {@link SessionStoreContract} about watching a store's rows, and the fixture the
 * whole contract shares: the store each test gets from {@link #newStore()}, its {@link #context()},
 * the {@link #timeout()} and the helpers. Store tests extend {@link SessionStoreContract}, which
 * extends this class through {@link HostileInputContract}, and so run these tests with the rest.
 *
 * <p>Its tests are the last two groups {@link SessionStoreContract} lists: subscriptions, when
 * {@link #newStore()} returns a {@link SnapshotSubscriber}, and a second instance over the same
 * data, when {@link #openSecondInstance()} is implemented. Either group is skipped when the store
 * lacks what it needs.
 *
 * <p>JUnit creates an instance per test.
 */
public abstract sealed class StatusSubscriptionContract permits HostileInputContract {
  private final ActionContext defaultContext = Baton.builder().build().context();
  private SessionStore store;

  /** For {@link HostileInputContract}, the only class that extends this one. */
  StatusSubscriptionContract() {}

  /** A fresh, empty store for one test. */
  protected abstract SessionStore newStore();

  /**
   * A second store over the data of the store this test got from {@link #newStore()}, opened the
   * way another process would open it, or null (the default) when the store has no such thing. With
   * null, the tests that need it are skipped.
   */
  protected @Nullable SessionStore openSecondInstance() {
    return null;
  }

  /** The context every store call of the tests passes. Override to add auth, for example. */
  protected ActionContext context() {
    return defaultContext;
  }

  /**
   * How long a test waits for work on other threads: a subscription's delivery, or the saves of the
   * concurrency test. Only an upper bound: no test waits longer than its condition needs.
   */
  protected Duration timeout() {
    return Duration.ofSeconds(30);
  }

  /** The store of the running test. */
  protected final SessionStore store() {
    return store;
  }

  /** Gets the test's store from {@link #newStore()}. */
  @BeforeEach
  protected final void openStore() {
    store = newStore();
  }

  // ---- helpers; rows and times come from SnapshotFixtures ----

  /** Saves {@code row} under its own ID, whatever is stored there; returns the persisted row. */
  protected final SessionSnapshot save(SessionStore target, SessionSnapshot row) {
    return present(
        target.saveSnapshot(context(), row.snapshotId(), existing -> row),
        "the saved row " + row.snapshotId());
  }

  /** Saves {@code row} in the test's store. */
  protected final SessionSnapshot save(SessionSnapshot row) {
    return save(store, row);
  }

  private SnapshotSubscriber subscriber() {
    assumeTrue(
        store instanceof SnapshotSubscriber,
        "the store does not implement SnapshotSubscriber; subscription tests skipped");
    return (SnapshotSubscriber) store;
  }

  private SessionStore secondInstance() {
    SessionStore second = openSecondInstance();
    assumeTrue(second != null, "the store cannot open a second instance; test skipped");
    return second;
  }

  /**
   * Takes values from a subscription until {@code expected} arrives; other values (repeats of
   * earlier statuses, which the contract allows) are skipped. Fails when the stream ends first or
   * {@link #timeout()} passes.
   */
  protected final void awaitStatus(StatusSubscription subscription, SnapshotStatus expected)
      throws InterruptedException {
    long timeoutNanos = timeout().toNanos();
    long deadline = System.nanoTime() + timeoutNanos;
    List<SnapshotStatus> seen = new ArrayList<>();
    for (long left = timeoutNanos; left > 0; left = deadline - System.nanoTime()) {
      SnapshotStatus status = subscription.poll(Duration.ofNanos(left));
      if (status == expected) {
        return;
      }
      if (status == null && subscription.isEnded()) {
        throw new AssertionError(
            "the subscription ended before delivering " + expected + "; it delivered " + seen);
      }
      if (status != null) {
        seen.add(status);
      }
    }
    throw new AssertionError(
        "no " + expected + " within " + timeout() + "; the subscription delivered " + seen);
  }

  // ---- subscriptions (SnapshotSubscriber) ----

  @Test
  public void subscriptionStartsWithCurrentStatus() throws InterruptedException {
    save(row("s1", "sess-1", at(1), FAILED));

    try (StatusSubscription subscription = subscriber().onSnapshotStatusChange(context(), "s1")) {
      assertThat(subscription.poll(timeout())).isEqualTo(FAILED);
    }
  }

  @Test
  public void subscriptionDeliversLaterChanges() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = subscriber().onSnapshotStatusChange(context(), "s1")) {
      awaitStatus(subscription, PENDING);
      SnapshotFixtures.abort(context(), store, "s1", at(2));
      awaitStatus(subscription, ABORTED);
      save(row("s1", "sess-1", at(1), COMPLETED));
      awaitStatus(subscription, COMPLETED);
    }
  }

  @Test
  public void subscriptionToMissingSnapshotEndsAtOnce() throws InterruptedException {
    StatusSubscription subscription = subscriber().onSnapshotStatusChange(context(), "missing");

    assertThat(subscription.isEnded()).isTrue();
    assertThat(subscription.poll(Duration.ZERO)).isNull();
  }

  @Test
  public void closingSubscriptionEndsItAndSparesOthers() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));
    StatusSubscription closed = subscriber().onSnapshotStatusChange(context(), "s1");

    try (StatusSubscription open = subscriber().onSnapshotStatusChange(context(), "s1")) {
      closed.close();
      SnapshotFixtures.abort(context(), store, "s1", at(2));

      assertThat(closed.isEnded()).isTrue();
      assertThat(closed.poll(Duration.ZERO)).isNull();
      awaitStatus(open, ABORTED);
    }
  }

  @Test
  public void slowReaderGetsLatestStatus() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));

    try (StatusSubscription subscription = subscriber().onSnapshotStatusChange(context(), "s1")) {
      // No value is read while the row goes through three statuses.
      save(row("s1", "sess-1", at(1), FAILED));
      save(row("s1", "sess-1", at(1), ABORTED));
      save(row("s1", "sess-1", at(1), COMPLETED));

      awaitStatus(subscription, COMPLETED);
      assertThat(subscription.poll(Duration.ZERO)).isIn(null, COMPLETED);
    }
  }

  // ---- a second instance over the same data ----

  @Test
  public void secondInstanceReadsRowsOfTheFirst() {
    SessionSnapshot older = save(row("s1", "sess-1", at(1)));
    SessionSnapshot newer = save(withParentId(row("s2", "sess-1", at(2), PENDING), "s1"));

    SessionStore second = secondInstance();

    assertThat(second.getSnapshot(context(), "s1")).isEqualTo(older);
    assertThat(second.getLatestSnapshot(context(), "sess-1")).isEqualTo(newer);
  }

  @Test
  public void subscriberSeesStatusChangeMadeThroughSecondInstance() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));
    SessionStore second = secondInstance();

    try (StatusSubscription subscription = subscriber().onSnapshotStatusChange(context(), "s1")) {
      awaitStatus(subscription, PENDING);
      assertThat(SnapshotFixtures.abort(context(), second, "s1", at(2))).isEqualTo(ABORTED);
      awaitStatus(subscription, ABORTED);
    }
  }
}
