package dev.baton.internal.store;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.StatusSubscription;
import java.time.Duration;
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
}
