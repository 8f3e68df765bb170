package dev.baton.testing;

import static dev.baton.agent.SnapshotStatus.ABORTED;
import static dev.baton.agent.SnapshotStatus.COMPLETED;
import static dev.baton.agent.SnapshotStatus.FAILED;
import static dev.baton.agent.SnapshotStatus.PENDING;
import static dev.baton.testing.SnapshotFixtures.assertFailsWith;
import static dev.baton.testing.SnapshotFixtures.at;
import static dev.baton.testing.SnapshotFixtures.present;
import static dev.baton.testing.SnapshotFixtures.row;
import static dev.baton.testing.SnapshotFixtures.withParentId;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.Artifact;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link SessionStore} contract as JUnit tests: extend this class, say how to make a store, and
 * the store is checked against every rule the agent runtime relies on.
 *
 * <pre>{@code
 * class PostgresSessionStoreTest extends SessionStoreContract {
 *   @Override
 *   protected SessionStore newStore() {
 *     return PostgresSessionStore.builder(dataSource).schema(freshSchema()).build();
 *   }
 * }
 * }</pre>
 *
 * <p>What it checks:
 *
 * <ul>
 *   <li>Identity: the store keeps the session ID it is given, keeps the existing row's on an
 *       update, rejects a row without one with {@code INVALID_ARGUMENT}, mints an ID for a null or
 *       empty one, and lets the ID argument override the row's.
 *   <li>Writes: a null update writes nothing; an absent status is stored as {@code completed};
 *       timestamps and every other field are stored as given; rows handed out do not change
 *       afterwards; concurrent read-modify-writes of one row lose no update; a row saved again
 *       under its ID, as a retried write does, is left as it was.
 *   <li>The latest snapshot: greatest {@code createdAt}, then greatest ID, whatever the status;
 *       rewrites and heartbeats do not change it; an unknown session has none; an empty session ID
 *       is {@code INVALID_ARGUMENT}.
 *   <li>Abort and heartbeat as ordinary saves ({@link SnapshotFixtures#abort}, {@link
 *       SnapshotFixtures#heartbeat}).
 *   <li>IDs: one that is not well-formed UTF-16 (a lone surrogate) is {@code INVALID_ARGUMENT} on
 *       every call, as a snapshot, session or parent ID, and reaches no other row.
 *   <li>Text: a lone surrogate in a message, the state or an error reads back as saved.
 *   <li>Listing ({@link SessionStore#listSessions}): newest first by last update, each session
 *       summarised from its latest row; pages that neither repeat nor skip a session when writes
 *       land between them; the status and session ID prefix filters; a principal lists only its own
 *       sessions; a malformed page token is {@code INVALID_ARGUMENT}.
 *   <li>When the store's test overrides {@link #damage}: a row damaged in storage is {@code
 *       DATA_LOSS} by ID and for saves over it; its session's latest is {@code DATA_LOSS} or the
 *       newest intact row.
 *   <li>When {@link #newStore()} returns a {@link SnapshotSubscriber}: a subscription starts with
 *       the current status, delivers later changes, ends at once for a missing snapshot and when
 *       closed, and a reader that fell behind still gets the latest status.
 *   <li>When {@link #openSecondInstance()} is implemented: a second instance over the same data (as
 *       another process would open it) reads the first one's rows, and its status changes reach the
 *       first one's subscribers.
 * </ul>
 *
 * <p>Each test gets a fresh store from {@link #newStore()}, in a {@code @BeforeEach} method, so
 * fields a subclass initialises (a {@code @TempDir}, say) are ready when it is called. Snapshot and
 * session IDs are plain ASCII words that any store can use as keys or file names, but for the tests
 * of IDs, which also use {@code ?} and an emoji (a surrogate pair); {@link SnapshotFixtures} builds
 * the rows. Tests that wait for a subscription use {@link #timeout()} as their bound and never
 * sleep; they tolerate stores that deliver asynchronously and repeat a status, as the contract
 * allows.
 *
 * <p>The tests are public so that a store that deliberately departs from one rule can override that
 * test and say why.
 *
 * <p>The store each test gets, the helpers, and the subscription and second-instance tests are
 * inherited from {@link StatusSubscriptionContract}, the ID and damaged-row tests from {@link
 * HostileInputContract}, the listing tests from {@link SessionListingContract}; extending this
 * class runs them all.
 *
 * <p>JUnit creates an instance per test; its tests that need threads start and join their own.
 */
public abstract non-sealed class SessionStoreContract extends SessionListingContract {
  /** For a store's test, which extends this class. */
  protected SessionStoreContract() {}

  private @Nullable SessionSnapshot get(String snapshotId) {
    return store().getSnapshot(context(), snapshotId);
  }

  private SessionSnapshot stored(String snapshotId) {
    return present(get(snapshotId), "stored row " + snapshotId);
  }

  private @Nullable SessionSnapshot latest(String sessionId) {
    return store().getLatestSnapshot(context(), sessionId);
  }

  // ---- session IDs (Genkit's runSessionIDStoreTests) ----

  @Test
  public void sessionIdKeptWhenProvided() {
    SessionSnapshot saved = save(row("snap-1", "sess-1", at(1)));

    assertThat(saved.sessionId()).isEqualTo("sess-1");
    assertThat(get("snap-1")).extracting(SessionSnapshot::sessionId).isEqualTo("sess-1");
  }

  @Test
  public void sessionIdPreservedOnUpdate() {
    save(row("snap-1", "sess-1", at(1)));

    SessionSnapshot withEmpty =
        store().saveSnapshot(context(), "snap-1", existing -> row("snap-1", "", at(1), FAILED));
    SessionSnapshot withOther =
        store()
            .saveSnapshot(context(), "snap-1", existing -> row("snap-1", "sess-2", at(1), ABORTED));

    assertThat(withEmpty).extracting(SessionSnapshot::sessionId).isEqualTo("sess-1");
    assertThat(withOther).extracting(SessionSnapshot::sessionId).isEqualTo("sess-1");
    assertThat(get("snap-1"))
        .extracting(SessionSnapshot::sessionId, SessionSnapshot::status)
        .containsExactly("sess-1", ABORTED);
    assertThat(latest("sess-2")).isNull();
  }

  @Test
  public void rejectsRowWithoutSessionId() {
    save(row("parent", "sess-1", at(1)));
    SessionSnapshot orphan = row("child", "sess-1", at(2)).withSessionId(null);

    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> store().saveSnapshot(context(), "child", existing -> orphan));
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> store().saveSnapshot(context(), "child", existing -> orphan.withSessionId("")));
    assertFailsWith(
        Status.INVALID_ARGUMENT,
        () -> store().saveSnapshot(context(), null, existing -> orphan.withSessionId("")));
    assertThat(get("child")).isNull();
    assertThat(latest("sess-1")).extracting(SessionSnapshot::snapshotId).isEqualTo("parent");
  }

  @Test
  public void getLatestSnapshotPicksMostRecent() {
    save(row("z", "sess-1", at(1)));
    save(row("m", "sess-1", at(2)));
    SessionSnapshot newest =
        save(
            row("a", "sess-1", at(3))
                .withState(
                    SessionState.empty()
                        .withSessionId("sess-1")
                        .withMessages(List.of(Message.user("hi"), Message.model("hello")))));
    save(row("other", "sess-2", at(4)));

    assertThat(latest("sess-1")).isEqualTo(newest);
  }

  @Test
  public void getLatestSnapshotBreaksTiesByGreaterSnapshotId() {
    save(row("b", "sess-1", at(1)));
    save(row("c", "sess-1", at(1)));
    save(row("a", "sess-1", at(1)));

    assertThat(latest("sess-1")).extracting(SessionSnapshot::snapshotId).isEqualTo("c");
  }

  @Test
  public void getLatestSnapshotByCreatedAtNotByLastWrite() {
    save(row("root", "sess-1", at(1)));
    save(withParentId(row("b1", "sess-1", at(2), PENDING), "root"));
    save(withParentId(row("b2", "sess-1", at(3)), "root"));

    SessionSnapshot finalised =
        store()
            .saveSnapshot(
                context(),
                "b1",
                existing ->
                    present(existing, "the pending row b1")
                        .withStatus(COMPLETED)
                        .withUpdatedAt(at(10))
                        .withState(SessionState.empty().withSessionId("sess-1")));

    assertThat(finalised).extracting(SessionSnapshot::updatedAt).isEqualTo(at(10));
    assertThat(latest("sess-1")).extracting(SessionSnapshot::snapshotId).isEqualTo("b2");
  }

  @Test
  public void getLatestSnapshotReturnsLatestWhateverItsStatus() {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2), FAILED));
    save(row("s3", "sess-1", at(3), ABORTED));

    assertThat(latest("sess-1"))
        .extracting(SessionSnapshot::snapshotId, SessionSnapshot::status)
        .containsExactly("s3", ABORTED);
  }

  @Test
  public void getLatestSnapshotReturnsPendingRow() {
    save(row("s1", "sess-1", at(1)));
    save(row("s2", "sess-1", at(2), PENDING));

    assertThat(latest("sess-1"))
        .extracting(SessionSnapshot::snapshotId, SessionSnapshot::status, SessionSnapshot::state)
        .containsExactly("s2", PENDING, null);
  }

  @Test
  public void getLatestSnapshotOfUnknownSessionIsNull() {
    save(row("s1", "sess-1", at(1)));

    assertThat(latest("nobody")).isNull();
  }

  @Test
  public void getLatestSnapshotRejectsEmptySessionId() {
    assertFailsWith(Status.INVALID_ARGUMENT, () -> latest(""));
  }

  // ---- heartbeats (Genkit's runHeartbeatStoreTests) ----

  @Test
  public void heartbeatAdvancesHeartbeatNotUpdatedAt() {
    save(row("s1", "sess-1", at(1), PENDING));

    boolean beat = SnapshotFixtures.heartbeat(context(), store(), "s1", at(30));

    assertThat(beat).isTrue();
    assertThat(get("s1"))
        .extracting(
            SessionSnapshot::heartbeatAt, SessionSnapshot::updatedAt, SessionSnapshot::status)
        .containsExactly(at(30), at(1), PENDING);
  }

  @Test
  public void heartbeatIsNoOpOnTerminalOrMissingRow() {
    SessionSnapshot completed = save(row("s1", "sess-1", at(1)));

    assertThat(SnapshotFixtures.heartbeat(context(), store(), "s1", at(30))).isFalse();
    assertThat(SnapshotFixtures.heartbeat(context(), store(), "missing", at(30))).isFalse();

    assertThat(get("s1")).isEqualTo(completed);
    assertThat(get("missing")).isNull();
  }

  @Test
  public void heartbeatKeepsAnAbortingRowFreshUntilItsWorkerSettlesIt() {
    save(row("s1", "sess-1", at(1), PENDING));
    SnapshotFixtures.abort(context(), store(), "s1", at(2));

    assertThat(SnapshotFixtures.heartbeat(context(), store(), "s1", at(30))).isTrue();
    SessionSnapshot aborting = get("s1");
    assertThat(aborting).extracting(SessionSnapshot::heartbeatAt).isEqualTo(at(30));

    SessionSnapshot settled =
        save(
            Objects.requireNonNull(aborting)
                .withFinishReason(AgentFinishReason.ABORTED)
                .withHeartbeatAt(null));
    assertThat(SnapshotFixtures.heartbeat(context(), store(), "s1", at(40))).isFalse();
    assertThat(get("s1")).isEqualTo(settled);
  }

  @Test
  public void heartbeatDoesNotChangeRecency() {
    save(row("old", "sess-1", at(1), PENDING));
    save(row("new", "sess-1", at(2)));

    for (int beat = 1; beat <= 3; beat++) {
      assertThat(SnapshotFixtures.heartbeat(context(), store(), "old", at(100L * beat))).isTrue();
    }

    assertThat(latest("sess-1")).extracting(SessionSnapshot::snapshotId).isEqualTo("new");
  }

  // ---- writes ----

  @Test
  public void getOfMissingSnapshotIsNull() {
    assertThat(get("missing")).isNull();
  }

  @Test
  public void updateSeesTheStoredRow() {
    SessionSnapshot stored = save(row("s1", "sess-1", at(1), PENDING));
    List<@Nullable SessionSnapshot> seen = new ArrayList<>();

    store()
        .saveSnapshot(
            context(),
            "s1",
            existing -> {
              seen.add(existing);
              return existing;
            });
    store()
        .saveSnapshot(
            context(),
            "s2",
            existing -> {
              seen.add(existing);
              return row("s2", "sess-1", at(2));
            });

    assertThat(seen).containsExactly(stored, null);
  }

  @Test
  public void nullUpdateWritesNothing() {
    SessionSnapshot stored = save(row("s1", "sess-1", at(1), PENDING));

    assertThat(store().saveSnapshot(context(), "s1", existing -> null)).isNull();
    assertThat(store().saveSnapshot(context(), "s2", existing -> null)).isNull();

    assertThat(get("s1")).isEqualTo(stored);
    assertThat(get("s2")).isNull();
    assertThat(latest("sess-1")).isEqualTo(stored);
  }

  /**
   * A write reported failed may have committed all the same (the connection dropped before the
   * commit was acknowledged), and the runtime then saves the same row again under its ID: that
   * leaves one row as the first save wrote it, still the session's latest, and a turn saved after
   * it reads back its own history.
   */
  @Test
  public void savingTheSameRowAgainLeavesItAsItWas() {
    save(row("s1", "sess-1", at(1)).withState(history("q1", "a1")));
    SessionSnapshot turn =
        withParentId(row("s2", "sess-1", at(2)), "s1").withState(history("q1", "a1", "q2", "a2"));
    SessionSnapshot first = save(turn);

    assertThat(save(turn)).isEqualTo(first);

    assertThat(get("s2")).isEqualTo(turn);
    assertThat(latest("sess-1")).isEqualTo(turn);
    SessionSnapshot next =
        withParentId(row("s3", "sess-1", at(3)), "s2")
            .withState(history("q1", "a1", "q2", "a2", "q3"));
    save(next);
    assertThat(get("s3")).isEqualTo(next);
  }

  /** A state of session sess-1 whose messages alternate user and model, with these texts. */
  private static SessionState history(String... texts) {
    List<Message> messages = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      messages.add(i % 2 == 0 ? Message.user(texts[i]) : Message.model(texts[i]));
    }
    return SessionState.empty().withSessionId("sess-1").withMessages(messages);
  }

  @Test
  public void absentStatusIsStoredAsCompleted() {
    SessionSnapshot saved = save(row("s1", "sess-1", at(1)).withStatus(null));

    assertThat(saved.status()).isEqualTo(COMPLETED);
    assertThat(get("s1")).extracting(SessionSnapshot::status).isEqualTo(COMPLETED);
  }

  @Test
  public void storeMintsIdForNullOrEmptyId() {
    SessionSnapshot first =
        present(
            store().saveSnapshot(context(), null, existing -> row("ignored", "sess-1", at(1))),
            "a row saved with a null ID");
    SessionSnapshot second =
        present(
            store().saveSnapshot(context(), "", existing -> row("", "sess-1", at(2))),
            "a row saved with an empty ID");
    assertThat(first.snapshotId()).isNotEmpty().isNotEqualTo("ignored");
    assertThat(second.snapshotId()).isNotEmpty().isNotEqualTo(first.snapshotId());
    assertThat(get(first.snapshotId())).isEqualTo(first);
    assertThat(get(second.snapshotId())).isEqualTo(second);
  }

  @Test
  public void idArgumentOverridesRowId() {
    SessionSnapshot saved =
        store().saveSnapshot(context(), "chosen", existing -> row("other", "sess-1", at(1)));

    assertThat(saved).extracting(SessionSnapshot::snapshotId).isEqualTo("chosen");
    assertThat(get("chosen")).isEqualTo(saved);
    assertThat(get("other")).isNull();
  }

  @Test
  public void timestampsAreStoredVerbatim() {
    Instant created = Instant.parse("2026-03-01T10:00:00.123456789Z");
    Instant heartbeat = Instant.parse("2026-02-28T23:59:59.5Z"); // before createdAt: not "fixed"
    SessionSnapshot withoutUpdatedAt =
        row("s1", "sess-1", created, PENDING).withUpdatedAt(null).withHeartbeatAt(heartbeat);

    save(withoutUpdatedAt);

    assertThat(get("s1")).isEqualTo(withoutUpdatedAt);
  }

  @Test
  public void everyFieldRoundTrips() {
    JsonNode custom = Json.parse("{\"plan\":[\"a\",\"b\"],\"count\":2,\"nested\":{\"ok\":true}}");
    SessionState state =
        SessionState.empty()
            .withSessionId("sess-1")
            .withMessages(List.of(Message.user("question"), Message.model("answer")))
            .withCustom(custom)
            .withArtifacts(
                List.of(
                    Artifact.text("report.md", "# Findings")
                        .withMetadata(Json.object().put("source", "researcher"))))
            .withUsage(
                GenerationUsage.builder()
                    .inputTokens(120)
                    .outputTokens(30)
                    .custom(Map.of("cost", 0.25))
                    .build());
    SessionSnapshot full =
        SessionSnapshot.builder("s2", at(1))
            .sessionId("sess-1")
            .parentId("s1")
            .updatedAt(at(5))
            .heartbeatAt(at(4))
            .status(FAILED)
            .finishReason(AgentFinishReason.FAILED)
            .error(
                ErrorInfo.of(Status.INTERNAL, "model unavailable")
                    .withDetails(Json.parse("{\"attempts\":3}")))
            .state(state)
            .build();

    save(full);

    assertThat(get("s2")).isEqualTo(full);
  }

  @Test
  public void returnedRowsDoNotChangeAfterwards() {
    SessionSnapshot original =
        row("s1", "sess-1", at(1))
            .withState(SessionState.empty().withCustom(Json.parse("{\"n\":1}")));
    SessionSnapshot saved = save(original);
    SessionSnapshot read = stored("s1");

    // The caller changes what it was given, then the row is rewritten.
    ((ObjectNode) present(present(read.state(), "state").custom(), "custom")).put("injected", 1);
    save(original.withStatus(ABORTED).withState(SessionState.empty().withCustom(Json.object())));

    assertThat(saved).isEqualTo(original);
    assertThat(read).isEqualTo(original);
    assertThat(stored("s1").state()).extracting(SessionState::custom).isEqualTo(Json.object());
  }

  @Test
  public void concurrentUpdatesOfOneRowLoseNothing() throws Exception {
    int threads = 8;
    int incrementsPerThread = 50;
    save(counterRow(0));
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> workers = new ArrayList<>();

    try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      for (int t = 0; t < threads; t++) {
        workers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < incrementsPerThread; i++) {
                    store()
                        .saveSnapshot(
                            context(), "counter", existing -> counterRow(counterOf(existing) + 1));
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> worker : workers) {
        worker.get(timeout().toMillis(), TimeUnit.MILLISECONDS);
      }
    }

    assertThat(counterOf(get("counter"))).isEqualTo(threads * incrementsPerThread);
  }

  private static SessionSnapshot counterRow(int count) {
    return row("counter", "sess-1", at(1))
        .withState(SessionState.empty().withCustom(Json.object().put("counter", count)));
  }

  private static int counterOf(@Nullable SessionSnapshot row) {
    SessionState state = row == null ? null : row.state();
    JsonNode custom = state == null ? null : state.custom();
    return custom == null ? 0 : custom.path("counter").asInt();
  }

  // ---- abort (Snapshots.abort) ----

  @Test
  public void abortFlipsPendingRowToAborted() {
    SessionSnapshot pending = save(row("s1", "sess-1", at(1), PENDING).withHeartbeatAt(at(2)));

    SnapshotStatus status = SnapshotFixtures.abort(context(), store(), "s1", at(7));

    assertThat(status).isEqualTo(ABORTED);
    assertThat(get("s1")).isEqualTo(pending.withStatus(ABORTED).withUpdatedAt(at(7)));
    assertThat(stored("s1").finishReason()).isNull();
  }

  @Test
  public void abortIsIdempotent() {
    save(row("s1", "sess-1", at(1), PENDING));
    SnapshotFixtures.abort(context(), store(), "s1", at(7));
    SessionSnapshot afterFirst = get("s1");

    SnapshotStatus second = SnapshotFixtures.abort(context(), store(), "s1", at(9));

    assertThat(second).isEqualTo(ABORTED);
    assertThat(get("s1")).isEqualTo(afterFirst);
  }

  @Test
  public void abortLeavesTerminalRowsAsTheyAre() {
    SessionSnapshot completed = save(row("done", "sess-1", at(1)));
    SessionSnapshot failed =
        save(
            row("broken", "sess-1", at(2), FAILED)
                .withError(ErrorInfo.of(Status.INTERNAL, "boom")));

    assertThat(SnapshotFixtures.abort(context(), store(), "done", at(7))).isEqualTo(COMPLETED);
    assertThat(SnapshotFixtures.abort(context(), store(), "broken", at(7))).isEqualTo(FAILED);

    assertThat(get("done")).isEqualTo(completed);
    assertThat(get("broken")).isEqualTo(failed);
  }

  @Test
  public void abortOfMissingRowIsNullAndWritesNothing() {
    assertThat(SnapshotFixtures.abort(context(), store(), "missing", at(7))).isNull();
    assertThat(get("missing")).isNull();
  }
}
