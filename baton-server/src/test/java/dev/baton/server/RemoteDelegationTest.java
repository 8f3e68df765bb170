package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentMetadata;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.middleware.agents.Agents;
import dev.baton.testing.ForwardingSessionStore;
import dev.baton.testing.ProgrammableModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Genkit's sample arrangement: an orchestrator delegating, synchronously and in the background, to
 * a researcher served by another Baton over HTTP, through the Agents middleware unchanged; and a
 * background task continued after the researcher's server died and came back on the same store.
 */
class RemoteDelegationTest {
  @AutoClose final ServedBaton served = new ServedBaton();
  @Nullable ServedBaton restarted;
  final Baton client = Baton.builder().experimental().build();
  final ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
  final Deque<Function<ModelRequest, ModelResponse>> script = new ArrayDeque<>();

  @AfterEach
  void closeRestarted() {
    if (restarted != null) {
      restarted.close();
    }
  }

  RemoteDelegationTest() {
    orch.fallback(
        request -> Objects.requireNonNull(script.poll(), "script used up").apply(request));
  }

  private Agent orchestrator(Agent researcher) {
    return client.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model("orch")
            .system("Give each part of a question to the researcher in the background.")
            .use(Agents.builder().agents(researcher.ref()).async(true).build())
            .maxTurns(10)
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  private Agent remoteResearcher(ServedBaton server) {
    return client.defineRemoteAgent(
        "researcher",
        server.url("/agents/researcher"),
        AgentOptions.builder()
            .description("Researches one question and answers in a few sentences.")
            .metadata(new AgentMetadata(StateManagement.SERVER, true))
            .heartbeat(Duration.ofMillis(100), Duration.ofMillis(500))
            .build());
  }

  private static AgentOptions researcherOptions(SessionStore store) {
    return AgentOptions.builder()
        .sessionStore(store)
        .heartbeat(Duration.ofMillis(100), Duration.ofMillis(500))
        .build();
  }

  private static ModelResponse call(String tool, JsonNode input) {
    return ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", input))),
            FinishReason.STOP)
        .withUsage(usage(10));
  }

  private static ModelResponse say(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP).withUsage(usage(10));
  }

  private static GenerationUsage usage(int inputTokens) {
    return GenerationUsage.builder().inputTokens(inputTokens).outputTokens(1).build();
  }

  /** The output of the tool response the orchestrator's model was just sent. */
  private static JsonNode toolOutput(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return Objects.requireNonNull(last.toolResponses().get(0).toolResponse().output());
  }

  @Test
  void aRemoteAgentWhoseServerRefusesToDetachIsDelegatedToInlineAndTheRefusalCostsNoSlot() {
    // Client-managed, so it cannot run in the background; the remote agent declares nothing.
    served.agent("researcher", AgentOptions.DEFAULTS);
    served.start();
    served.model.respond(say("tides follow the moon"));
    Agent researcher =
        client.defineRemoteAgent(
            "researcher",
            served.url("/agents/researcher"),
            AgentOptions.builder().description("Researches one question.").build());
    Agent orchestrator =
        client.defineAgent(
            "orchestrator",
            InlinePrompt.builder()
                .model("orch")
                .use(
                    Agents.builder().agents(researcher.ref()).async(true).maxDelegations(1).build())
                .build(),
            AgentOptions.DEFAULTS);
    JsonNode[] seen = new JsonNode[2];
    script.add(
        r ->
            call(
                "delegate_to_researcher",
                Json.object().put("task", "Why tides?").put("background", true)));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return call("delegate_to_researcher", Json.object().put("task", "Why tides?"));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("done");
        });

    orchestrator.runText("Why tides?");

    assertThat(seen[0].path("response").asString())
        .startsWith("Error calling agent \"researcher\": ")
        .contains("detach requires a session store")
        .endsWith(
            "If this agent lacks a session store that supports background work, delegate to it"
                + " without \"background\" instead.");
    assertThat(seen[1].path("response").asString())
        .as("the refused launch gave its slot back")
        .isEqualTo("tides follow the moon");
  }

  @Test
  void anOrchestratorDelegatesToARemoteAgentInlineAndInTheBackground() {
    served.agent("researcher", researcherOptions(InMemorySessionStore.create()));
    served.start();
    CountDownLatch release = new CountDownLatch(1);
    served.model.respond(say("tides follow the moon").withUsage(usage(1000)));
    served
        .model
        .step()
        .blockUntil(release)
        .respond(say("storms follow the pressure").withUsage(usage(1000)));
    Agent orchestrator = orchestrator(remoteResearcher(served));
    JsonNode[] seen = new JsonNode[3];
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
          release.countDown();
          return call(
              "wait_for_background_tasks",
              Json.object()
                  .set("taskIds", Json.toTree(List.of(seen[1].get("taskId").stringValue()))));
        });
    script.add(
        r -> {
          seen[2] = toolOutput(r);
          return say("Tides follow the moon; storms the pressure.");
        });

    AgentOutput output = orchestrator.runText("Why tides and storms?");

    assertThat(output.text()).isEqualTo("Tides follow the moon; storms the pressure.");
    assertThat(seen[0].get("response").stringValue()).contains("tides follow the moon");
    assertThat(seen[0].get("taskId").stringValue()).startsWith("researcher:");
    assertThat(seen[0].get("status").stringValue()).isEqualTo("completed");
    assertThat(seen[1].get("status").stringValue()).isEqualTo("pending");
    JsonNode report = seen[2].at("/tasks/0");
    assertThat(report.get("status").stringValue()).isEqualTo("completed");
    assertThat(report.get("response").stringValue()).contains("storms follow the pressure");
    // The researcher's model calls are counted in its own sessions, on its server, only.
    SessionSnapshot mine = orchestrator.getSnapshot(output.snapshotId());
    assertThat(mine.state().usage().inputTokens()).isEqualTo(40);
    String taskSnapshot = seen[1].get("taskId").stringValue().substring("researcher:".length());
    assertThat(
            served
                .baton
                .agent("researcher")
                .getSnapshot(taskSnapshot)
                .state()
                .usage()
                .inputTokens())
        .isEqualTo(1000);
  }

  /**
   * The remote server answers the failed turn with the last good snapshot (here none), so the
   * orchestrator finds the failed row that holds the turn's progress by the session, and continues
   * it across the wire.
   */
  @Test
  void aRemoteAgentsFailedTurnIsReportedWithItsFailedRowAndContinuedAcrossTheWire() {
    served.agent("researcher", researcherOptions(InMemorySessionStore.create()));
    served.start();
    served.model.step().fail(BatonException.of(Status.UNAVAILABLE, "model overloaded"));
    served.model.respond(say("tides follow the moon"));
    Agent orchestrator = orchestrator(remoteResearcher(served));
    JsonNode[] seen = new JsonNode[2];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "Why tides?")));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return call(
              "continue_task", Json.object().put("taskId", seen[0].get("taskId").stringValue()));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("The moon.");
        });

    orchestrator.runText("Why tides?");

    assertThat(seen[0].get("status").stringValue()).isEqualTo("failed");
    String failedRow = seen[0].get("taskId").stringValue().substring("researcher:".length());
    Agent researcher = served.baton.agent("researcher");
    assertThat(researcher.getSnapshot(failedRow).status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(seen[1].get("response").stringValue()).isEqualTo("tides follow the moon");
    String continued = seen[1].get("taskId").stringValue().substring("researcher:".length());
    assertThat(researcher.getSnapshot(continued).state().messages())
        .extracting(Message::text)
        .containsExactly("Why tides?", "tides follow the moon");
  }

  @Test
  void aBackgroundTaskIsContinuedAfterItsServerDiedAndCameBack(@TempDir Path dir) {
    CrashableStore firstStore = new CrashableStore(fileStore(dir));
    served.agent("researcher", researcherOptions(firstStore));
    served.start(b -> b.shutdownGrace(Duration.ZERO));
    served.model.respondText("the first findings");
    served
        .model
        .step()
        .blockUntil(new CountDownLatch(1))
        .respond(say("never, the server dies first"));
    Agent researcher = remoteResearcher(served);
    Agent orchestrator = orchestrator(researcher);
    String[] tasks = new String[2];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "Map the reefs.")));
    script.add(
        r -> {
          tasks[0] = toolOutput(r).get("taskId").stringValue();
          return call(
              "continue_task",
              Json.object()
                  .put("taskId", tasks[0])
                  .put("instructions", "Now the currents too.")
                  .put("background", true));
        });
    script.add(
        r -> {
          tasks[1] = toolOutput(r).get("taskId").stringValue();
          return say("Started on the currents.");
        });
    AgentOutput first = orchestrator.runText("Map the reefs and their currents.");
    String pending = tasks[1].substring("researcher:".length());
    assertThat(researcher.getSnapshot(pending).status()).isEqualTo(SnapshotStatus.PENDING);

    // The researcher's process dies: its store stops answering and its server goes away. Another
    // one comes up on the same port and the same folder.
    int port = served.server().port();
    firstStore.crash();
    served.close();
    restarted = new ServedBaton();
    restarted.agent("researcher", researcherOptions(fileStore(dir)));
    restarted.model.respondText("reefs and currents, mapped");
    restarted.serve(b -> b.allAgents(), port);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> researcher.getSnapshot(pending).status() == SnapshotStatus.EXPIRED);

    JsonNode[] seen = new JsonNode[2];
    script.add(
        r ->
            call(
                "check_background_tasks",
                Json.object().set("taskIds", Json.toTree(List.of(tasks[1])))));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return call(
              "continue_task",
              Json.object().put("taskId", tasks[1]).put("instructions", "Redo the currents."));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("All mapped.");
        });
    AgentOutput second =
        orchestrator.runText("How is it going?", AgentInit.ofSession(first.sessionId()));

    assertThat(second.text()).isEqualTo("All mapped.");
    assertThat(seen[0].at("/tasks/0/status").stringValue()).isEqualTo("expired");
    assertThat(seen[1].get("status").stringValue()).isEqualTo("completed");
    assertThat(seen[1].get("response").stringValue()).contains("reefs and currents, mapped");
    // The dead run was fenced, and the work resumed from the snapshot before it.
    assertThat(researcher.getSnapshot(pending).status()).isEqualTo(SnapshotStatus.ABORTED);
    String continued = seen[1].get("taskId").stringValue().substring("researcher:".length());
    assertThat(researcher.getSnapshot(continued).parentId())
        .isEqualTo(tasks[0].substring("researcher:".length()));
    assertThat(restarted.model.lastRequest().messages())
        .extracting(Message::text)
        .contains("Map the reefs.", "the first findings", "Redo the currents.")
        .doesNotContain("Now the currents too.");
  }

  private static FileSessionStore fileStore(Path dir) {
    return FileSessionStore.builder(dir).pollInterval(Duration.ofMillis(50)).build();
  }

  /** A store that stops answering, as a dead process's store does. */
  private static final class CrashableStore extends ForwardingSessionStore {
    private volatile boolean crashed;

    CrashableStore(FileSessionStore store) {
      super(store);
    }

    void crash() {
      crashed = true;
    }

    private void check() {
      if (crashed) {
        throw BatonException.of(Status.UNAVAILABLE, "the process is gone");
      }
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      check();
      return super.getSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      check();
      return super.saveSnapshot(context, snapshotId, update);
    }
  }
}
