package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/**
 * The agent runtime in the foreground: definitions and options, session loading and init rules,
 * turns, streaming, custom state, artifacts, transforms, connections, usage and a prompt agent's
 * history. Detached runs, aborts and continuations are in {@link DetachAndAbortTest}.
 */
class AgentRuntimeTest extends AgentTestSupport {
  @Test
  void theExperimentalGateGuardsAgentDefinitions() {
    Baton plain = Baton.builder().build();
    assertThatThrownBy(() -> plain.defineAgent("a", InlinePrompt.builder().model("pm").build()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Baton.defineAgent: experimental features are not enabled");
  }

  @Test
  void definingAnAgentTwiceNamesTheAgentNotItsPrompt() {
    InlinePrompt prompt = InlinePrompt.builder().model("pm").build();
    baton.defineAgent("a", prompt);

    assertThatThrownBy(() -> baton.defineAgent("a", prompt))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ALREADY_EXISTS))
        .hasMessage("an agent named \"a\" is already defined");
  }

  @Test
  void aPromptAgentRefusedForATakenNameLeavesNoPromptBehind() {
    baton.defineCustomAgent("a", AgentRunner::result, AgentOptions.DEFAULTS);

    assertThatThrownBy(() -> baton.defineAgent("a", InlinePrompt.builder().model("pm").build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.ALREADY_EXISTS))
        .hasMessage("an agent named \"a\" is already defined");
    assertThat(baton.registry().lookup(ActionType.EXECUTABLE_PROMPT, "a")).isEmpty();
  }

  @Test
  void optionsCanBeSetOnlyOnce() {
    assertThatThrownBy(() -> AgentOptions.builder().description("a").description("b"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("cannot set description more than once");
  }

  @Test
  void eachTurnSeesItsReservedSnapshotIdAndItsParent() {
    List<TurnContext> seen = new CopyOnWriteArrayList<>();
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
    List<String> turnEnds = new ArrayList<>();
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
        .as("a message the prompt made up without the history's metadata is scaffolding")
        .containsExactly("u3", "u2", "r3", "u4", "r4");
  }

  @Test
  void aPromptFunctionThatRebuildsHistoryMessagesKeepsTheSessionIntact() {
    Agent agent =
        baton.defineAgent(
            "rebuilding",
            InlinePrompt.builder()
                .model("pm")
                .system("Be brief.")
                .messages(
                    ctx ->
                        ctx.history().stream()
                            .map(m -> new Message(m.role(), List.copyOf(m.content()), m.metadata()))
                            .toList())
                .build(),
            server().build());
    model.respond(reply("r1"), reply("r2"));
    AgentOutput first = agent.runText("u1");
    AgentOutput second = agent.runText("u2", AgentInit.ofSnapshot(first.snapshotId()));

    List<Message> stored = agent.getSnapshot(second.snapshotId()).state().messages();
    assertThat(texts(stored)).containsExactly("u1", "r1", "u2", "r2");
    assertThat(stored).allSatisfy(m -> assertThat(m.metadata()).isNull());
    assertThat(model.lastRequest().messages().get(0).hasFlag("_genkit_prompt")).isTrue();
    assertThat(model.lastRequest().messages().subList(1, 4))
        .allSatisfy(m -> assertThat(m.metadata()).isNull());
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
  void concurrentCustomStateChangesConvergeOnTheClient() {
    Agent agent =
        baton.defineCustomAgent(
            "busy",
            runner -> {
              runner.run(
                  (ctx, input) -> {
                    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
                      for (int t = 0; t < 8; t++) {
                        String key = "k" + t;
                        threads.submit(
                            () -> {
                              for (int i = 0; i < 25; i++) {
                                runner
                                    .session()
                                    .updateCustom(
                                        c -> {
                                          var next = c == null ? Json.object() : (ObjectNode) c;
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
    List<AgentStreamChunk> chunks = new ArrayList<>();
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
                    runner.sendChunk(ModelResponseChunk.of(Role.MODEL, List.of(Part.text("h"))));
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
                Role.MODEL, List.of(Part.text("x").withMetadata(Json.object().put("k", 1)))),
            FinishReason.STOP));
    AgentOutput output = agent.runText("hi");
    SessionSnapshot row = store.getSnapshot(baton.context(), output.snapshotId());
    row.state().messages().get(1).content().get(0).metadata().put("k", 99);
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
    List<AgentStreamChunk> chunks = new ArrayList<>();
    AgentOutput output =
        agent.run(baton.context(), AgentInput.text("go"), AgentInit.NEW, chunks::add);
    assertThat(chunks.get(0).customPatch().get(0).get("value").toString())
        .isEqualTo("{\"public\":1}");
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
}
