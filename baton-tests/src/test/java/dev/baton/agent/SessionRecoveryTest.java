package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.ForwardingSessionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No failed or aborted turn strands a session: a failed turn answers the last good snapshot, as
 * Genkit does, while its {@code failed} row stays a handle to continue from; a plain turn by
 * session ID, or from any snapshot ID the server returned, carries on from the last good state; and
 * a session whose detached first input never saved its end still takes turns and can be continued.
 */
class SessionRecoveryTest extends AgentTestSupport {
  @Test
  void aFailedTurnAnswersTheLastGoodSnapshotAndKeepsItsProgressInAFailedRow() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    List<TurnEnd> turnEnds = new ArrayList<>();
    AgentOutput output;
    try (AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW)) {
      connection.sendText("one");
      connection.sendText("boom");
      connection.close();
      for (AgentStreamChunk chunk : connection.receive()) {
        if (chunk.turnEnd() != null) {
          turnEnds.add(chunk.turnEnd());
        }
      }
      output = connection.output();
    }

    String good = turnEnds.get(0).snapshotId();
    assertThat(turnEnds.get(1))
        .as("the failed turn's end names the last good snapshot, as Genkit's does")
        .isEqualTo(new TurnEnd(AgentFinishReason.FAILED, good));
    assertThat(output.isFailed()).isTrue();
    assertThat(output.snapshotId()).isEqualTo(good);
    assertThat(output.error().message()).isEqualTo("down");
    SessionSnapshot failed = agent.snapshots().latest(output.sessionId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(failed.parentId()).isEqualTo(good);
    assertThat(texts(failed.state().messages())).containsExactly("one", "one back", "boom");

    model.respond(reply("boom back"));
    AgentOutput retried =
        agent.run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom(failed.snapshotId()),
            StreamCallback.discard());
    assertThat(retried.text()).isEqualTo("boom back");
    assertThat(texts(agent.snapshots().get(retried.snapshotId()).state().messages()))
        .containsExactly("one", "one back", "boom", "boom back");
  }

  @Test
  void aTurnBySessionOrFromAnyReturnedSnapshotAfterAFailureCarriesOnFromTheLastGoodState() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    AgentOutput first = agent.runText("one");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    agent.runText("boom", AgentInit.ofSnapshot(first.snapshotId()));
    String failedRow = agent.snapshots().latest(first.sessionId()).snapshotId();

    model.respond(reply("two back"));
    AgentOutput bySession = agent.runText("two", AgentInit.ofSession(first.sessionId()));
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "one", "one back", "two");
    SessionSnapshot row = agent.snapshots().get(bySession.snapshotId());
    assertThat(row.parentId()).isEqualTo(first.snapshotId());
    assertThat(row.sessionId()).isEqualTo(first.sessionId());

    // An older Baton answered the failed row itself: a client holding it still gets a turn.
    model.respond(reply("three back"));
    AgentOutput fromFailedRow = agent.runText("three", AgentInit.ofSnapshot(failedRow));
    assertThat(fromFailedRow.isFailed()).isFalse();
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "one", "one back", "three");
    assertThat(agent.snapshots().get(fromFailedRow.snapshotId()).parentId())
        .isEqualTo(first.snapshotId());
  }

  @Test
  void aSessionWhoseFirstTurnFailedStartsAgainFromEmptyUnderItsOwnId() {
    Agent agent = chat(server().build());
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    AgentOutput failed = agent.runText("hello");
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.snapshotId()).as("no good snapshot to answer").isNull();
    assertThat(agent.snapshots().latest(failed.sessionId()).parentId()).isNull();

    model.respond(reply("hi"));
    AgentOutput again = agent.runText("hello again", AgentInit.ofSession(failed.sessionId()));

    assertThat(again.text()).isEqualTo("hi");
    assertThat(again.sessionId()).isEqualTo(failed.sessionId());
    assertThat(texts(model.lastRequest().messages())).containsExactly("Be brief.", "hello again");
    assertThat(agent.snapshots().get(again.snapshotId()).parentId()).isNull();
  }

  @Test
  void aTurnBySessionAfterAnAbortedTurnCarriesOnFromTheLastGoodState() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    AgentOutput first = agent.runText("one");
    CountDownLatch entered = new CountDownLatch(1);
    model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("never");
    AgentOutput detached =
        agent.run(
            baton.context(),
            AgentInput.text("a long job").withDetach(true),
            AgentInit.ofSnapshot(first.snapshotId()),
            StreamCallback.discard());
    await().until(() -> entered.getCount() == 0);
    agent.snapshots().abort(detached.snapshotId());
    await().until(() -> agent.snapshots().get(detached.snapshotId()).finishReason() != null);
    assertThat(agent.snapshots().latest(first.sessionId()).status())
        .isEqualTo(SnapshotStatus.ABORTED);

    model.respond(reply("two back"));
    AgentOutput bySession = agent.runText("two", AgentInit.ofSession(first.sessionId()));
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "one", "one back", "two");
    assertThat(agent.snapshots().get(bySession.snapshotId()).parentId())
        .isEqualTo(first.snapshotId());

    // The detached output named the aborted row: a plain turn from it carries on the same way.
    model.respond(reply("three back"));
    agent.runText("three", AgentInit.ofSnapshot(detached.snapshotId()));
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "one", "one back", "three");
  }

  @Test
  void whenRetentionDeletedTheLastGoodSnapshotAPlainTurnCarriesOnFromTheFailedRowsProgress() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    AgentOutput first = agent.runText("one");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    agent.runText("boom", AgentInit.ofSnapshot(first.snapshotId()));
    Agent forgetting =
        baton.defineAgent(
            "forgetting",
            InlinePrompt.builder().model("pm").system("Be brief.").build(),
            server(new Forgetful(store, first.snapshotId())).build());

    model.respond(reply("two back"));
    AgentOutput next = forgetting.runText("two", AgentInit.ofSession(first.sessionId()));

    assertThat(next.isFailed()).isFalse();
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "one", "one back", "boom", "two");
  }

  @Test
  void aContinuationThatFailsAgainAnswersTheLastGoodSnapshotNotTheRowItContinued() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    AgentOutput first = agent.runText("one");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    agent.runText("boom", AgentInit.ofSnapshot(first.snapshotId()));
    String failedRow = agent.snapshots().latest(first.sessionId()).snapshotId();

    model.step().fail(BatonException.of(Status.UNAVAILABLE, "still down"));
    AgentOutput again =
        agent.run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom(failedRow),
            StreamCallback.discard());

    assertThat(again.isFailed()).isTrue();
    assertThat(again.snapshotId()).isEqualTo(first.snapshotId());
    SessionSnapshot failedAgain = agent.snapshots().latest(first.sessionId());
    assertThat(failedAgain.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(failedAgain.parentId())
        .as("the new progress chains off the row it continued")
        .isEqualTo(failedRow);
  }

  @Test
  void aParentFromAnotherSessionIsNotPartOfTheLastGoodState() {
    Agent agent = chat(server().build());
    model.respond(reply("theirs back"));
    AgentOutput theirs = agent.runText("theirs");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    AgentOutput mine = agent.runText("boom");
    // Only a store no Baton wrote links a row to another session's.
    SessionSnapshot failed = agent.snapshots().latest(mine.sessionId());
    store.saveSnapshot(
        baton.context(),
        failed.snapshotId(),
        existing -> failed.toBuilder().parentId(theirs.snapshotId()).build());

    model.respond(reply("two back"));
    AgentOutput next = agent.runText("two", AgentInit.ofSession(mine.sessionId()));

    assertThat(next.isFailed()).isFalse();
    assertThat(texts(model.lastRequest().messages()))
        .as("the failed row's own progress, as when its ancestors are gone")
        .containsExactly("Be brief.", "boom", "two");
  }

  @Test
  void aPendingRowRecordsTheWorkItsRunWasHanded() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("worker", entered, gate, server().build());
    AgentOutput detached;
    try (AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW)) {
      connection.sendText("first");
      await().until(() -> entered.getCount() == 0);
      connection.sendText("second");
      connection.detach();
      detached = connection.output();
    }

    assertThat(texts(agent.snapshots().get(detached.snapshotId()).state().messages()))
        .as("the turn under way and the input waiting for its turn")
        .containsExactly("first", "second");
    gate.countDown();
    assertThat(texts(agent.snapshots().waitFor(detached.snapshotId()).state().messages()))
        .containsExactly("first", "done", "second", "done");
  }

  /**
   * A session whose first input was detached and whose run never saved its end (the store went
   * away): the row expires with nothing committed before it, and is fenced with an abort. The
   * session still takes turns, starting from empty, and a continuation re-runs the detached input.
   */
  @ParameterizedTest
  @ValueSource(strings = {"memory", "file"})
  void aDetachedFirstInputWhoseRunNeverSavedItsEndStrandsNothing(String kind, @TempDir Path dir) {
    AtomicBoolean down = new AtomicBoolean();
    BrokenDisk broken =
        kind.equals("memory")
            ? new BrokenDisk(InMemorySessionStore.create(), down)
            : new BrokenDisk(
                FileSessionStore.builder(dir).pollInterval(Duration.ofMillis(10)).build(), down);
    Agent agent = chat(server(broken).build());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    model.step().signalOnEntry(entered).blockUntil(gate).respondText("lost answer");
    AgentOutput detached =
        agent.run(baton.context(), AgentInput.text("summarise the report").withDetach(true));
    String id = detached.snapshotId();
    await().until(() -> entered.getCount() == 0);
    down.set(true);
    gate.countDown();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> agent.snapshots().get(id).status() == SnapshotStatus.EXPIRED);
    // A run slowed down by a busy machine may still be beating: restore the store only once its
    // end is lost, or a late heartbeat would revive the row.
    await().until(() -> broken.finalWriteRefused.getCount() == 0);
    down.set(false);
    assertThat(agent.snapshots().abort(id)).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.snapshots().get(id).parentId()).isNull();

    model.respond(reply("hello to you"));
    AgentOutput fresh = agent.runText("hello", AgentInit.ofSession(detached.sessionId()));
    assertThat(fresh.text()).isEqualTo("hello to you");
    assertThat(fresh.sessionId()).isEqualTo(detached.sessionId());
    assertThat(texts(model.lastRequest().messages())).containsExactly("Be brief.", "hello");

    model.respond(reply("the summary"));
    AgentOutput continued =
        agent.run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom(id),
            StreamCallback.discard());
    assertThat(continued.text()).isEqualTo("the summary");
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "summarise the report");
  }

  private static List<String> texts(List<Message> messages) {
    return messages.stream().map(Message::text).toList();
  }

  /**
   * A store whose writes fail for good while {@code down} is set, and that says when it refused a
   * run's final write. The failure is not transient, so that write gives up at once rather than
   * retrying past the moment the test restores the store: the run's end is lost for certain.
   */
  private static final class BrokenDisk extends ForwardingSessionStore {
    private final AtomicBoolean down;
    final CountDownLatch finalWriteRefused = new CountDownLatch(1);

    <S extends SessionStore & SnapshotSubscriber> BrokenDisk(S delegate, AtomicBoolean down) {
      super(delegate);
      this.down = down;
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      if (down.get()) {
        // A heartbeat writes a pending row; the run's final write, a settled one.
        SessionSnapshot refused =
            snapshotId == null ? null : update.apply(super.getSnapshot(context, snapshotId));
        if (refused != null && refused.statusOrCompleted() != SnapshotStatus.PENDING) {
          finalWriteRefused.countDown();
        }
        throw BatonException.of(Status.INTERNAL, "disk corrupted");
      }
      return super.saveSnapshot(context, snapshotId, update);
    }
  }

  /** A store that has lost a row, as retention deletes one. */
  private static final class Forgetful extends ForwardingSessionStore {
    private final String forgotten;

    Forgetful(InMemorySessionStore delegate, String forgotten) {
      super(delegate);
      this.forgotten = forgotten;
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      return forgotten.equals(snapshotId) ? null : super.getSnapshot(context, snapshotId);
    }
  }
}
