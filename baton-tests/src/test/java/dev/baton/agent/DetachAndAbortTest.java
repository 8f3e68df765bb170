package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.Snapshots;
import dev.baton.testing.ForwardingSessionStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work that outlives its client: detached runs completing or failing in the background, aborts,
 * heartbeats and expiry, {@code waitForSnapshot}, agent handles, and continuing from a failed or
 * aborted snapshot.
 */
class DetachAndAbortTest extends AgentTestSupport {
  @Test
  void aDetachedRunCompletesInTheBackgroundAndWaitForSnapshotSeesIt() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("worker", entered, gate, server().build());
    model.respond(reply("unused"));

    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    SessionSnapshot pending = agent.snapshots().get(detached.snapshotId());
    assertThat(pending.status()).isEqualTo(SnapshotStatus.PENDING);
    assertThat(pending.state().messages()).extracting(Message::text).containsExactly("go");
    assertThat(pending.heartbeatAt()).isNotNull();

    await().atMost(Duration.ofSeconds(5)).until(() -> entered.getCount() == 0);
    gate.countDown();
    SessionSnapshot settled = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("go", "done");
    assertThat(settled.sessionId()).isEqualTo(detached.sessionId());
    assertThat(settled.heartbeatAt()).isNull();
  }

  @Test
  void aDetachAfterCompletedTurnsChainsThePendingRowOffTheLastOne() {
    CountDownLatch entered = new CountDownLatch(2);
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch firstGate = new CountDownLatch(0);
    AtomicBoolean first = new AtomicBoolean(true);
    Agent agent =
        baton.defineCustomAgent(
            "chain",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    entered.countDown();
                    awaitOrCancel(ctx, first.getAndSet(false) ? firstGate : gate);
                    return AgentFinishReason.STOP;
                  });
              return runner.result();
            },
            server().build());
    AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW);
    connection.sendText("one");
    String firstSnapshot = null;
    for (AgentStreamChunk chunk : connection.receive()) {
      if (chunk.turnEnd() != null) {
        firstSnapshot = chunk.turnEnd().snapshotId();
        break;
      }
    }
    connection.sendText("two");
    await().until(() -> entered.getCount() == 0);
    connection.detach();
    AgentOutput output = connection.output();
    assertThat(agent.snapshots().get(output.snapshotId()).parentId()).isEqualTo(firstSnapshot);
    gate.countDown();
    assertThat(agent.snapshots().waitFor(output.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aDetachedFailureFinalisesAsFailedAndAPlainTurnFromItStartsFromTheLastGoodState() {
    Agent agent =
        baton.defineCustomAgent(
            "failing",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    throw BatonException.of(Status.UNAVAILABLE, "kaboom");
                  });
              return runner.result();
            },
            server().build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    SessionSnapshot failed = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(failed.error().message()).isEqualTo("kaboom");
    assertThat(failed.state().messages()).extracting(Message::text).containsExactly("go");

    // Nothing was committed before the run: the turn starts from an empty session.
    AgentOutput again = agent.runText("again", AgentInit.ofSnapshot(detached.snapshotId()));
    assertThat(again.error().message()).isEqualTo("kaboom");
    assertThat(agent.snapshots().latest(detached.sessionId()).state().messages())
        .extracting(Message::text)
        .containsExactly("again");
  }

  @Test
  void detachNeedsAStoreThatCanNotify() {
    Agent clientManaged = chat(AgentOptions.DEFAULTS);
    AgentOutput output = clientManaged.run(baton.context(), AgentInput.text("x").withDetach(true));
    assertThat(output.isFailed()).isTrue();
    assertThat(output.error().status()).isEqualTo("FAILED_PRECONDITION");
    assertThat(output.error().message()).contains("detach requires a session store");
  }

  @Test
  void aDetachTheAgentCannotTakeIsRefusedBeforeAnyOfItsInputRuns() throws Exception {
    CountDownLatch waiting = new CountDownLatch(1);
    CountDownLatch returned = new CountDownLatch(1);
    AtomicInteger turns = new AtomicInteger();
    Agent agent =
        baton.defineCustomAgent(
            "counting",
            runner -> {
              try {
                waiting.countDown();
                runner.run(
                    (ctx, input) -> {
                      turns.incrementAndGet();
                      return AgentFinishReason.STOP;
                    });
                return runner.result();
              } finally {
                returned.countDown();
              }
            },
            AgentOptions.DEFAULTS);
    AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW);
    // The function is already waiting for input: any input handed to it would run as a turn.
    assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();

    connection.send(AgentInput.text("in the background").withDetach(true));
    AgentOutput output = connection.output();

    assertThat(output.error().status()).isEqualTo("FAILED_PRECONDITION");
    assertThat(returned.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(turns).as("turns the refused detach ran").hasValue(0);
  }

  @Test
  void aDetachWhoseStoreIsDownReportsTheStoresStatusNotACapabilityError() {
    Agent agent =
        chat(
            AgentOptions.builder()
                .sessionStore(
                    new FlakyStore(InMemorySessionStore.create(), new AtomicBoolean(true)))
                .build());
    AgentOutput output = agent.run(baton.context(), AgentInput.text("x").withDetach(true));
    assertThat(output.isFailed()).isTrue();
    // FAILED_PRECONDITION would tell a delegating orchestrator to stop trying background runs.
    assertThat(output.error().status()).isEqualTo("UNAVAILABLE");
    assertThat(output.error().message()).contains("save pending snapshot").contains("disk gone");
  }

  @Test
  void abortingALiveRunStopsItAndKeepsItsProgressResumable() {
    CountDownLatch entered = new CountDownLatch(1);
    Agent agent = gated("slow", entered, new CountDownLatch(1), server().build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("work").withDetach(true));
    await().until(() -> entered.getCount() == 0);

    assertThat(agent.snapshots().abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    SessionSnapshot aborted =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> agent.snapshots().get(detached.snapshotId()), s -> s.finishReason() != null);
    assertThat(aborted.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(aborted.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(aborted.updatedAt()).isAfter(aborted.createdAt());
    assertThat(aborted.state().messages()).extracting(Message::text).containsExactly("work");
    assertThat(aborted.error()).isNull();

    assertThat(agent.snapshots().abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.snapshots().abort("missing")).isNull();
  }

  @Test
  void waitForSnapshotGivesUpOnAReadThatHangsAndReadsAgain() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger hangingReads = new AtomicInteger();
    Agent agent =
        gated(
            "hanging-reads",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(
                    new FlakyStore(store, new AtomicBoolean(), new AtomicInteger(), hangingReads))
                // Beats far apart: only waitReadTimeout can end the hung read within the test.
                .heartbeat(Duration.ofSeconds(30), Duration.ofSeconds(60))
                .waitPollInterval(Duration.ofMillis(10))
                .waitReadTimeout(Duration.ofMillis(100))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> agent.snapshots().waitFor(detached.snapshotId()));

    // A read is bounded by waitReadTimeout; one that hangs counts as a transient failure.
    hangingReads.set(1);
    gate.countDown();

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(hangingReads).hasValue(0);
  }

  @Test
  void abortLeavesTerminalSnapshotsAlone() {
    Agent agent = chat(server().build());
    model.respond(reply("hi"));
    AgentOutput done = agent.runText("hello");
    assertThat(agent.snapshots().abort(done.snapshotId())).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(agent.snapshots().get(done.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
    assertThatThrownBy(
            () ->
                baton
                    .registry()
                    .lookup("/agent-abort/chat")
                    .orElseThrow()
                    .runJson(
                        baton.context(),
                        Json.parse("{\"snapshotId\":\"nope\"}"),
                        StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }

  @Test
  void anAgentWhoseStoreCannotNotifyRefusesAnAbortAndPublishesNoAbortAction() {
    // A store that only reads and writes: nothing could tell a running worker to stop.
    SessionStore plain = new RowsOnly(store);
    Agent agent = chat(server(plain).build());
    model.respond(reply("hi"));
    AgentOutput done = agent.runText("hello");

    assertThat(agent.metadata().isAbortable()).isFalse();

    assertThatThrownBy(() -> agent.snapshots().abort(done.snapshotId()))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
    assertThat(baton.registry().lookup("/agent-abort/chat")).isEmpty();
    assertThat(agent.snapshots().get(done.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aClientThatLeavesAfterDetachingDoesNotStopTheWork() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("leaver", entered, gate, server().build());
    ActionContext client = baton.context();
    AgentConnection connection = agent.connect(client, AgentInit.NEW);
    connection.send(AgentInput.text("go").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    // The client goes away before it even reads the answer.
    client.cancellation().cancel();
    for (AgentStreamChunk ignored : connection.receive()) {
      throw new AssertionError("a detached run streams nothing");
    }
    String pending = connection.output().snapshotId();
    gate.countDown();

    SessionSnapshot settled = agent.snapshots().waitFor(pending);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("go", "done");
  }

  @Test
  void aDetachedConnectionSettlesWithoutBeingClosed() {
    Agent agent = gated("unclosed", new CountDownLatch(1), new CountDownLatch(0), server().build());
    AgentConnection connection = agent.connect(baton.context(), AgentInit.NEW);
    connection.sendText("first");
    connection.detach();
    connection.receive().forEach(chunk -> {});
    SessionSnapshot settled = agent.snapshots().waitFor(connection.output().snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  /**
   * A third-party store's unsubscribe that throws when the run ends must not leave the row pending,
   * nor the instance's drain (which a server's graceful shutdown waits on) waiting for ever.
   */
  @Test
  void aRunWhoseStoreFailsToUnsubscribeIsStillFinalisedAndReported() throws Exception {
    SubscriptionStore failingClose =
        new SubscriptionStore(
            store,
            inner ->
                new StatusSubscription(
                    () -> {
                      inner.close();
                      throw new IllegalStateException("unsubscribe failed");
                    }));
    Agent agent =
        gated("unsubscriber", new CountDownLatch(1), new CountDownLatch(0), watched(failingClose));
    AgentOutput detached = runDetached(agent);

    assertThat(baton.drain(Duration.ofSeconds(10))).as("the run ended").isTrue();
    SessionSnapshot settled = agent.snapshots().get(detached.snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.heartbeatAt()).isNull();
  }

  /**
   * A run whose abort watch cannot be set up (here a store hands out a subscription that already
   * has a listener, which no retry mends) is stopped and its row failed, and the instance's drain
   * hears it ended. The watch is set up off the client's thread, so the detach has answered by
   * then.
   */
  @Test
  void aRunWhoseAbortWatchCannotStartIsStoppedFailedAndReported() throws Exception {
    SubscriptionStore taken =
        new SubscriptionStore(
            store,
            inner -> {
              inner.listen(status -> {});
              return inner;
            });
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("unwatched", new CountDownLatch(1), gate, watched(taken));
    AgentOutput detached = runDetached(agent);

    assertThat(baton.drain(Duration.ofSeconds(10))).as("the run ended").isTrue();
    SessionSnapshot failed = agent.snapshots().get(detached.snapshotId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(failed.error().status()).isEqualTo("INTERNAL");
    assertThat(failed.heartbeatAt()).isNull();
  }

  private static AgentOptions watched(SessionStore store) {
    return AgentOptions.builder()
        .sessionStore(store)
        .heartbeat(Duration.ofMillis(50), Duration.ofMillis(400))
        .build();
  }

  private AgentOutput runDetached(Agent agent) {
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("go").withDetach(true));
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    return detached;
  }

  /** A store that hands out its own subscription around the in-memory store's. */
  private static final class SubscriptionStore extends ForwardingSessionStore {
    private final Function<StatusSubscription, StatusSubscription> wrap;

    SubscriptionStore(
        InMemorySessionStore delegate, Function<StatusSubscription, StatusSubscription> wrap) {
      super(delegate);
      this.wrap = wrap;
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      StatusSubscription inner = super.onSnapshotStatusChange(context, snapshotId);
      StatusSubscription outer = wrap.apply(inner);
      if (outer != inner) {
        inner.listen(outer::offer);
      }
      return outer;
    }
  }

  @Test
  void anAbortFromAnotherProcessStopsTheWorker(@TempDir Path dir) {
    FileSessionStore mine =
        FileSessionStore.builder(dir).pollInterval(Duration.ofMillis(10)).build();
    FileSessionStore theirs =
        FileSessionStore.builder(dir).pollInterval(Duration.ofMillis(10)).build();
    CountDownLatch entered = new CountDownLatch(1);
    Agent agent =
        gated(
            "remote-abort",
            entered,
            new CountDownLatch(1),
            AgentOptions.builder()
                .sessionStore(mine)
                .heartbeat(Duration.ofMillis(50), Duration.ofSeconds(5))
                .build());
    AgentOutput detached = agent.run(baton.context(), AgentInput.text("work").withDetach(true));
    await().until(() -> entered.getCount() == 0);

    assertThat(Snapshots.abort(baton.context(), theirs, detached.snapshotId(), Instant.now()))
        .isEqualTo(SnapshotStatus.ABORTED);

    SessionSnapshot settled =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> theirs.getSnapshot(baton.context(), detached.snapshotId()),
                s -> s.finishReason() != null);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
  }

  @Test
  void aContinuationResumesAFailedSnapshotAndRetriesItsTurn() {
    Agent agent = chat(server().build());
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "flaky"));
    AgentOutput detached =
        agent.run(baton.context(), AgentInput.text("summarise").withDetach(true));
    SessionSnapshot failed = agent.snapshots().waitFor(detached.snapshotId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);

    model.respond(reply("summary"));
    AgentOutput retried =
        agent.run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom(failed.snapshotId()),
            StreamCallback.discard());

    assertThat(retried.text()).isEqualTo("summary");
    SessionSnapshot after = agent.snapshots().get(retried.snapshotId());
    assertThat(after.parentId()).isEqualTo(failed.snapshotId());
    assertThat(after.sessionId()).isEqualTo(detached.sessionId());
    assertThat(after.state().messages())
        .extracting(Message::text)
        .containsExactly("summarise", "summary");
    assertThat(model.lastRequest().messages())
        .extracting(Message::text)
        .containsExactly("Be brief.", "summarise");
  }

  @Test
  void aContinuationResumesAnAbortedSnapshotWithNewInstructions() {
    CountDownLatch entered = new CountDownLatch(1);
    Agent slow = gated("slow", entered, new CountDownLatch(1), server().build());
    AgentOutput detached = slow.run(baton.context(), AgentInput.text("long job").withDetach(true));
    await().until(() -> entered.getCount() == 0);
    slow.snapshots().abort(detached.snapshotId());
    await().until(() -> slow.snapshots().get(detached.snapshotId()).finishReason() != null);

    CountDownLatch open = new CountDownLatch(0);
    Agent resumed =
        gated(
            "resumed",
            new CountDownLatch(1),
            open,
            AgentOptions.builder().sessionStore(store).build());
    AgentOutput continued =
        resumed.runText("shorter job", AgentInit.continueFrom(detached.snapshotId()));
    assertThat(continued.isFailed()).isFalse();
    assertThat(resumed.snapshots().get(continued.snapshotId()).state().messages())
        .extracting(Message::text)
        .containsExactly("long job", "shorter job", "done");
  }

  @Test
  void aRetryNeedsAnUnfinishedTurn() {
    Agent agent = chat(server().build());
    model.respond(reply("fine"));
    AgentOutput done = agent.runText("hello");
    AgentOutput retried =
        agent.run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.ofSnapshot(done.snapshotId()),
            StreamCallback.discard());
    assertThat(retried.isFailed()).isTrue();
    assertThat(retried.error().message()).contains("no unfinished turn");
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void anAgentFoundByNameStartsPollsWaitsForAndAbortsABackgroundTask() {
    CountDownLatch entered = new CountDownLatch(1);
    gated("worker", entered, new CountDownLatch(1), server().build());
    Agent worker = baton.agent("worker");
    assertThat(worker.metadata().stateManagement()).isEqualTo(StateManagement.SERVER);
    assertThat(worker.metadata().isAbortable()).isTrue();

    AgentOutput launched =
        worker.run(
            baton.context(),
            AgentInput.text("go").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    assertThat(launched.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    String task = launched.snapshotId();
    await().until(() -> entered.getCount() == 0);
    assertThat(worker.snapshots().get(task).status()).isEqualTo(SnapshotStatus.PENDING);
    assertThat(worker.snapshots().abort(task)).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(worker.snapshots().waitFor(task).status()).isEqualTo(SnapshotStatus.ABORTED);
  }

  @Test
  void anAgentFoundByNameReportsWhatItCannotDo() {
    chat(AgentOptions.DEFAULTS);
    assertThatThrownBy(() -> baton.agent("ghost"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessage("agent \"ghost\" not found in registry");
    Agent client = baton.agent("chat");
    assertThatThrownBy(() -> client.snapshots().get("s"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("session store not configured");
    assertThatThrownBy(() -> client.snapshots().abort("s"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("session store not configured");
    AgentOutput refused =
        client.run(
            baton.context(),
            AgentInput.text("x").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    assertThat(refused.finishReason()).isEqualTo(AgentFinishReason.FAILED);
    assertThat(refused.error().status()).isEqualTo("FAILED_PRECONDITION");
    assertThat(refused.error().message()).contains("detach requires a session store");
  }

  @Test
  void aBackgroundStreamFollowsTheDetachedWorkAndEndsOnceItsRowIsFinal() throws Exception {
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        baton.defineCustomAgent(
            "artist",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    runner.sendArtifact(Artifact.text("draft", "one"));
                    awaitOrCancel(ctx, gate);
                    runner.sendArtifact(Artifact.text("draft", "two"));
                    return AgentFinishReason.STOP;
                  });
              return runner.result();
            },
            server().build());
    java.util.concurrent.LinkedBlockingQueue<Artifact> seen =
        new java.util.concurrent.LinkedBlockingQueue<>();
    CompletableFuture<SnapshotStatus> endedOn = new CompletableFuture<>();
    String[] id = new String[1];
    BackgroundStream observer =
        new BackgroundStream() {
          @Override
          public void onChunk(AgentStreamChunk chunk) {
            if (chunk.artifact() != null) {
              seen.add(chunk.artifact());
            }
          }

          @Override
          public void onEnd() {
            // The row is final by now: a plain read sees it settled.
            endedOn.complete(agent.snapshots().get(id[0]).status());
          }
        };

    AgentOutput detached =
        agent.run(baton.context(), AgentInput.text("go").withDetach(true), AgentInit.NEW, observer);
    id[0] = detached.snapshotId();
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    // The first artifact arrives while the work is still held at the gate.
    assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(Artifact.text("draft", "one"));
    assertThat(endedOn).isNotDone();
    gate.countDown();
    assertThat(seen.poll(10, TimeUnit.SECONDS)).isEqualTo(Artifact.text("draft", "two"));
    assertThat(endedOn.get(10, TimeUnit.SECONDS)).isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aBackgroundStreamOfARunThatDoesNotDetachIsEndedByTheCall() {
    AtomicInteger ends = new AtomicInteger();
    BackgroundStream observer =
        new BackgroundStream() {
          @Override
          public void onChunk(AgentStreamChunk chunk) {}

          @Override
          public void onEnd() {
            ends.incrementAndGet();
          }
        };
    Agent clientManaged = chat(AgentOptions.DEFAULTS);
    model.respond(reply("hi"));
    clientManaged.run(baton.context(), AgentInput.text("x"), AgentInit.NEW, observer);
    AgentOutput refused =
        clientManaged.run(
            baton.context(), AgentInput.text("x").withDetach(true), AgentInit.NEW, observer);
    assertThat(refused.isFailed()).isTrue();
    assertThat(ends).hasValue(2);
  }
}
