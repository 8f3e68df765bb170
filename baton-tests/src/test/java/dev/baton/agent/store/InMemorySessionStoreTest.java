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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
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

  @Test
  void lockFreeReadsSeeEachRowsSavesInOrderAndNeverLoseARow() throws Exception {
    // Writers save successive versions of rows (the heartbeat marks the version) while readers
    // read them without the store's lock: every read finds the row, whole, and a reader never sees
    // an older version after a newer one.
    int rows = 4;
    int versions = 2_000;
    for (int r = 0; r < rows; r++) {
      save(row("r" + r, "sess-" + r, at(1), PENDING).withHeartbeatAt(at(0)));
    }
    AtomicInteger writersDone = new AtomicInteger();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      String id = "r" + r;
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    for (int v = 1; v <= versions; v++) {
                      int version = v;
                      store()
                          .saveSnapshot(
                              context(), id, existing -> existing.withHeartbeatAt(at(version)));
                    }
                    writersDone.incrementAndGet();
                  }));
    }
    for (int t = 0; t < 4; t++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    Instant[] last = new Instant[rows];
                    try {
                      while (writersDone.get() < rows) {
                        for (int r = 0; r < rows; r++) {
                          SessionSnapshot read = store().getSnapshot(context(), "r" + r);
                          assertThat(read).isNotNull();
                          assertThat(read.sessionId()).isEqualTo("sess-" + r);
                          Instant beat = read.heartbeatAt();
                          if (last[r] != null) {
                            assertThat(beat).isAfterOrEqualTo(last[r]);
                          }
                          last[r] = beat;
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
    for (int r = 0; r < rows; r++) {
      assertThat(store().getSnapshot(context(), "r" + r).heartbeatAt()).isEqualTo(at(versions));
    }
  }
}
