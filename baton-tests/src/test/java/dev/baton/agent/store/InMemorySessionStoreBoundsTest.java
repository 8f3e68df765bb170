package dev.baton.agent.store;

import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What bounds an in-memory store: retention per lineage and a maximum number of sessions. */
class InMemorySessionStoreBoundsTest {
  private final ActionContext context = Baton.builder().build().context();

  private static SessionSnapshot turn(String sessionId, int n, List<Message> history) {
    SessionSnapshot row = row(sessionId + "/" + n, sessionId, at(n));
    row = row.withState(SessionState.empty().withSessionId(sessionId).withMessages(history));
    return n == 0 ? row : withParentId(row, sessionId + "/" + (n - 1));
  }

  private void save(InMemorySessionStore store, SessionSnapshot row) {
    store.saveSnapshot(context, row.snapshotId(), existing -> row);
  }

  @Test
  void retentionKeepsTheNewestRowsOfALineage() {
    InMemorySessionStore store = InMemorySessionStore.builder().maxPersistedChainLength(2).build();
    for (int n = 0; n < 4; n++) {
      save(store, turn("sess-1", n, List.of()));
    }

    assertThat(store.getSnapshot(context, "sess-1/0")).isNull();
    assertThat(store.getSnapshot(context, "sess-1/1")).isNull();
    assertThat(store.getSnapshot(context, "sess-1/2")).isNotNull();
    assertThat(store.getLatestSnapshot(context, "sess-1"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("sess-1/3");
    assertThat(store.rowCount()).isEqualTo(2);
  }

  @Test
  void theSessionSavedToLeastRecentlyIsEvictedWithItsRows() {
    InMemorySessionStore store = InMemorySessionStore.builder().maxSessions(2).build();
    save(store, turn("a", 0, List.of()));
    save(store, turn("b", 0, List.of()));
    save(store, turn("a", 1, List.of()));

    save(store, turn("c", 0, List.of()));

    assertThat(store.getLatestSnapshot(context, "b")).isNull();
    assertThat(store.getSnapshot(context, "b/0")).isNull();
    assertThat(store.getLatestSnapshot(context, "a"))
        .extracting(SessionSnapshot::snapshotId)
        .isEqualTo("a/1");
    assertThat(store.getSnapshot(context, "a/0")).isNotNull();
    assertThat(store.getLatestSnapshot(context, "c")).isNotNull();
    assertThat(store.sessionCount()).isEqualTo(2);
  }

  /**
   * A long-running service: 100,000 turns, in sessions of 20 turns whose every row holds the whole
   * conversation so far. Bounded, the store holds the same few rows at the end as after the first
   * thousand turns; unbounded, it holds every row ever saved.
   */
  @Test
  void whatTheStoreHoldsStaysFlatOver100000TurnsUnderABound() {
    InMemorySessionStore bounded =
        InMemorySessionStore.builder().maxSessions(50).maxPersistedChainLength(2).build();
    InMemorySessionStore unbounded = InMemorySessionStore.create();
    List<Integer> rowsHeld = new ArrayList<>();
    List<Message> history = new ArrayList<>();
    int turnsPerSession = 20;
    for (int turn = 0; turn < 100_000; turn++) {
      int n = turn % turnsPerSession;
      if (n == 0) {
        history = new ArrayList<>();
      }
      history.add(Message.user("question " + n));
      history.add(Message.model("answer " + n));
      SessionSnapshot row = turn("session-" + turn / turnsPerSession, n, List.copyOf(history));
      save(bounded, row);
      if (turn < 10_000) {
        save(unbounded, row);
      }
      if ((turn + 1) % 10_000 == 0) {
        rowsHeld.add(bounded.rowCount());
        assertThat(bounded.sessionCount()).isEqualTo(50);
      }
    }

    assertThat(rowsHeld).hasSize(10).containsOnly(100);
    assertThat(unbounded.rowCount()).isEqualTo(10_000);
  }

  @Test
  void boundsAreCheckedAndSetOnce() {
    assertThatThrownBy(() -> InMemorySessionStore.builder().maxSessions(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> InMemorySessionStore.builder().maxPersistedChainLength(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> InMemorySessionStore.builder().maxSessions(1).maxSessions(2))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set maxSessions more than once");
  }
}
