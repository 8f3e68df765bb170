package dev.baton.agent.store;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.present;
import static dev.baton.testing.SnapshotFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.StatusSubscription;
import dev.baton.core.Json;
import dev.baton.testing.SessionStoreContract;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The store contract, and what only the in-memory store promises. */
class InMemorySessionStoreTest extends SessionStoreContract {

  @Override
  protected SessionStore newStore() {
    return InMemorySessionStore.create();
  }

  @Test
  void mintedIdIsRandomUuid() {
    SessionSnapshot saved =
        store().saveSnapshot(context(), null, existing -> row("x", "sess-1", at(1)));

    String id = present(saved, "saved row").snapshotId();
    assertThat(UUID.fromString(id).toString()).isEqualTo(id);
  }

  @Test
  void updateIsCalledExactlyOncePerSave() {
    AtomicInteger calls = new AtomicInteger();

    store()
        .saveSnapshot(
            context(),
            "s1",
            existing -> {
              calls.incrementAndGet();
              return row("s1", "sess-1", at(1));
            });
    store()
        .saveSnapshot(
            context(),
            "s1",
            existing -> {
              calls.incrementAndGet();
              return null;
            });

    assertThat(calls).hasValue(2);
  }

  @Test
  void latestSnapshotIsAValueTheCallerCannotChangeTheStoreThrough() {
    save(
        row("s1", "sess-1", at(1))
            .withState(SessionState.empty().withCustom(Json.parse("{\"n\":1}"))));
    SessionSnapshot latest = present(store().getLatestSnapshot(context(), "sess-1"), "latest");

    ((ObjectNode) present(present(latest.state(), "state").custom(), "custom")).put("n", 2);

    assertThat(present(store().getLatestSnapshot(context(), "sess-1"), "latest").state())
        .extracting(SessionState::custom)
        .isEqualTo(Json.parse("{\"n\":1}"));
  }

  @Test
  void storesShareNothing() {
    save(row("s1", "sess-1", at(1)));

    SessionStore other = InMemorySessionStore.create();

    assertThat(other.getSnapshot(context(), "s1")).isNull();
    assertThat(other.getLatestSnapshot(context(), "sess-1")).isNull();
  }

  @Test
  void statusChangeReachesSubscriberBeforeSaveReturns() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));
    InMemorySessionStore store = (InMemorySessionStore) store();

    try (StatusSubscription subscription = store.onSnapshotStatusChange(context(), "s1")) {
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(PENDING);
      save(row("s1", "sess-1", at(1), ABORTED));
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(ABORTED);
      save(row("s1", "sess-1", at(1), COMPLETED));
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(COMPLETED);
    }
  }

  @Test
  void saveThatKeepsTheStatusDeliversNothing() throws InterruptedException {
    save(row("s1", "sess-1", at(1), PENDING));
    InMemorySessionStore store = (InMemorySessionStore) store();

    try (StatusSubscription subscription = store.onSnapshotStatusChange(context(), "s1")) {
      assertThat(subscription.poll(Duration.ZERO)).isEqualTo(PENDING);
      save(row("s1", "sess-1", at(1), PENDING).withHeartbeatAt(at(5)));
      assertThat(subscription.poll(Duration.ZERO)).isNull();
    }
  }
}
