package dev.baton.agent;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class StatusSubscriptionTest {
  private final StatusSubscription subscription = new StatusSubscription(() -> {});
  private final List<SnapshotStatus> heard = new CopyOnWriteArrayList<>();

  @Test
  void aListenerGetsTheUnreadValueAndEveryLaterOneInOrder() throws InterruptedException {
    subscription.offer(PENDING);

    subscription.listen(heard::add);
    subscription.offer(ABORTED);
    subscription.offer(COMPLETED);

    assertThat(heard).containsExactly(PENDING, ABORTED, COMPLETED);
    assertThat(subscription.poll(Duration.ZERO)).isNull();
  }

  @Test
  void aListenerHearsNothingAfterTheEnd() {
    subscription.listen(heard::add);
    subscription.close();
    subscription.offer(ABORTED);

    assertThat(heard).isEmpty();
    assertThat(subscription.isEnded()).isTrue();
  }

  @Test
  void aSubscriptionTakesOneListener() {
    subscription.listen(heard::add);

    assertThatThrownBy(() -> subscription.listen(heard::add))
        .isInstanceOf(IllegalStateException.class);
  }
}
