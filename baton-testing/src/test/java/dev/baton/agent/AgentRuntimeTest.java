package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentRuntimeTest {
  private final Baton baton = Baton.builder().experimental().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final InMemorySessionStore store = InMemorySessionStore.create();

  private AgentOptions.Builder server() {
    return AgentOptions.builder()
        .sessionStore(store)
        .heartbeat(Duration.ofMillis(50), Duration.ofMillis(400))
        .waitPollInterval(Duration.ofMillis(10));
  }

  private Agent chat(AgentOptions options) {
    return baton.defineAgent(
        "chat", InlinePrompt.builder().model("pm").system("Be brief.").build(), options);
  }

  private static ModelResponse reply(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }

  /** A custom agent whose turns wait for a gate (or cancellation), then answer "done". */
  private Agent gated(
      String name, CountDownLatch entered, CountDownLatch gate, AgentOptions options) {
    return baton.defineCustomAgent(
        name,
        runner -> {
          runner.run(
              (ctx, input) -> {
                entered.countDown();
                awaitOrCancel(ctx, gate);
                runner.session().addMessage(Message.model("done"));
                return TurnResult.STOP;
              });
          return runner.result();
        },
        options);
  }

  private static void awaitOrCancel(ActionContext ctx, CountDownLatch gate) {
    try (var wake = ctx.cancellation().onCancel(gate::countDown)) {
      assertThat(gate.await(60, TimeUnit.SECONDS)).as("the test opened the gate").isTrue();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    ctx.cancellation().throwIfCancelled();
  }

  @Test
  void theExperimentalGateGuardsAgentDefinitions() {
    Baton plain = Baton.builder().build();
    assertThatThrownBy(() -> plain.defineAgent("a", InlinePrompt.builder().model("pm").build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Baton.defineAgent: experimental features are not enabled");
  }

  @Test
  void optionsCanBeSetOnlyOnce() {
    assertThatThrownBy(() -> AgentOptions.builder().description("a").description("b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set description more than once");
  }

  @Test
  void eachTurnSeesItsReservedSnapshotIdAndItsParent() {
    List<TurnContext> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    Agent agent =
        baton.defineCustomAgent(
            "turns",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    seen.add(ctx.get(TurnContext.KEY).orElseThrow());
                    runner.session().addMessage(Message.model("ok"));
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            server().build());
    List<String> turnEnds = new java.util.ArrayList<>();
    try (AgentConnection connection = agent.connect(AgentInit.NEW)) {
      connection.sendText("one");
      connection.sendText("two");
      connection.close();
      for (AgentStreamChunk chunk : connection.receive()) {
        if (chunk.turnEnd() != null) {
          turnEnds.add(chunk.turnEnd().snapshotId());
        }
      }
      assertThat(connection.output().snapshotId()).isEqualTo(turnEnds.get(1));
    }
    assertThat(seen).extracting(TurnContext::turnIndex).containsExactly(0, 1);
    assertThat(seen).extracting(TurnContext::snapshotId).containsExactlyElementsOf(turnEnds);
    assertThat(seen.get(0).parentSnapshotId()).isEmpty();
    assertThat(seen.get(1).parentSnapshotId()).isEqualTo(turnEnds.get(0));
    assertThat(agent.getSnapshot(turnEnds.get(1)).parentId()).isEqualTo(turnEnds.get(0));
  }

  @Test
  void aFailedTurnKeepsTheLastGoodStateForAClientManagedAgent() {
    Agent agent = chat(AgentOptions.DEFAULTS);
    model.respond(reply("one back"));
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "model timeout"));
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("one");
    connection.sendText("boom");
    AgentOutput output = connection.output();

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.FAILED);
    assertThat(output.error().status()).isEqualTo("UNAVAILABLE");
    assertThat(output.error().message()).isEqualTo("model timeout");
    assertThat(output.state().messages())
        .extracting(Message::text)
        .containsExactly("one", "one back");
    assertThat(output.message()).isNull();
  }

  @Test
  void aFailedTurnPointsAtTheLastGoodSnapshotAndWritesNoRow() {
    Agent agent = chat(server().build());
    model.respond(reply("one back"));
    AgentOutput first = agent.runText("one");
    model.step().fail(BatonException.of(Status.UNAVAILABLE, "down"));
    AgentOutput failed = agent.runText("boom", AgentInit.ofSnapshot(first.snapshotId()));

    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.snapshotId()).isEqualTo(first.snapshotId());
    assertThat(agent.getLatestSnapshot(first.sessionId()).snapshotId())
        .isEqualTo(first.snapshotId());
  }

  @Test
  void aPromptsScaffoldingIsNeverStoredWhileItsTrimmingAndReorderingPersist() {
    Message exampleQuestion = Message.user("example question");
    AtomicReference<UnaryOperator<List<Message>>> shape = new AtomicReference<>(h -> h);
    Agent agent =
        baton.defineAgent(
            "shaped",
            InlinePrompt.builder()
                .model("pm")
                .system("Be brief.")
                .messages(
                    ctx -> {
                      List<Message> rendered = new ArrayList<>(List.of(exampleQuestion));
                      rendered.addAll(shape.get().apply(ctx.history()));
                      return rendered;
                    })
                .build(),
            server().build());
    model.respond(reply("r1"), reply("r2"), reply("r3"), reply("r4"));
    AgentOutput first = agent.runText("u1");
    AgentOutput second = agent.runText("u2", AgentInit.ofSnapshot(first.snapshotId()));
    assertThat(texts(model.lastRequest().messages()))
        .containsExactly("Be brief.", "example question", "u1", "r1", "u2");
    assertThat(texts(agent.getSnapshot(second.snapshotId()).state().messages()))
        .as("the system prompt and the example are scaffolding")
        .containsExactly("u1", "r1", "u2", "r2");

    shape.set(h -> h.subList(2, h.size()).reversed());
    AgentOutput trimmed = agent.runText("u3", AgentInit.ofSnapshot(second.snapshotId()));
    assertThat(texts(agent.getSnapshot(trimmed.snapshotId()).state().messages()))
        .as("the dropped exchange is gone and the new order stays")
        .containsExactly("u3", "r2", "u2", "r3");

    shape.set(h -> h.stream().map(m -> m.text().equals("r2") ? Message.model("r2") : m).toList());
    AgentOutput rewritten = agent.runText("u4", AgentInit.ofSnapshot(trimmed.snapshotId()));
    assertThat(texts(agent.getSnapshot(rewritten.snapshotId()).state().messages()))
        .as("a history message the prompt rebuilt counts as scaffolding, even when equal")
        .containsExactly("u3", "u2", "r3", "u4", "r4");
  }

  private static List<String> texts(List<Message> messages) {
    return messages.stream().map(Message::text).toList();
  }

  @Test
  void usageAccumulatesAcrossTurnsInTheSession() {
    Agent agent = chat(server().build());
    model.respond(
        reply("a").withUsage(GenerationUsage.builder().inputTokens(10).outputTokens(1).build()));
    model.respond(
        reply("b").withUsage(GenerationUsage.builder().inputTokens(20).outputTokens(2).build()));
    AgentOutput first = agent.runText("x");
    AgentOutput second = agent.runText("y", AgentInit.ofSnapshot(first.snapshotId()));

    GenerationUsage usage = agent.getSnapshot(second.snapshotId()).state().usage();
    assertThat(usage.inputTokens()).isEqualTo(30);
    assertThat(usage.outputTokens()).isEqualTo(3);
    assertThat(agent.getSnapshot(first.snapshotId()).state().usage().inputTokens()).isEqualTo(10);
  }

  @Test
  void aDetachedRunCompletesInTheBackgroundAndWaitForSnapshotSeesIt() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("worker", entered, gate, server().build());
    model.respond(reply("unused"));

    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    SessionSnapshot pending = agent.getSnapshot(detached.snapshotId());
    assertThat(pending.status()).isEqualTo(SnapshotStatus.PENDING);
    assertThat(pending.state()).isNull();
    assertThat(pending.heartbeatAt()).isNotNull();

    await().atMost(Duration.ofSeconds(5)).until(() -> entered.getCount() == 0);
    gate.countDown();
    SessionSnapshot settled = agent.waitForSnapshot(detached.snapshotId());
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
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            server().build());
    AgentConnection connection = agent.connect(AgentInit.NEW);
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
    assertThat(agent.getSnapshot(output.snapshotId()).parentId()).isEqualTo(firstSnapshot);
    gate.countDown();
    assertThat(agent.waitForSnapshot(output.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void aDetachedFailureFinalisesAsFailedAndResumingItIsRefused() {
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
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    SessionSnapshot failed = agent.waitForSnapshot(detached.snapshotId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(failed.error().message()).isEqualTo("kaboom");
    assertThat(failed.state().messages()).extracting(Message::text).containsExactly("go");

    assertThatThrownBy(() -> agent.runText("again", AgentInit.ofSnapshot(detached.snapshotId())))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("kaboom");
  }

  @Test
  void detachNeedsAStoreThatCanNotify() {
    Agent clientManaged = chat(AgentOptions.DEFAULTS);
    AgentOutput output = clientManaged.run(AgentInput.text("x").withDetach(true), AgentInit.NEW);
    assertThat(output.isFailed()).isTrue();
    assertThat(output.error().status()).isEqualTo("FAILED_PRECONDITION");
    assertThat(output.error().message()).contains("detach requires a session store");
  }

  @Test
  void aDetachWhoseStoreIsDownReportsTheStoresStatusNotACapabilityError() {
    Agent agent =
        chat(
            AgentOptions.builder()
                .sessionStore(
                    new FlakyStore(
                        InMemorySessionStore.create(),
                        new AtomicBoolean(true),
                        new AtomicInteger()))
                .build());
    AgentOutput output = agent.run(AgentInput.text("x").withDetach(true), AgentInit.NEW);
    assertThat(output.isFailed()).isTrue();
    // FAILED_PRECONDITION would tell a delegating orchestrator to stop trying background runs.
    assertThat(output.error().status()).isEqualTo("UNAVAILABLE");
    assertThat(output.error().message()).contains("save pending snapshot").contains("disk gone");
  }

  @Test
  void abortingALiveRunStopsItAndKeepsItsProgressResumable() {
    CountDownLatch entered = new CountDownLatch(1);
    Agent agent = gated("slow", entered, new CountDownLatch(1), server().build());
    AgentOutput detached = agent.run(AgentInput.text("work").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);

    assertThat(agent.abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    SessionSnapshot aborted =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(() -> agent.getSnapshot(detached.snapshotId()), s -> s.finishReason() != null);
    assertThat(aborted.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(aborted.finishReason()).isEqualTo(AgentFinishReason.ABORTED);
    assertThat(aborted.updatedAt()).isAfter(aborted.createdAt());
    assertThat(aborted.state().messages()).extracting(Message::text).containsExactly("work");
    assertThat(aborted.error()).isNull();

    assertThat(agent.abort(detached.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.abort("missing")).isNull();
  }

  @Test
  void waitForSnapshotRidesOutTransientReadFailures() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    AtomicInteger failingReads = new AtomicInteger();
    Agent agent =
        gated(
            "flaky-reads",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(new FlakyStore(store, new AtomicBoolean(), failingReads))
                .heartbeat(Duration.ofMillis(50), Duration.ofMillis(400))
                .waitPollInterval(Duration.ofMillis(10))
                .build());
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> agent.waitForSnapshot(detached.snapshotId()));

    // Plain runtime exceptions, not only BatonExceptions, count as transient: three in a row pass.
    failingReads.set(3);
    gate.countDown();

    SessionSnapshot settled = waiting.get(10, TimeUnit.SECONDS);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(failingReads).hasValue(0);
  }

  @Test
  void anAbortedRunWhoseWorkerIsSlowToStopStaysUncontinuableUntilItSavesItsProgress() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent =
        baton.defineCustomAgent(
            "stubborn",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    entered.countDown();
                    // Ignores cancellation, as a tool blocked in a call without a timeout would.
                    try {
                      assertThat(gate.await(60, TimeUnit.SECONDS)).isTrue();
                    } catch (InterruptedException e) {
                      throw new AssertionError(e);
                    }
                    runner.session().addMessage(Message.model("late"));
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            server().build());
    AgentOutput detached = agent.run(AgentInput.text("work").withDetach(true), AgentInit.NEW);
    String id = detached.snapshotId();
    await().until(() -> entered.getCount() == 0);
    assertThat(agent.abort(id)).isEqualTo(SnapshotStatus.ABORTED);
    Instant abortedAt = agent.getSnapshot(id).updatedAt();

    // Beats go on past a whole heartbeat timeout (400 ms) after the abort, so the row never looks
    // like its worker died, and continuing it is refused rather than forking from the parent.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> agent.getSnapshot(id).heartbeatAt(),
            beat -> beat != null && beat.isAfter(abortedAt.plusMillis(800)));
    assertThatThrownBy(() -> agent.runText("more", AgentInit.continueFrom(id)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("is still being aborted");

    gate.countDown();
    SessionSnapshot settled =
        await().until(() -> agent.getSnapshot(id), row -> row.finishReason() != null);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(settled.heartbeatAt()).isNull();
    assertThat(settled.state().messages())
        .extracting(Message::text)
        .containsExactly("work", "late");
    assertThat(agent.runText("more", AgentInit.continueFrom(id)).isFailed()).isFalse();
  }

  @Test
  void abortLeavesTerminalSnapshotsAlone() {
    Agent agent = chat(server().build());
    model.respond(reply("hi"));
    AgentOutput done = agent.runText("hello");
    assertThat(agent.abort(done.snapshotId())).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(agent.getSnapshot(done.snapshotId()).status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThatThrownBy(
            () ->
                baton
                    .registry()
                    .lookup("/agent-abort/chat")
                    .orElseThrow()
                    .runJson(
                        baton.context(),
                        Json.parse("{\"snapshotId\":\"nope\"}"),
                        dev.baton.core.StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }

  @Test
  void aWorkerWhoseHeartbeatsStopReadsAsExpired() {
    AtomicBoolean storeDown = new AtomicBoolean();
    SessionStore flaky = new FlakyStore(store, storeDown, new AtomicInteger());
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Duration timeout = Duration.ofMillis(150);
    Agent agent =
        gated(
            "stale",
            entered,
            gate,
            AgentOptions.builder()
                .sessionStore(flaky)
                .heartbeat(Duration.ofMillis(20), timeout)
                .waitPollInterval(Duration.ofMillis(10))
                .build());
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    Instant firstBeat = agent.getSnapshot(detached.snapshotId()).heartbeatAt();

    // While the worker beats, the row outlives the timeout many times over and stays pending.
    Instant longAfter = firstBeat.plus(timeout.multipliedBy(3));
    SessionSnapshot alive =
        await()
            .atMost(Duration.ofSeconds(5))
            .until(
                () -> agent.getSnapshot(detached.snapshotId()),
                s -> s.heartbeatAt().isAfter(longAfter));
    assertThat(alive.status()).isEqualTo(SnapshotStatus.PENDING);

    storeDown.set(true);
    // Reads still work while writes fail, as with a worker that lost its connection to the store.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> agent.getSnapshot(detached.snapshotId()).status() == SnapshotStatus.EXPIRED);
    assertThat(agent.waitForSnapshot(detached.snapshotId()).status())
        .isEqualTo(SnapshotStatus.EXPIRED);
    assertThat(store.getSnapshot(baton.context(), detached.snapshotId()).status())
        .as("expired is computed on read, never stored")
        .isEqualTo(SnapshotStatus.PENDING);
    storeDown.set(false);
    gate.countDown();
  }

  @Test
  void waitForSnapshotBlocksUntilTheRunSettles() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch gate = new CountDownLatch(1);
    Agent agent = gated("waited", entered, gate, server().build());
    AgentOutput detached = agent.run(AgentInput.text("go").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    CompletableFuture<SessionSnapshot> waiting =
        CompletableFuture.supplyAsync(() -> agent.waitForSnapshot(detached.snapshotId()));
    // Still waiting across several heartbeats (50 ms) of the pending row.
    await()
        .during(Duration.ofMillis(200))
        .atMost(Duration.ofSeconds(5))
        .until(() -> !waiting.isDone());
    gate.countDown();
    assertThat(waiting.get(10, TimeUnit.SECONDS).status()).isEqualTo(SnapshotStatus.COMPLETED);
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

    SessionSnapshot settled = agent.waitForSnapshot(pending);
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("go", "done");
  }

  @Test
  void aDetachedConnectionSettlesWithoutBeingClosed() {
    Agent agent = gated("unclosed", new CountDownLatch(1), new CountDownLatch(0), server().build());
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("first");
    connection.detach();
    connection.receive().forEach(chunk -> {});
    SessionSnapshot settled = agent.waitForSnapshot(connection.output().snapshotId());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
  }

  @Test
  void concurrentCustomStateChangesConvergeOnTheClient() {
    Agent agent =
        baton.defineCustomAgent(
            "busy",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    try (var threads =
                        java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                      for (int t = 0; t < 8; t++) {
                        String key = "k" + t;
                        threads.submit(
                            () -> {
                              for (int i = 0; i < 25; i++) {
                                runner
                                    .session()
                                    .updateCustom(
                                        c -> {
                                          var next =
                                              c == null
                                                  ? Json.object()
                                                  : (tools.jackson.databind.node.ObjectNode) c;
                                          return next.put(key, next.path(key).asInt() + 1);
                                        });
                              }
                            });
                      }
                    }
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("go");
    connection.close();
    connection.receive().forEach(chunk -> {});
    AgentOutput output = connection.output();
    assertThat(output.state().custom().path("k7").asInt()).isEqualTo(25);
    assertThat(connection.custom()).isEqualTo(output.state().custom());
  }

  @Test
  void aStreamTransformCanDropChunksAndFailsTheInvocationClosed() {
    AgentFunction withArtifact =
        runner -> {
          runner.run(
              (ctx, input) -> {
                runner.sendArtifact(Artifact.text("secret.txt", "hush"));
                runner.session().addMessage(Message.model("done"));
                return TurnResult.STOP;
              });
          return runner.result();
        };
    Agent dropping =
        baton.defineCustomAgent(
            "dropping",
            withArtifact,
            AgentOptions.builder()
                .streamTransform(chunk -> chunk.artifact() != null ? null : chunk)
                .build());
    List<AgentStreamChunk> chunks = new java.util.ArrayList<>();
    AgentOutput output =
        dropping.run(baton.context(), AgentInput.text("go"), AgentInit.NEW, chunks::add);
    assertThat(chunks).extracting(c -> c.turnEnd() != null).containsExactly(true);
    assertThat(output.artifacts()).extracting(Artifact::name).containsExactly("secret.txt");

    Agent failing =
        baton.defineCustomAgent(
            "failing-transform",
            withArtifact,
            AgentOptions.builder()
                .streamTransform(
                    chunk -> {
                      throw BatonException.of(Status.PERMISSION_DENIED, "not for your eyes");
                    })
                .build());
    AgentOutput failed = failing.runText("go");
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.error().status()).isEqualTo("PERMISSION_DENIED");
  }

  @Test
  void aFailingStreamCallbackFailsTheRunWithItsOwnErrorNotACancellation() {
    Agent agent =
        baton.defineCustomAgent(
            "streamer",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    runner.sendChunk(
                        new ModelResponseChunk(Role.MODEL, 0, List.of(Part.text("h"))));
                    // The callback's failure stopped the work, which notices here.
                    ctx.cancellation().throwIfCancelled();
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    AgentOutput output =
        agent.run(
            baton.context(),
            AgentInput.text("go"),
            AgentInit.NEW,
            chunk -> {
              throw BatonException.of(Status.UNAVAILABLE, "the client went away");
            });
    assertThat(output.isFailed()).isTrue();
    assertThat(output.error().status()).isEqualTo("UNAVAILABLE");
    assertThat(output.error().message()).isEqualTo("the client went away");
  }

  @Test
  void aNullInputIsRejectedAndTheConnectionStaysUsable() {
    Agent agent = chat(AgentOptions.DEFAULTS);
    model.respond(reply("hi"));
    AgentConnection connection = agent.connect(AgentInit.NEW);
    assertThatThrownBy(() -> connection.send(null))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    connection.sendText("hello");
    assertThat(connection.output().text()).isEqualTo("hi");
  }

  @Test
  void rowsReadFromTheStoreCannotBeChangedThroughTheirTrees() {
    Agent agent = chat(server().build());
    model.respond(
        ModelResponse.of(
            new Message(
                dev.baton.ai.Role.MODEL,
                List.of(dev.baton.ai.Part.text("x").withMetadata(Json.object().put("k", 1)))),
            FinishReason.STOP));
    AgentOutput output = agent.runText("hi");
    SessionSnapshot row = store.getSnapshot(baton.context(), output.snapshotId());
    ((tools.jackson.databind.node.ObjectNode)
            row.state().messages().get(1).content().get(0).metadata())
        .put("k", 99);
    assertThat(
            store
                .getSnapshot(baton.context(), output.snapshotId())
                .state()
                .messages()
                .get(1)
                .content()
                .get(0)
                .metadata()
                .path("k")
                .asInt())
        .isEqualTo(1);
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
    AgentOutput detached = agent.run(AgentInput.text("work").withDetach(true), AgentInit.NEW);
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
    AgentOutput detached = agent.run(AgentInput.text("summarise").withDetach(true), AgentInit.NEW);
    SessionSnapshot failed = agent.waitForSnapshot(detached.snapshotId());
    assertThat(failed.status()).isEqualTo(SnapshotStatus.FAILED);

    model.respond(reply("summary"));
    AgentOutput retried =
        agent.run(AgentInput.retryTurn(), AgentInit.continueFrom(failed.snapshotId()));

    assertThat(retried.text()).isEqualTo("summary");
    SessionSnapshot after = agent.getSnapshot(retried.snapshotId());
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
    AgentOutput detached = slow.run(AgentInput.text("long job").withDetach(true), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    slow.abort(detached.snapshotId());
    await().until(() -> slow.getSnapshot(detached.snapshotId()).finishReason() != null);

    assertThatThrownBy(() -> slow.runText("again", AgentInit.ofSnapshot(detached.snapshotId())))
        .hasMessageContaining("was aborted");
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
    assertThat(resumed.getSnapshot(continued.snapshotId()).state().messages())
        .extracting(Message::text)
        .containsExactly("long job", "shorter job", "done");
  }

  @Test
  void aRetryNeedsAnUnfinishedTurn() {
    Agent agent = chat(server().build());
    model.respond(reply("fine"));
    AgentOutput done = agent.runText("hello");
    AgentOutput retried =
        agent.run(AgentInput.retryTurn(), AgentInit.ofSnapshot(done.snapshotId()));
    assertThat(retried.isFailed()).isTrue();
    assertThat(retried.error().message()).contains("no unfinished turn");
    assertThat(model.calls()).isEqualTo(1);
  }

  @Test
  void initRulesFailTheInvocationItself() {
    Agent server = chat(server().build());
    Agent client = baton.defineAgent("client", InlinePrompt.builder().model("pm").build());
    assertThatThrownBy(() -> server.runText("x", AgentInit.ofState(SessionState.empty())))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("server-managed state");
    assertThatThrownBy(() -> client.runText("x", AgentInit.ofSnapshot("s1")))
        .hasMessageContaining("client-managed state");
    assertThatThrownBy(() -> server.runText("x", AgentInit.ofSnapshot("missing")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    assertThatThrownBy(
            () -> server.runText("x", new AgentInit("s", "t", SessionState.empty(), null)))
        .hasMessageContaining("mutually exclusive");
    assertThatThrownBy(() -> AgentInit.fromJson(Json.parse("{\"bogus\":true}")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
    assertThat(AgentInit.fromJson(Json.parse("{}"))).isEqualTo(AgentInit.NEW);
    assertThat(AgentInit.fromJson(Json.parse("{\"sessionId\":\"\"}"))).isEqualTo(AgentInit.NEW);
    // Given in code rather than omitted from JSON, an empty ID is a mistake, not a fresh session.
    assertThatThrownBy(() -> AgentInit.ofSession(""))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessage("session ID is empty");
    assertThatThrownBy(() -> AgentInit.ofSnapshot("")).hasMessage("snapshot ID is empty");
    assertThatThrownBy(() -> AgentInit.continueFrom("")).hasMessage("snapshot ID is empty");
  }

  @Test
  void theStateTransformShapesWhatClientsSeeButNotWhatIsStored() {
    Agent agent =
        baton.defineCustomAgent(
            "secretive",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    runner
                        .session()
                        .updateCustom(c -> Json.object().put("secret", "s3cr3t").put("public", 1));
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            server()
                .stateTransform(
                    state ->
                        state.withCustom(
                            Json.object().put("public", state.custom().path("public").asInt())))
                .build());
    List<AgentStreamChunk> chunks = new java.util.ArrayList<>();
    AgentOutput output =
        agent.run(baton.context(), AgentInput.text("go"), AgentInit.NEW, chunks::add);
    assertThat(chunks.get(0).customPatch().get(0).value().toString()).isEqualTo("{\"public\":1}");
    assertThat(agent.getSnapshot(output.snapshotId()).state().custom().has("secret")).isFalse();
    assertThat(
            store.getSnapshot(baton.context(), output.snapshotId()).state().custom().has("secret"))
        .isTrue();
  }

  @Test
  void theOutputDoesNotShareTheCallersState() {
    Agent agent = chat(AgentOptions.DEFAULTS);
    model.respond(reply("two back"));
    SessionState mine =
        new SessionState(
            null, List.of(Message.user("one")), Json.object().put("n", 1), List.of(), null);
    AgentOutput output = agent.runText("two", AgentInit.ofState(mine));
    assertThat(mine.messages()).hasSize(1);
    assertThat(output.state().messages()).hasSize(3);
    assertThat(output.state().sessionId()).isNotBlank();
  }

  @Test
  void sendingAfterTheInvocationCompletedIsRejected() {
    Agent agent = chat(AgentOptions.DEFAULTS);
    model.respond(reply("hi"));
    AgentConnection connection = agent.connect(AgentInit.NEW);
    connection.sendText("hello");
    connection.output();
    assertThatThrownBy(() -> connection.sendText("more"))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION));
  }

  @Test
  void aCancelledClientGetsAnErrorEvenIfTheAgentIgnoresCancellation() {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    Agent stubborn =
        baton.defineCustomAgent(
            "stubborn",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    entered.countDown();
                    try {
                      never.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    return TurnResult.STOP;
                  });
              return runner.result();
            },
            AgentOptions.DEFAULTS);
    ActionContext ctx = baton.context();
    AgentConnection connection = stubborn.connect(ctx, AgentInit.NEW);
    connection.sendText("go");
    await().until(() -> entered.getCount() == 0);
    ctx.cancellation().cancel();
    assertThatThrownBy(connection::output)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    never.countDown();
  }

  @Test
  void aHandleStartsPollsWaitsForAndAbortsABackgroundTask() {
    CountDownLatch entered = new CountDownLatch(1);
    gated("worker", entered, new CountDownLatch(1), server().build());
    AgentHandle handle = AgentHandle.lookup(baton.registry(), "worker");
    assertThat(handle.metadata().stateManagement()).isEqualTo(StateManagement.SERVER);
    assertThat(handle.metadata().isAbortable()).isTrue();

    AgentHandle.DetachedTask task =
        handle.start(baton.context(), AgentInput.text("go"), AgentInit.NEW);
    await().until(() -> entered.getCount() == 0);
    assertThat(task.poll(baton.context()).status()).isEqualTo(SnapshotStatus.PENDING);
    assertThat(task.abort(baton.context()).status()).isEqualTo(SnapshotStatus.ABORTED);
    SessionSnapshot settled = task.await(baton.context());
    assertThat(settled.status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(handle.task(task.snapshotId()).poll(baton.context()).status())
        .isEqualTo(SnapshotStatus.ABORTED);
  }

  @Test
  void aHandleReportsWhatTheAgentCannotDo() {
    chat(AgentOptions.DEFAULTS);
    assertThatThrownBy(() -> AgentHandle.lookup(baton.registry(), "ghost"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessage("agent \"ghost\" not found in registry");
    AgentHandle client = AgentHandle.lookup(baton.registry(), "chat");
    assertThatThrownBy(() -> client.getSnapshot(baton.context(), "s"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("publishes no action to read a snapshot");
    assertThatThrownBy(() -> client.abort(baton.context(), "s"))
        .hasMessageContaining("publishes no action to abort background work");
    assertThatThrownBy(() -> client.start(baton.context(), AgentInput.text("x"), AgentInit.NEW))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION))
        .hasMessageContaining("detach requires a session store");
  }

  /**
   * A store that refuses every write while {@code down} is set, as a dead disk would, and fails as
   * many snapshot reads as {@code failingReads} says, as a flaky connection would.
   */
  private record FlakyStore(
      InMemorySessionStore delegate, AtomicBoolean down, AtomicInteger failingReads)
      implements SessionStore, SnapshotSubscriber {
    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      if (failingReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        throw new IllegalStateException("connection reset");
      }
      return delegate.getSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
      return delegate.getLatestSnapshot(context, sessionId);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context, @Nullable String snapshotId, SnapshotUpdate update) {
      if (down.get()) {
        throw BatonException.of(Status.UNAVAILABLE, "disk gone");
      }
      return delegate.saveSnapshot(context, snapshotId, update);
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      return delegate.onSnapshotStatusChange(context, snapshotId);
    }
  }
}
