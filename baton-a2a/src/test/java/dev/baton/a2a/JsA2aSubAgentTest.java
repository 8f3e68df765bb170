package dev.baton.a2a;

import static dev.baton.a2a.ScriptedOrchestrator.call;
import static dev.baton.a2a.ScriptedOrchestrator.taskIds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.Artifact;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Message;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.NodeFixture;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
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
  final HttpClient http = HttpClient.newHttpClient();

  // A first run installs the npm packages, which NodeFixture bounds at ten minutes with npm's
  // output; the default timeout of a lifecycle method would cut it short without either.
  @BeforeAll
  @Timeout(value = 11, unit = TimeUnit.MINUTES)
  static void node() {
    NodeFixture.require();
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

  private ScriptedOrchestrator orchestrator(Agent researcher) {
    return new ScriptedOrchestrator(client, researcher);
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
  private void awaitHeld(@Nullable JsonNode launched) {
    awaitHeld(ScriptedOrchestrator.taskId(launched).substring("researcher:".length()));
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
    ScriptedOrchestrator orchestrator = orchestrator(researcher());
    orchestrator.delegate("tides").continueTask("and storms");

    assertThat(orchestrator.run("Why tides and storms?").text()).isEqualTo("done");

    JsonNode first = orchestrator.output(0);
    JsonNode second = orchestrator.output(1);
    assertThat(first.get("status").stringValue()).isEqualTo("completed");
    assertThat(first.get("response").stringValue()).isEqualTo("echo: tides (turn 1)");
    assertThat(first.get("taskId").stringValue()).startsWith("researcher:");
    // The JS agent counts the messages of a context: the continuation is the context's second.
    assertThat(second.get("response").stringValue()).isEqualTo("echo: and storms (turn 2)");
    assertThat(second.get("taskId").stringValue()).isNotEqualTo(first.get("taskId").stringValue());
  }

  @Test
  void anAgentsQuestionIsAnsweredByContinuingItsTask() {
    ScriptedOrchestrator orchestrator = orchestrator(researcher());
    orchestrator.delegate("ask: the flood").continueTask("1953");

    assertThat(orchestrator.run("Tell me about the flood").text()).isEqualTo("done");

    JsonNode asked = orchestrator.output(0);
    JsonNode answered = orchestrator.output(1);
    // input-required reads as completed with the question as the answer ...
    assertThat(asked.get("status").stringValue()).isEqualTo("completed");
    assertThat(asked.get("response").stringValue()).isEqualTo("Which year?");
    // ... and the continuation answers it in the same A2A task.
    assertThat(answered.get("status").stringValue()).isEqualTo("completed");
    assertThat(answered.get("response").stringValue()).isEqualTo("answered: 1953");
    assertThat(answered.get("taskId").stringValue()).isEqualTo(asked.get("taskId").stringValue());
  }

  @Test
  void aBackgroundDelegationIsCheckedThenWaitedForByFollowingTheTasksEvents() {
    ScriptedOrchestrator orchestrator = orchestrator(researcher());
    orchestrator
        .delegateInBackground("hold: storms")
        .then(
            launched -> {
              awaitHeld(launched);
              return call("check_background_tasks", taskIds(launched));
            })
        .then(
            checked -> {
              // The task is released once the wait follows it, so the result comes on the stream.
              // On a thread of its own: the common pool may be busy running the orchestrator's
              // tools.
              Thread.ofVirtual()
                  .start(
                      () -> {
                        await()
                            .atMost(Duration.ofSeconds(20))
                            .until(() -> methods().contains(RESUBSCRIBE));
                        control("release", true);
                      });
              return call("wait_for_background_tasks", taskIds(orchestrator.output(0)));
            });

    orchestrator.run("Why storms?");

    assertThat(orchestrator.output(0).get("status").stringValue()).isEqualTo("pending");
    assertThat(orchestrator.output(1).at("/tasks/0/status").stringValue()).isEqualTo("pending");
    JsonNode waited = orchestrator.output(2);
    assertThat(waited.at("/tasks/0/status").stringValue()).isEqualTo("completed");
    assertThat(waited.at("/tasks/0/response").stringValue())
        .isEqualTo("echo: hold: storms (turn 1)");
    // The wait read the task, followed it until it settled, and read it once more: no polling.
    List<String> methods = methods();
    assertThat(methods.subList(methods.indexOf(RESUBSCRIBE) - 1, methods.size()))
        .containsExactly("tasks/get", RESUBSCRIBE, "tasks/get");
    // The artifacts the task published while followed are its result's; the one sent in two chunks
    // has both, one part each.
    assertThat(artifacts(waited.at("/tasks/0/artifacts")))
        .containsExactlyInAnyOrder(
            "report.md=first half, \nsecond half", "notes.md=notes on hold: storms");
  }

  @Test
  void anArtifactOfTheAgentsTaskIsTheDelegationsArtifact() {
    ScriptedOrchestrator orchestrator = orchestrator(researcher());
    orchestrator.delegate("tides");

    AgentOutput output = orchestrator.run("Why tides?");

    JsonNode delegated = orchestrator.output(0);
    assertThat(artifacts(delegated.get("artifacts"))).containsExactly("notes.md=notes on tides");
    // Merged into the orchestrator's session under the delegation's name, tagged with its source.
    Artifact merged = output.artifacts().get(0);
    assertThat(merged.name()).isEqualTo(delegated.at("/artifacts/0/name").stringValue());
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
    ScriptedOrchestrator orchestrator = orchestrator(researcher);
    orchestrator
        .delegateInBackground("hold: storms")
        .then(
            launched -> {
              awaitHeld(launched);
              return call("abort_background_tasks", taskIds(launched));
            });

    orchestrator.run("Why storms?");

    assertThat(orchestrator.output(1).at("/tasks/0/status").stringValue()).isEqualTo("aborted");
    String a2aTaskId =
        orchestrator.output(0).get("taskId").stringValue().substring("researcher:".length());
    assertThat(researcher.snapshots().get(a2aTaskId).status()).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(control("held", false).path("held")).isEmpty();
  }

  @Test
  void aFailedTaskReportsFailedWithTheAgentsMessage() {
    ScriptedOrchestrator orchestrator = orchestrator(researcher());
    orchestrator.delegate("fail: tides");

    orchestrator.run("Why tides?");

    JsonNode failed = orchestrator.output(0);
    assertThat(failed.get("status").stringValue()).isEqualTo("failed");
    assertThat(failed.toString()).contains("the research failed");
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
