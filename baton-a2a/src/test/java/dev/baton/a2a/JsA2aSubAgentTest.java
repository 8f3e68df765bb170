package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * An agent written with the A2A JS SDK ({@code src/test/js/agent-server.mjs}, served over A2A 0.3
 * JSON-RPC) as a Baton sub-agent: an orchestrator delegates to it through the Agents middleware,
 * synchronously and in the background, checks, waits for, aborts and continues its tasks.
 */
class JsA2aSubAgentTest {
  final NodeFixture.Server js = NodeFixture.server("agent-server.mjs");
  final Baton client = Baton.builder().experimental().build();
  final ProgrammableModel orch = ProgrammableModel.define(client.registry(), "orch");
  final Deque<Function<ModelRequest, ModelResponse>> script = new ArrayDeque<>();
  final HttpClient http = HttpClient.newHttpClient();

  // A first run installs the npm packages, which NodeFixture bounds at ten minutes with npm's
  // output; the default timeout of a lifecycle method would cut it short without either.
  @BeforeAll
  @Timeout(value = 11, unit = TimeUnit.MINUTES)
  static void node() {
    NodeFixture.require();
  }

  JsA2aSubAgentTest() {
    orch.fallback(
        request -> Objects.requireNonNull(script.poll(), "script used up").apply(request));
  }

  @AfterEach
  void close() {
    client.close();
    js.close();
    http.close();
  }

  private URI card() {
    return URI.create("http://127.0.0.1:" + js.port() + "/.well-known/agent-card.json");
  }

  private Agent researcher() {
    return A2aAgents.define(
        client,
        "researcher",
        card(),
        A2aAgentOptions.builder().waitPollInterval(Duration.ofMillis(20)).build());
  }

  private Agent orchestrator(Agent researcher) {
    return client.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model("orch")
            .use(Agents.builder().agents(researcher.ref()).async(true).build())
            .maxTurns(10)
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  private static ModelResponse call(String tool, JsonNode input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", input))), FinishReason.STOP);
  }

  private static ModelResponse say(String text) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP);
  }

  /** The output of the tool response the orchestrator's model was just sent. */
  private static JsonNode toolOutput(ModelRequest request) {
    Message last = request.messages().get(request.messages().size() - 1);
    return Objects.requireNonNull(last.toolResponses().get(0).toolResponse().output());
  }

  private static JsonNode taskIds(JsonNode launched) {
    return Json.object().set("taskIds", Json.toTree(List.of(launched.get("taskId").stringValue())));
  }

  private JsonNode control(String path, boolean post) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + js.port() + "/control/" + path));
    try {
      return Json.parse(
          http.send(
                  post
                      ? request.POST(HttpRequest.BodyPublishers.noBody()).build()
                      : request.build(),
                  HttpResponse.BodyHandlers.ofString())
              .body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Blocks until the JS agent holds the task (it is working), so that a cancel finds it so. */
  private void awaitHeld(JsonNode launched) {
    awaitHeld(launched.get("taskId").stringValue().substring("researcher:".length()));
  }

  private void awaitHeld(String a2aTaskId) {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> control("held", false).path("held").toString().contains(a2aTaskId));
  }

  @Test
  void theCardDescribesTheAgent() {
    assertThat(researcher().description()).isEqualTo("A researcher written with the A2A JS SDK.");
    assertThat(describedResearcher("Finds facts.").description()).isEqualTo("Finds facts.");
  }

  private Agent describedResearcher(String description) {
    return A2aAgents.define(
        client, "other", card(), A2aAgentOptions.builder().description(description).build());
  }

  @Test
  void aSynchronousDelegationIsContinuedInTheSameContext() {
    Agent orchestrator = orchestrator(researcher());
    JsonNode[] seen = new JsonNode[2];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "tides")));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return call(
              "continue_task",
              Json.object()
                  .put("taskId", seen[0].get("taskId").stringValue())
                  .put("instructions", "and storms"));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("done");
        });

    assertThat(orchestrator.runText("Why tides and storms?").text()).isEqualTo("done");

    assertThat(seen[0].get("status").stringValue()).isEqualTo("completed");
    assertThat(seen[0].get("response").stringValue()).isEqualTo("echo: tides (turn 1)");
    assertThat(seen[0].get("taskId").stringValue()).startsWith("researcher:");
    // The JS agent counts the messages of a context: the continuation is the context's second.
    assertThat(seen[1].get("response").stringValue()).isEqualTo("echo: and storms (turn 2)");
    assertThat(seen[1].get("taskId").stringValue())
        .isNotEqualTo(seen[0].get("taskId").stringValue());
  }

  @Test
  void anAgentsQuestionIsAnsweredByContinuingItsTask() {
    Agent orchestrator = orchestrator(researcher());
    JsonNode[] seen = new JsonNode[2];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "ask: the flood")));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return call(
              "continue_task",
              Json.object()
                  .put("taskId", seen[0].get("taskId").stringValue())
                  .put("instructions", "1953"));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("done");
        });

    assertThat(orchestrator.runText("Tell me about the flood").text()).isEqualTo("done");

    // input-required reads as completed with the question as the answer ...
    assertThat(seen[0].get("status").stringValue()).isEqualTo("completed");
    assertThat(seen[0].get("response").stringValue()).isEqualTo("Which year?");
    // ... and the continuation answers it in the same A2A task.
    assertThat(seen[1].get("status").stringValue()).isEqualTo("completed");
    assertThat(seen[1].get("response").stringValue()).isEqualTo("answered: 1953");
    assertThat(seen[1].get("taskId").stringValue()).isEqualTo(seen[0].get("taskId").stringValue());
  }

  @Test
  void aBackgroundDelegationIsCheckedThenWaitedForByFollowingTheTasksEvents() {
    Agent orchestrator = orchestrator(researcher());
    JsonNode[] seen = new JsonNode[3];
    script.add(
        r ->
            call(
                "delegate_to_researcher",
                Json.object().put("task", "hold: storms").put("background", true)));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          awaitHeld(seen[0]);
          return call("check_background_tasks", taskIds(seen[0]));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          // The task is released once the wait follows it, so the result comes on the stream.
          // On a thread of its own: the common pool may be busy running the orchestrator's tools.
          Thread.ofVirtual()
              .start(
                  () -> {
                    await()
                        .atMost(Duration.ofSeconds(20))
                        .until(() -> methods().contains(RESUBSCRIBE));
                    control("release", true);
                  });
          return call("wait_for_background_tasks", taskIds(seen[0]));
        });
    script.add(
        r -> {
          seen[2] = toolOutput(r);
          return say("done");
        });

    orchestrator.runText("Why storms?");

    assertThat(seen[0].get("status").stringValue()).isEqualTo("pending");
    assertThat(seen[1].at("/tasks/0/status").stringValue()).isEqualTo("pending");
    assertThat(seen[2].at("/tasks/0/status").stringValue()).isEqualTo("completed");
    assertThat(seen[2].at("/tasks/0/response").stringValue())
        .isEqualTo("echo: hold: storms (turn 1)");
    // The wait read the task, followed it until it settled, and read it once more: no polling.
    List<String> methods = methods();
    assertThat(methods.subList(methods.indexOf(RESUBSCRIBE) - 1, methods.size()))
        .containsExactly("tasks/get", RESUBSCRIBE, "tasks/get");
    // The artifacts the task published while followed are its result's; the one sent in two chunks
    // has both, one part each.
    assertThat(artifacts(seen[2].at("/tasks/0/artifacts")))
        .containsExactlyInAnyOrder(
            "report.md=first half, \nsecond half", "notes.md=notes on hold: storms");
  }

  @Test
  void anArtifactOfTheAgentsTaskIsTheDelegationsArtifact() {
    Agent orchestrator = orchestrator(researcher());
    JsonNode[] seen = new JsonNode[1];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "tides")));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return say("done");
        });

    AgentOutput output = orchestrator.runText("Why tides?");

    assertThat(artifacts(seen[0].get("artifacts"))).containsExactly("notes.md=notes on tides");
    // Merged into the orchestrator's session under the delegation's name, tagged with its source.
    Artifact merged = output.artifacts().get(0);
    assertThat(merged.name()).isEqualTo(seen[0].at("/artifacts/0/name").stringValue());
    assertThat(merged.text()).isEqualTo("notes on tides");
    assertThat(merged.metadata().path("source").asString()).isEqualTo("researcher");
  }

  /** Each reported artifact as {@code <name without the delegation's prefix>=<content>}. */
  private static List<String> artifacts(JsonNode reports) {
    List<String> named = new ArrayList<>();
    for (JsonNode report : reports) {
      String name = report.get("name").stringValue();
      named.add(
          name.substring(name.lastIndexOf('/') + 1) + "=" + report.get("content").stringValue());
    }
    return named;
  }

  private static final String RESUBSCRIBE = "tasks/resubscribe";

  /** The JSON-RPC methods the JS agent was called with, in order. */
  private List<String> methods() {
    List<String> methods = new ArrayList<>();
    control("methods", false).get("methods").forEach(m -> methods.add(m.stringValue()));
    return methods;
  }

  @Test
  void aBackgroundTaskIsAbortedWithTasksCancel() {
    Agent researcher = researcher();
    Agent orchestrator = orchestrator(researcher);
    JsonNode[] seen = new JsonNode[2];
    script.add(
        r ->
            call(
                "delegate_to_researcher",
                Json.object().put("task", "hold: storms").put("background", true)));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          awaitHeld(seen[0]);
          return call("abort_background_tasks", taskIds(seen[0]));
        });
    script.add(
        r -> {
          seen[1] = toolOutput(r);
          return say("stopped");
        });

    orchestrator.runText("Why storms?");

    assertThat(seen[1].at("/tasks/0/status").stringValue()).isEqualTo("aborted");
    String a2aTaskId = seen[0].get("taskId").stringValue().substring("researcher:".length());
    assertThat(researcher.snapshots().get(a2aTaskId).status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(control("held", false).path("held")).isEmpty();
  }

  @Test
  void aFailedTaskReportsFailedWithTheAgentsMessage() {
    Agent orchestrator = orchestrator(researcher());
    JsonNode[] seen = new JsonNode[1];
    script.add(r -> call("delegate_to_researcher", Json.object().put("task", "fail: tides")));
    script.add(
        r -> {
          seen[0] = toolOutput(r);
          return say("it failed");
        });

    orchestrator.runText("Why tides?");

    assertThat(seen[0].get("status").stringValue()).isEqualTo("failed");
    assertThat(seen[0].toString()).contains("the research failed");
  }

  @Test
  void aTaskTheAgentDoesNotKnowIsNotFound() {
    Agent researcher = researcher();

    assertThatThrownBy(() -> researcher.snapshots().get("no-such-task"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    assertThat(researcher.snapshots().abort("no-such-task")).isNull();
  }

  @Test
  void anAgentThatCannotBeReachedIsUnavailable() {
    Agent researcher = researcher();
    js.close();

    assertThatThrownBy(
            () ->
                researcher.run(
                    client.context(),
                    AgentInput.text("tides"),
                    AgentInit.NEW,
                    StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE));
  }

  @Test
  void aDirectTurnAndItsDetachedTaskReadAsSnapshotsOfTheContext() {
    Agent researcher = researcher();

    AgentOutput first = researcher.runText("tides");
    AgentOutput detached =
        researcher.run(
            client.context(),
            AgentInput.text("hold: storms").withDetach(true),
            AgentInit.ofSession(first.sessionId()),
            StreamCallback.discard());
    awaitHeld(detached.snapshotId());
    control("release", true);

    assertThat(first.text()).isEqualTo("echo: tides (turn 1)");
    assertThat(detached.sessionId()).isEqualTo(first.sessionId());
    assertThat(researcher.snapshots().waitFor(detached.snapshotId()).state().messages())
        .extracting(Message::text)
        .containsExactly("hold: storms", "echo: hold: storms (turn 2)");
    assertThat(researcher.snapshots().latest(first.sessionId()).snapshotId())
        .isEqualTo(detached.snapshotId());
  }

  @Test
  void aCardThatNamesAnotherOriginIsRefused() {
    try (NodeFixture.Server liar =
        NodeFixture.server("agent-server.mjs", "--card-url", "http://127.0.0.2:9/a2a")) {
      URI card = URI.create("http://127.0.0.1:" + liar.port() + "/.well-known/agent-card.json");

      assertThatThrownBy(() -> A2aAgents.define(client, "liar", card))
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
                assertThat(e.getMessage())
                    .contains("names its JSON-RPC interface on another origin");
              });
      assertThat(client.registry().lookup(ActionType.AGENT, "liar")).isEmpty();
    }
  }
}
