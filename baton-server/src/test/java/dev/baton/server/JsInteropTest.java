package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * Interop with the real Genkit JS runtime (npm {@code genkit@1.42.0}, {@code
 * @genkit-ai/express@1.42.0}), both ways, on the wire of {@code docs/wire.md}: Genkit
 * JS's {@code remoteAgent} client drives agents served by Baton, and a Baton orchestrator delegates
 * to an agent served by a Genkit JS process.
 */
@Timeout(180)
class JsInteropTest {
  @AutoClose final ServedBaton served = new ServedBaton();

  // A first run installs the npm packages, which NodeFixture bounds at ten minutes with npm's
  // output; the default timeout of a lifecycle method (60 s) would cut it short without either.
  @BeforeAll
  @Timeout(value = 11, unit = TimeUnit.MINUTES)
  static void node() {
    NodeFixture.require();
  }

  /**
   * A model that answers "echo: <the user's text>" in two chunks, fails with a public UNAVAILABLE
   * on "[fail]", and waits until its run is cancelled (an abort) on "[block]".
   */
  private void echoModel() {
    served.baton.defineModel(
        "echo",
        new ModelInfo("echo", ModelInfo.Supports.TEXT_ONLY, null),
        (ctx, request, stream) -> {
          String text = lastUserText(request);
          if (text.contains("[fail]")) {
            throw BatonException.of(Status.UNAVAILABLE, "the model is overloaded");
          }
          if (text.contains("[block]")) {
            CountDownLatch cancelled = new CountDownLatch(1);
            try (var onCancel = ctx.cancellation().onCancel(cancelled::countDown)) {
              cancelled.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            ctx.cancellation().throwIfCancelled();
          }
          stream.onChunk(ModelResponseChunk.text("echo: "));
          stream.onChunk(ModelResponseChunk.text(text));
          return ModelResponse.of(Message.model("echo: " + text), FinishReason.STOP);
        });
  }

  private static String lastUserText(ModelRequest request) {
    for (int i = request.messages().size() - 1; i >= 0; i--) {
      if (request.messages().get(i).role() == Role.USER) {
        return request.messages().get(i).text();
      }
    }
    return "";
  }

  @Test
  void genkitJsRemoteAgentDrivesBatonServedAgents() {
    echoModel();
    served.baton.defineAgent(
        "chat",
        InlinePrompt.builder().model("echo").build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    served.baton.defineAgent(
        "stateless", InlinePrompt.builder().model("echo").build(), AgentOptions.DEFAULTS);
    served.start(b -> b.agentAt("/api/chat", "chat"));

    NodeFixture.Run run =
        NodeFixture.node(
            "client.cjs", List.of(served.server().uri().toString()), Duration.ofSeconds(90));

    assertThat(run.exit()).as(run.stderr() + run.stdout()).isZero();
    JsonNode report = Json.parse(run.stdout().strip());
    JsonNode first = report.at("/turns/0");
    JsonNode second = report.at("/turns/1");
    assertThat(first.get("text").stringValue()).isEqualTo("echo: hello");
    assertThat(first.get("finishReason").stringValue()).isEqualTo("stop");
    assertThat(second.get("text").stringValue()).isEqualTo("echo: again");
    assertThat(second.get("sessionId")).isEqualTo(first.get("sessionId"));
    assertThat(report.get("messagesAfterTwoTurns").intValue()).isEqualTo(4);
    assertThat(report.at("/secondSnapshot/parentId")).isEqualTo(first.get("snapshotId"));
    assertThat(report.at("/secondSnapshot/status").stringValue()).isEqualTo("completed");
    assertThat(report.at("/secondSnapshot/messages").intValue()).isEqualTo(4);
    assertThat(report.get("latestOfSession")).isEqualTo(second.get("snapshotId"));
    assertThat(report.at("/streamed/chunks").toString()).isEqualTo("[\"echo: \",\"stream it\"]");
    assertThat(report.at("/streamed/text").stringValue()).isEqualTo("echo: stream it");
    assertThat(report.at("/detached/status").stringValue()).isEqualTo("completed");
    assertThat(report.at("/detached/lastMessage").stringValue())
        .isEqualTo("echo: work in the background");
    assertThat(report.get("abortAnswer").stringValue()).isEqualTo("aborted");
    assertThat(report.at("/aborted/status").stringValue()).isEqualTo("aborted");
    assertThat(report.at("/aborted/finishReason").stringValue()).isEqualTo("aborted");
    assertThat(report.at("/failed/name").stringValue()).isEqualTo("AgentError");
    assertThat(report.at("/failed/status").stringValue()).isEqualTo("UNAVAILABLE");
    assertThat(report.at("/failed/message").stringValue()).contains("the model is overloaded");
    assertThat(report.at("/unknownSnapshot/status").stringValue()).isEqualTo("NOT_FOUND");
    assertThat(report.at("/stateless/messages").intValue()).isEqualTo(4);
    assertThat(report.at("/stateless/text").stringValue()).isEqualTo("echo: two");
    assertThat(report.at("/stateless/snapshotId").isMissingNode()).isTrue();
    // Refused as a Genkit JS server refuses it, the detach throws with its status in the message
    // (the JS client puts no status on the error; a failed output would read as a missing
    // snapshot).
    assertThat(report.at("/detachRefused/message").stringValue())
        .startsWith("FAILED_PRECONDITION: ")
        .contains("detach requires a session store");
  }

  /**
   * Ten turns, failing and succeeding in turn, through Genkit JS's client: by the snapshot each
   * answer names, as the client resumes, and by session ID. A failed turn answers the last good
   * snapshot, so neither way is ever stranded and the failed turns stay out of the conversation.
   */
  @Test
  void genkitJsCarriesOnAfterEachFailedTurnBySnapshotAndBySession() {
    echoModel();
    served.baton.defineAgent(
        "chat",
        InlinePrompt.builder().model("echo").build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    served.start();

    NodeFixture.Run run =
        NodeFixture.node(
            "alternating.cjs",
            List.of(served.url("/agents/chat").toString(), "js-alternating"),
            Duration.ofSeconds(90));

    assertThat(run.exit()).as(run.stderr() + run.stdout()).isZero();
    JsonNode report = Json.parse(run.stdout().strip());
    List<String> conversation = new ArrayList<>();
    String lastGood = null;
    for (int i = 0; i < 10; i++) {
      JsonNode bySnapshot = report.at("/bySnapshot/" + i);
      JsonNode bySession = report.at("/bySession/" + i);
      if (i % 2 == 0) {
        assertThat(bySnapshot.get("status").stringValue()).as("turn " + i).isEqualTo("UNAVAILABLE");
        assertThat(bySession.get("status").stringValue()).as("turn " + i).isEqualTo("UNAVAILABLE");
        assertThat(orNull(bySnapshot.get("snapshotId")))
            .as("turn %d's failure names the last good snapshot", i)
            .isEqualTo(lastGood);
        assertThat(orNull(bySnapshot.get("held"))).isEqualTo(lastGood);
      } else {
        String echo = "echo: turn " + i;
        assertThat(bySnapshot.get("text").stringValue()).as("turn " + i).isEqualTo(echo);
        assertThat(bySession.get("text").stringValue()).as("turn " + i).isEqualTo(echo);
        lastGood = bySnapshot.get("snapshotId").stringValue();
        conversation.addAll(List.of("turn " + i, echo));
      }
    }
    assertThat(report.get("chatMessages").intValue()).isEqualTo(conversation.size());
    assertThat(Json.convert(report.get("bySnapshotHistory"), String[].class))
        .containsExactlyElementsOf(conversation);
    assertThat(Json.convert(report.get("bySessionHistory"), String[].class))
        .containsExactlyElementsOf(conversation);
  }

  @Test
  void aBatonRemoteAgentReadsAGenkitJsServer() {
    try (NodeFixture.Server js = NodeFixture.server("server.cjs")) {
      Baton client = Baton.builder().experimental().build();
      Agent researcher = jsResearcher(client, js);

      AgentOutput first = researcher.runText("tides");
      AgentOutput second = researcher.runText("storms", AgentInit.ofSnapshot(first.snapshotId()));
      assertThat(first.text()).isEqualTo("researched: tides");
      assertThat(second.sessionId()).isEqualTo(first.sessionId());
      assertThat(researcher.getSnapshot(second.snapshotId()).parentId())
          .isEqualTo(first.snapshotId());
      assertThat(researcher.getLatestSnapshot(first.sessionId()).snapshotId())
          .isEqualTo(second.snapshotId());

      // JS serves no waitForSnapshot route: the wait polls getSnapshot.
      AgentOutput detached =
          researcher.run(AgentInput.text("in the background").withDetach(true), AgentInit.NEW);
      assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
      assertThat(researcher.waitForSnapshot(detached.snapshotId()).status())
          .isEqualTo(SnapshotStatus.COMPLETED);

      // JS answers an abort with the status before it; the remote agent reads the row again.
      AgentOutput slow =
          researcher.run(AgentInput.text("[slow] forever").withDetach(true), AgentInit.NEW);
      assertThat(researcher.abort(slow.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
      assertThat(researcher.waitForSnapshot(slow.snapshotId()).status())
          .isEqualTo(SnapshotStatus.ABORTED);
      assertThat(researcher.abort("no-such-snapshot")).isNull();

      // An unknown snapshot is a failed turn on JS (NOT_FOUND), where Go and Baton refuse the init.
      AgentOutput unknown = researcher.runText("hi", AgentInit.ofSnapshot("no-such-snapshot"));
      assertThat(unknown.isFailed()).isTrue();
      assertThat(unknown.error().statusCode()).isEqualTo(Status.NOT_FOUND);
    }
  }

  @Test
  void aBatonOrchestratorDelegatesToAGenkitJsAgentInlineAndInTheBackground() {
    try (NodeFixture.Server js = NodeFixture.server("server.cjs", "--delay-ms", "200")) {
      Baton client = Baton.builder().experimental().build();
      ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
      Deque<Function<ModelRequest, ModelResponse>> script = new ArrayDeque<>();
      orch.fallback(request -> Objects.requireNonNull(script.poll()).apply(request));
      Agent orchestrator =
          client.defineAgent(
              "orchestrator",
              InlinePrompt.builder()
                  .model("orch")
                  .system("Give each part of a question to the researcher in the background.")
                  .use(Agents.builder().agents(jsResearcher(client, js).ref()).async(true).build())
                  .maxTurns(10)
                  .build(),
              AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
      JsonNode[] seen = new JsonNode[5];
      script.add(r -> call("delegate_to_researcher", Json.object().put("task", "Why tides?")));
      script.add(
          r -> {
            seen[0] = toolOutput(r);
            return call(
                "delegate_to_researcher",
                Json.object().put("task", "Why storms?").put("background", true));
          });
      script.add(
          r -> {
            seen[1] = toolOutput(r);
            return call("wait_for_background_tasks", taskIds(seen[1]));
          });
      script.add(
          r -> {
            seen[2] = toolOutput(r);
            return call(
                "delegate_to_researcher",
                Json.object().put("task", "[slow] Why everything?").put("background", true));
          });
      script.add(r -> call("abort_background_tasks", taskIds(toolOutput(r))));
      script.add(
          r -> {
            seen[3] = toolOutput(r);
            return call(
                "continue_task",
                Json.object()
                    .put("taskId", seen[3].at("/tasks/0/taskId").stringValue())
                    .put("instructions", "Just the short version."));
          });
      script.add(
          r -> {
            seen[4] = toolOutput(r);
            return ModelResponse.of(Message.model("done"), FinishReason.STOP);
          });

      AgentOutput output = orchestrator.runText("Why tides, storms and everything?");

      assertThat(output.text()).as(js.output()).isEqualTo("done");
      assertThat(seen[0].get("response").stringValue()).isEqualTo("researched: Why tides?");
      assertThat(seen[0].get("status").stringValue()).isEqualTo("completed");
      assertThat(seen[1].get("status").stringValue()).isEqualTo("pending");
      assertThat(seen[2].at("/tasks/0/status").stringValue()).isEqualTo("completed");
      assertThat(seen[2].at("/tasks/0/response").stringValue())
          .isEqualTo("researched: Why storms?");
      // JS leaves an aborted row's finish reason unset and its heartbeat in place, so Baton reads
      // it as still saving its progress until the heartbeat ages out (RemoteAgentWireTest), and
      // continue_task says so.
      String aborted = seen[3].at("/tasks/0/taskId").stringValue();
      assertThat(seen[3].at("/tasks/0/status").stringValue()).isIn("aborting", "aborted");
      assertThat(seen[4].get("response").stringValue()).startsWith("Error: task " + aborted);
    }
  }

  @Test
  void aGenkitJsAgentThatRefusesToDetachIsDelegatedToInlineAndTheRefusalCostsNoSlot() {
    try (NodeFixture.Server js = NodeFixture.server("server.cjs")) {
      Baton client = Baton.builder().experimental().build();
      // Without a store; the remote agent declares nothing, so the middleware learns by trying.
      Agent scribe =
          client.defineRemoteAgent(
              "scribe",
              URI.create("http://127.0.0.1:" + js.port() + "/agents/scribe"),
              AgentOptions.builder().description("Writes one question down.").build());

      // Genkit JS refuses as an error; the remote agent gives the failed output a local one does.
      AgentOutput refused = scribe.run(AgentInput.text("later").withDetach(true), AgentInit.NEW);
      assertThat(refused.finishReason()).as(js.output()).isEqualTo(AgentFinishReason.FAILED);
      assertThat(refused.error().statusCode()).isEqualTo(Status.FAILED_PRECONDITION);
      assertThat(refused.error().message()).contains("session store");

      ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
      Deque<Function<ModelRequest, ModelResponse>> script = new ArrayDeque<>();
      orch.fallback(request -> Objects.requireNonNull(script.poll()).apply(request));
      Agent orchestrator =
          client.defineAgent(
              "orchestrator",
              InlinePrompt.builder()
                  .model("orch")
                  .use(Agents.builder().agents(scribe.ref()).async(true).maxDelegations(1).build())
                  .build(),
              AgentOptions.DEFAULTS);
      JsonNode[] seen = new JsonNode[2];
      script.add(
          r ->
              call(
                  "delegate_to_scribe",
                  Json.object().put("task", "Why tides?").put("background", true)));
      script.add(
          r -> {
            seen[0] = toolOutput(r);
            return call("delegate_to_scribe", Json.object().put("task", "Why tides?"));
          });
      script.add(
          r -> {
            seen[1] = toolOutput(r);
            return ModelResponse.of(Message.model("done"), FinishReason.STOP);
          });

      orchestrator.runText("Why tides?");

      assertThat(seen[0].path("response").asString())
          .as(js.output())
          .startsWith("Error calling agent \"scribe\": ")
          .contains("session store")
          .endsWith(
              "If this agent lacks a session store that supports background work, delegate to it"
                  + " without \"background\" instead.");
      assertThat(seen[1].path("response").asString())
          .as("the refused launch gave its slot back")
          .isEqualTo("researched: Why tides?");
    }
  }

  private static @Nullable String orNull(JsonNode node) {
    return node.isNull() ? null : node.stringValue();
  }

  private static Agent jsResearcher(Baton client, NodeFixture.Server js) {
    return client.defineRemoteAgent(
        "researcher",
        URI.create("http://127.0.0.1:" + js.port() + "/agents/researcher"),
        AgentOptions.builder()
            .description("Researches one question and answers in a sentence.")
            .metadata(new AgentMetadata(StateManagement.SERVER, true))
            .waitPollInterval(Duration.ofMillis(50))
            .build());
  }

  private static JsonNode taskIds(JsonNode result) {
    return Json.object().set("taskIds", Json.toTree(List.of(result.get("taskId").stringValue())));
  }

  private static ModelResponse call(String tool, JsonNode input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", input))), FinishReason.STOP);
  }

  private static JsonNode toolOutput(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return Objects.requireNonNull(last.toolResponses().get(0).toolResponse().output());
  }
}
