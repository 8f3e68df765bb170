package dev.baton.internal.store;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StatusSubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StatusSubscribersTest {
  private final AtomicInteger starts = new AtomicInteger();
  private final AtomicInteger stops = new AtomicInteger();
  private final StatusSubscribers<String> subscribers =
      new StatusSubscribers<>(starts::incrementAndGet, stops::incrementAndGet);

  @Test
  void subscriptionStartsWithTheCurrentStatus() throws InterruptedException {
    StatusSubscription subscription = subscribers.subscribe("s1", PENDING);

    assertThat(subscription.poll(Duration.ZERO)).isEqualTo(PENDING);
  }

  @Test
  void aStartThatThrowsFailsTheSubscribeAndIsTriedAgainByTheNext() {
    AtomicInteger attempts = new AtomicInteger();
    StatusSubscribers<String> failingOnce =
        new StatusSubscribers<>(
            () -> {
              if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("no poller thread");
              }
            },
            stops::incrementAndGet);

    assertThatThrownBy(() -> failingOnce.subscribe("s1", PENDING))
        .isInstanceOf(IllegalStateException.class);
    assertThat(failingOnce.subscribedRows()).as("the failed subscription left no row").isEmpty();
    assertThat(stops).hasValue(0);

    StatusSubscription subscription = failingOnce.subscribe("s1", PENDING);
    assertThat(attempts).as("the start ran again").hasValue(2);
    subscription.close();
    assertThat(stops).hasValue(1);
  }

  @Test
  void publishDeliversOnlyChanges() throws InterruptedException {
    StatusSubscription subscription = subscribers.subscribe("s1", PENDING);
    subscription.poll(Duration.ZERO);

    subscribers.publish("s1", PENDING);
    assertThat(subscription.poll(Duration.ZERO)).isNull();

    subscribers.publish("s1", ABORTED);
    subscribers.publish("s1", ABORTED);
    assertThat(subscription.poll(Duration.ZERO)).isEqualTo(ABORTED);
    assertThat(subscription.poll(Duration.ZERO)).isNull();
  }

  @Test
  void publishReachesOnlyTheRowsSubscribers() throws InterruptedException {
    StatusSubscription s1 = subscribers.subscribe("s1", PENDING);
    StatusSubscription s2 = subscribers.subscribe("s2", PENDING);
    s1.poll(Duration.ZERO);
    s2.poll(Duration.ZERO);

    subscribers.publish("s1", COMPLETED);
    subscribers.publish("unsubscribed", COMPLETED);

    assertThat(s1.poll(Duration.ZERO)).isEqualTo(COMPLETED);
    assertThat(s2.poll(Duration.ZERO)).isNull();
  }

  @Test
  void newerStatusSeenByALaterSubscriberReachesEarlierOnes() throws InterruptedException {
    StatusSubscription early = subscribers.subscribe("s1", PENDING);
    early.poll(Duration.ZERO);

    StatusSubscription late = subscribers.subscribe("s1", ABORTED);
    subscribers.publish("s1", ABORTED);

    assertThat(early.poll(Duration.ZERO)).isEqualTo(ABORTED);
    assertThat(early.poll(Duration.ZERO)).isNull();
    assertThat(late.poll(Duration.ZERO)).isEqualTo(ABORTED);
    assertThat(late.poll(Duration.ZERO)).isNull();
  }

  @Test
  void closeUnsubscribesAndActivityFollowsTheCount() throws InterruptedException {
    StatusSubscription first = subscribers.subscribe("s1", PENDING);
    StatusSubscription second = subscribers.subscribe("s2", PENDING);
    assertThat(starts).hasValue(1);
    assertThat(subscribers.subscribedRows()).containsExactlyInAnyOrder("s1", "s2");

    first.close();
    first.close();
    assertThat(stops).hasValue(0);
    assertThat(subscribers.subscribedRows()).containsExactly("s2");

    second.close();
    assertThat(stops).hasValue(1);
    assertThat(subscribers.subscribedRows()).isEmpty();

    subscribers.subscribe("s1", PENDING);
    assertThat(starts).hasValue(2);
  }

  @Test
  void gateIsForgottenWithTheLastSubscriber() throws InterruptedException {
    subscribers.subscribe("s1", PENDING).close();

    StatusSubscription again = subscribers.subscribe("s1", ABORTED);
    again.poll(Duration.ZERO);
    subscribers.publish("s1", PENDING);

    assertThat(again.poll(Duration.ZERO)).isEqualTo(PENDING);
  }

  @Test
  void manyWritersAndSubscribersOnManyRowsGetEveryChangeOnceInOrder() throws Exception {
    // One writer per row publishes a run of changes, each status twice (the second is no news),
    // while subscriptions to other rows come and go. The row's subscribers, there from the start,
    // must get exactly the changes, in order, once each; a passing subscriber never gets a status
    // twice in a row.
    int rowCount = 16;
    int changes = 300;
    SnapshotStatus[] cycle = {ABORTED, COMPLETED, PENDING};
    List<List<SnapshotStatus>> steady = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      for (int k = 0; k < 3; k++) {
        List<SnapshotStatus> seen = new CopyOnWriteArrayList<>();
        subscribers.subscribe("row" + r, PENDING).listen(seen::add);
        steady.add(seen);
      }
    }
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      String row = "row" + r;
      String passingRow = "passing" + (r % 4);
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < changes; i++) {
                      subscribers.publish(row, cycle[i % cycle.length]);
                      subscribers.publish(row, cycle[i % cycle.length]);
                      subscribers.publish(passingRow, cycle[i % cycle.length]);
                    }
                  }));
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    try {
                      for (int i = 0; i < 200; i++) {
                        List<SnapshotStatus> seen = new CopyOnWriteArrayList<>();
                        try (StatusSubscription passing =
                            subscribers.subscribe(passingRow, cycle[i % cycle.length])) {
                          passing.listen(seen::add);
                        }
                        for (int j = 1; j < seen.size(); j++) {
                          assertThat(seen.get(j)).isNotEqualTo(seen.get(j - 1));
                        }
                      }
                    } catch (Throwable e) {
                      failures.add(e);
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(failures).isEmpty();
    List<SnapshotStatus> expected = new ArrayList<>(List.of(PENDING));
    for (int i = 0; i < changes; i++) {
      expected.add(cycle[i % cycle.length]);
    }
    for (List<SnapshotStatus> seen : steady) {
      assertThat(seen).isEqualTo(expected);
    }
  }

  @Test
  void activityFollowsSubscriptionsThatComeAndGoConcurrently() throws Exception {
    // Subscriptions to many rows open and close from many threads at once, so the count of
    // subscribed rows crosses zero again and again: the callbacks must end where the count does.
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int thread = t;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int i = 0; i < 2_000; i++) {
                      subscribers.subscribe("row" + (thread * 7 + i) % 5, PENDING).close();
                    }
                  }));
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(subscribers.subscribedRows()).isEmpty();
    assertThat(starts.get()).isEqualTo(stops.get()).isPositive();

    StatusSubscription last = subscribers.subscribe("row0", PENDING);
    assertThat(starts).hasValue(stops.get() + 1);
    last.close();
    assertThat(starts).hasValue(stops.get());
  }
}
