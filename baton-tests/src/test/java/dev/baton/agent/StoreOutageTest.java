package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Status;
import dev.baton.testing.ForwardingSessionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A store that fails for a while, as a database does while it restarts or fails over: nothing a
 * caller was told is done may be lost. A turn is acknowledged only once its snapshot is committed
 * (its save is retried for up to the heartbeat timeout, then the turn fails UNAVAILABLE with its
 * answer kept), a detached run's abort watch and final write are retried, and a wait rides out a
 * subscription that fails.
 */
class StoreOutageTest extends AgentTestSupport {
  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(1);

  private final OutageStore outage = new OutageStore(store);

  private Agent agent() {
    return chat(
        AgentOptions.builder()
            .sessionStore(outage)
            .heartbeat(Duration.ofMillis(50), HEARTBEAT_TIMEOUT)
            .waitPollInterval(Duration.ofMillis(10))
            .build());
  }

  private static List<String> texts(SessionSnapshot row) {
    return row.state().messages().stream().map(Message::text).toList();
  }

  @Test
  void aTurnEndTheStoreRefusesForAMomentIsSavedOnRetryAndThenAcknowledged() {
    Agent agent = agent();
    model.respond(reply("hi"));
    outage.refuse(2);

    AgentOutput output = agent.runText("hello");

    assertThat(output.isFailed()).as("%s", output.error()).isFalse();
    assertThat(output.text()).isEqualTo("hi");
    SessionSnapshot saved = store.getSnapshot(baton.context(), output.snapshotId());
    assertThat(saved.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(texts(saved)).containsExactly("hello", "hi");
    assertThat(outage.attempts()).isEqualTo(3);
  }

  @Test
  void aRetriedTurnEndWhoseFirstAttemptCommittedAfterAllLeavesOneRow() {
    Agent agent = agent();
    model.respond(reply("hi"));
    outage.loseAcknowledgements(1);

    AgentOutput output = agent.runText("hello");

    assertThat(output.isFailed()).as("%s", output.error()).isFalse();
    assertThat(store.getLatestSnapshot(baton.context(), output.sessionId()).snapshotId())
        .isEqualTo(output.snapshotId());
    assertThat(texts(store.getSnapshot(baton.context(), output.snapshotId())))
        .containsExactly("hello", "hi");
  }

  @Test
  void aTurnEndTheStoreKeepsRefusingFailsUnavailableWithTheAnswerKeptAndTheLastGoodSnapshot() {
    Agent agent = agent();
    model.respond(reply("hi"), reply("still here"));
    AgentOutput first = agent.runText("hello");
    outage.refuse(Integer.MAX_VALUE);

    List<TurnEnd> turnEnds = new ArrayList<>();
    AgentOutput second =
        agent.run(
            baton.context(),
            AgentInput.text("are you there?"),
            AgentInit.ofSession(first.sessionId()),
            chunk -> {
              if (chunk.turnEnd() != null) {
                turnEnds.add(chunk.turnEnd());
              }
            });

    assertThat(second.isFailed()).isTrue();
    assertThat(second.error().status()).isEqualTo("UNAVAILABLE");
    // The answer is kept, so the caller can show it or send the question again.
    assertThat(second.text()).isEqualTo("still here");
    assertThat(second.snapshotId()).isEqualTo(first.snapshotId());
    assertThat(turnEnds).containsExactly(new TurnEnd(AgentFinishReason.FAILED, first.snapshotId()));
    assertThat(outage.attempts()).as("attempts of the second turn's save").isGreaterThan(2);
    assertThat(store.getLatestSnapshot(baton.context(), first.sessionId()).snapshotId())
        .isEqualTo(first.snapshotId());
  }

  @Test
  void aTurnCancelledWhileItsEndIsRetriedStopsRetryingAndEndsCancelled() {
    // A long heartbeat timeout: the retries would hold the caller for a minute.
    Agent agent =
        chat(
            AgentOptions.builder()
                .sessionStore(outage)
                .heartbeat(Duration.ofMillis(50), Duration.ofSeconds(60))
                .build());
    model.respond(reply("hi"));
    outage.refuse(Integer.MAX_VALUE);
    Cancellation client = Cancellation.create();
    CompletableFuture<AgentOutput> run =
        CompletableFuture.supplyAsync(
            () ->
                agent.run(
                    baton.context().withCancellation(client),
                    AgentInput.text("hello"),
                    AgentInit.NEW,
                    chunk -> {}));
    await().until(() -> outage.attempts() >= 2);

    client.cancel();

    // Generous: without the cancellation the retries would block for the whole minute.
    assertThatThrownBy(() -> run.get(10, TimeUnit.SECONDS))
        .cause()
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
  }

  @Test
  void aTurnEndTheStoreRejectsFailsTheTurnAtOnceWithTheStoresStatus() {
    Agent agent = agent();
    model.respond(reply("hi"));
    outage.refuse(Integer.MAX_VALUE, BatonException.invalidArgument("the row holds a bad value"));

    AgentOutput output = agent.runText("hello");

    assertThat(output.isFailed()).isTrue();
    assertThat(output.error().status()).isEqualTo("INVALID_ARGUMENT");
    assertThat(output.text()).isEqualTo("hi");
    assertThat(outage.attempts()).as("a refusal that retrying cannot change").isEqualTo(1);
  }

  @Test
  void aCustomAgentThatCarriesOnAfterATurnWhoseEndWasNotSavedIsNotAcknowledged() {
    Agent agent =
        baton.defineCustomAgent(
            "carrier",
            runner -> {
              try {
                runner.run(
                    (ctx, input) -> {
                      runner.session().addMessage(Message.model("done"));
                      return AgentFinishReason.STOP;
                    });
              } catch (BatonException ignored) {
                // A custom agent may catch a failed turn and carry on.
              }
              return runner.result();
            },
            AgentOptions.builder()
                .sessionStore(outage)
                .heartbeat(Duration.ofMillis(50), HEARTBEAT_TIMEOUT)
                .build());
    outage.refuse(Integer.MAX_VALUE);

    AgentOutput output = agent.runText("work");

    assertThat(output.isFailed()).isTrue();
    assertThat(output.error().status()).isEqualTo("UNAVAILABLE");
    assertThat(output.text()).isEqualTo("done");
  }

  @Test
  void aDetachedRunsFinalWriteIsRetriedWithinTheHeartbeatWindow() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "finisher",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(outage)
                .heartbeat(Duration.ofMillis(50), HEARTBEAT_TIMEOUT)
                .waitPollInterval(Duration.ofMillis(10))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    // Only the final write fails: the heartbeats, which leave the row pending, go through.
    outage.refuse(3, row -> row.statusOrCompleted() != SnapshotStatus.PENDING);

    gate.countDown();

    SessionSnapshot settled = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(texts(settled)).containsExactly("go", "done");
  }

  @Test
  void aDetachedRunKeepsBeatingWhileItsFinalWriteIsRetried() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        gated(
            "finisher",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(outage)
                .heartbeat(Duration.ofMillis(50), HEARTBEAT_TIMEOUT)
                .waitPollInterval(Duration.ofMillis(10))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    outage.refuse(Integer.MAX_VALUE, row -> row.statusOrCompleted() != SnapshotStatus.PENDING);

    gate.countDown();
    await().until(() -> outage.attempts() >= 1);
    Instant beatBeforeRetries = heartbeatAt(detached.snapshotId());

    // Still live while the final write is retried: a waiter must not be told it expired.
    await()
        .atMost(HEARTBEAT_TIMEOUT.dividedBy(2))
        .until(() -> heartbeatAt(detached.snapshotId()).isAfter(beatBeforeRetries));
    outage.refuse(0);
    SessionSnapshot settled = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  private Instant heartbeatAt(String snapshotId) {
    Instant at = store.getSnapshot(baton.context(), snapshotId).heartbeatAt();
    assertThat(at).as("the pending row's heartbeat").isNotNull();
    return at;
  }

  @Test
  void aDetachDuringASubscriptionOutageAnswersAtOnceWithAPendingRow() {
    Agent agent = agent();
    model.respond(reply("done in the background"));
    outage.refuseSubscriptions(Integer.MAX_VALUE);

    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));

    // Answered before the watch was in place: the row is still pending, not failed unwatched.
    assertThat(store.getSnapshot(baton.context(), detached.snapshotId()).status())
        .isEqualTo(SnapshotStatus.PENDING);
    await().until(() -> outage.subscriptionsRefused() >= 1);
    outage.refuseSubscriptions(0);
    SessionSnapshot settled = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(settled.status()).as("%s", settled.error()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aDetachedRunWhoseAbortWatchTheStoreRefusesForAMomentWatchesOnRetryAndRuns() {
    Agent agent = agent();
    model.respond(reply("done in the background"));
    outage.refuseSubscriptions(2);

    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));

    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    SessionSnapshot settled = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(settled.status()).as("%s", settled.error()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(texts(settled)).containsExactly("go", "done in the background");
    assertThat(outage.subscriptionsRefused()).isEqualTo(2);
  }

  @Test
  void aWaitThatStartsDuringAnOutageSubscribesOnceTheStoreIsBack() {
    Agent agent = agent();
    model.respond(reply("hi"));
    AgentOutput output = agent.runText("hello");
    outage.refuseSubscriptions(2);

    SessionSnapshot settled = agent.snapshots().waitFor(output.snapshotId());

    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(outage.subscriptionsRefused()).isEqualTo(2);
  }

  @Test
  void aWaitWhoseStoreStaysDownGivesUpUnavailableAfterItsTransientFailures() {
    Agent agent = agent();
    model.respond(reply("hi"));
    AgentOutput output = agent.runText("hello");
    outage.refuseSubscriptions(Integer.MAX_VALUE);

    assertThatThrownBy(() -> agent.snapshots().waitFor(output.snapshotId()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE));
    // The first attempt and the three transient failures a wait tolerates.
    assertThat(outage.subscriptionsRefused()).isEqualTo(4);
  }

  /**
   * A store whose writes fail, on demand, as a database's do in an outage: refused before they
   * write, or written and then reported failed (the connection died before the commit was
   * acknowledged). Its status subscriptions can be refused too. Counts the write attempts.
   */
  private static final class OutageStore extends ForwardingSessionStore {
    private final InMemorySessionStore rows;
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger unacknowledged = new AtomicInteger();
    private final AtomicInteger refusedSubscriptions = new AtomicInteger();
    private final AtomicInteger subscriptionsRefused = new AtomicInteger();
    private final AtomicInteger attempts = new AtomicInteger();
    private volatile Predicate<SessionSnapshot> failing = row -> true;
    private volatile BatonException failure = unavailable();

    OutageStore(InMemorySessionStore rows) {
      super(rows);
      this.rows = rows;
    }

    private static BatonException unavailable() {
      return BatonException.of(Status.UNAVAILABLE, "the database is restarting");
    }

    /** The next {@code times} writes fail UNAVAILABLE without writing. */
    void refuse(int times) {
      refuse(times, unavailable());
    }

    /** The next {@code times} writes fail with {@code error} without writing. */
    void refuse(int times, BatonException error) {
      failure = error;
      refused.set(times);
      attempts.set(0);
    }

    /** The next {@code times} writes of rows that match {@code which} fail UNAVAILABLE. */
    void refuse(int times, Predicate<SessionSnapshot> which) {
      failing = which;
      refuse(times);
    }

    /** The next {@code times} writes are committed and then reported failed. */
    void loseAcknowledgements(int times) {
      unacknowledged.set(times);
      attempts.set(0);
    }

    void refuseSubscriptions(int times) {
      refusedSubscriptions.set(times);
    }

    /** Write attempts since the last call that set a failure. */
    int attempts() {
      return attempts.get();
    }

    int subscriptionsRefused() {
      return subscriptionsRefused.get();
    }

    private static boolean take(AtomicInteger remaining) {
      return remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      SessionSnapshot next =
          snapshotId == null ? null : update.apply(rows.getSnapshot(context, snapshotId));
      if (next == null || !failing.test(next)) {
        return super.saveSnapshot(context, snapshotId, update);
      }
      attempts.incrementAndGet();
      if (take(refused)) {
        throw failure;
      }
      SessionSnapshot saved = super.saveSnapshot(context, snapshotId, update);
      if (take(unacknowledged)) {
        throw unavailable();
      }
      return saved;
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      if (take(refusedSubscriptions)) {
        subscriptionsRefused.incrementAndGet();
        throw unavailable();
      }
      return super.onSnapshotStatusChange(context, snapshotId);
    }
  }
}
