package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.core.StreamCallback;
import dev.baton.server.TestHttp.Answer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Agents and flows served at routes the application chose, as Genkit's servers let it (Genkit JS's
 * Express handler at any route, Genkit Go's served agents at {@code /api/<name>}), with an agent's
 * companions at the same suffixes of its route as in the default layout.
 */
class ChosenRoutesTest {
  @AutoClose final ServedBaton served = new ServedBaton();

  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  private void researcher() {
    served.agent(
        "researcher", AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  @Test
  void anAgentWithItsCompanionsAndAFlowAnswerAtTheirChosenRoutesOnly() {
    researcher();
    served.baton.defineFlow("shout", String.class, String.class, (ctx, in) -> in.toUpperCase());
    served.serve(b -> b.agentAt("/api/researcher", "researcher").flowAt("/api/shout", "shout"));
    served.model.respondText("tides follow the moon");

    Answer turn = post(served.url("/api/researcher"), envelope(HELLO, Map.of()));
    assertThat(turn.status()).isEqualTo(200);
    assertThat(turn.json().at("/result/message/content/0/text").stringValue())
        .isEqualTo("tides follow the moon");
    JsonNode snapshot = envelope(Map.of("snapshotId", turn.json().at("/result/snapshotId")));
    for (String companion : List.of("getSnapshot", "waitForSnapshot")) {
      Answer read = post(served.url("/api/researcher/" + companion), snapshot);
      assertThat(read.status()).as(companion).isEqualTo(200);
      assertThat(read.json().at("/result/status").stringValue()).isEqualTo("completed");
    }
    Answer abort = post(served.url("/api/researcher/abort"), snapshot);
    assertThat(abort.json().at("/result/status").stringValue()).isEqualTo("completed");
    assertThat(post(served.url("/api/shout"), envelope("hi")).json().get("result").stringValue())
        .isEqualTo("HI");

    // Nowhere else: not at the default routes, which nothing mounted, nor below the chosen ones.
    for (String path :
        List.of("/agents/researcher", "/flows/shout", "/api/researcher/other", "/api")) {
      assertThat(post(served.url(path), envelope(HELLO)).status()).as(path).isEqualTo(404);
    }
    assertThat(served.model.calls()).isEqualTo(1);
  }

  @Test
  void aBatonRemoteAgentDrivesAnAgentAtAChosenRouteThroughItsCompanions() {
    researcher();
    served.serve(b -> b.agentAt("/api/researcher", "researcher"));
    CountDownLatch release = new CountDownLatch(1);
    served.model.respondText("first");
    served
        .model
        .step()
        .blockUntil(release)
        .respond(ModelResponse.of(Message.model("in the background"), FinishReason.STOP));
    served
        .model
        .step()
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never"), FinishReason.STOP));
    Baton client = Baton.builder().experimental().build();
    Agent agent =
        client.defineRemoteAgent(
            "researcher",
            served.url("/api/researcher"),
            RemoteAgentOptions.builder()
                .stateManagement(StateManagement.SERVER)
                .abortable(true)
                .build());

    AgentOutput first = agent.runText("one");
    assertThat(agent.snapshots().get(first.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
    AgentOutput detached =
        agent.run(
            client.context(),
            AgentInput.text("two").withDetach(true),
            AgentInit.ofSnapshot(first.snapshotId()),
            StreamCallback.discard());
    assertThat(detached.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    release.countDown();
    assertThat(agent.snapshots().waitFor(detached.snapshotId()).state().messages().getLast().text())
        .isEqualTo("in the background");
    AgentOutput blocked = agent.run(client.context(), AgentInput.text("three").withDetach(true));
    assertThat(agent.snapshots().abort(blocked.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
  }

  @Test
  void aRemoteAgentAtAChosenRouteIsNamedThereAndLeftOutOfAllAgents() {
    researcher();
    served.start();
    served.model.respondText("facts");
    try (ServedBaton front = new ServedBaton()) {
      front.baton.defineRemoteAgent(
          "researcher",
          served.url("/agents/researcher"),
          RemoteAgentOptions.builder()
              .stateManagement(StateManagement.SERVER)
              .abortable(true)
              .build());
      front.serve(b -> b.allAgents().agentAt("/api/researcher", "researcher"));

      assertThat(post(front.url("/api/researcher"), envelope(HELLO)).status()).isEqualTo(200);
      Answer byDefault = post(front.url("/agents/researcher"), envelope(HELLO));
      assertThat(byDefault.status()).isEqualTo(404);
      assertThat(byDefault.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    }
    assertThat(served.model.calls()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"api/researcher", "/", "/api/", "/api//researcher", "/api/../x", "/api?x=1", ""})
  void aRouteMustBeAnAbsolutePathOfSegments(String route) {
    BatonHandler.Builder builder = BatonHandler.builder(served.baton);
    assertThatThrownBy(() -> builder.agentAt(route, "researcher"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a route");
    assertThatThrownBy(() -> builder.flowAt(route, "shout"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRouteOrACompanionsRouteServesOneActionOnly() {
    BatonHandler.Builder builder =
        BatonHandler.builder(served.baton).agentAt("/api/researcher", "researcher");
    assertThatThrownBy(() -> builder.flowAt("/api/researcher/abort", "shout"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the route /api/researcher/abort is taken: it serves /agent-abort/researcher");
    assertThatThrownBy(() -> builder.agentAt("/api/researcher", "coder"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is taken");
    // The same agent at a second route is fine.
    builder.agentAt("/v2/researcher", "researcher").build();
  }

  @Test
  void aChosenRouteThatTheDefaultLayoutServesIsRefused() {
    // Whichever comes first, the mount or the chosen route: the handler is checked when built.
    BatonHandler.Builder flowOverAgent =
        BatonHandler.builder(served.baton).flowAt("/agents/foo", "shout").allAgents();
    assertThatThrownBy(flowOverAgent::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "the route /agents/foo is taken: the default layout serves /agent/foo there; choose a"
                + " route outside it");
    // A companion's route counts too: /agents/abort is the turn route of an agent named "abort".
    BatonHandler.Builder companion =
        BatonHandler.builder(served.baton).allAgents().agentAt("/agents", "researcher");
    assertThatThrownBy(companion::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageMatching(
            "the route /agents/(getSnapshot|waitForSnapshot|abort) is taken: the default layout"
                + " serves /agent/.*");
    BatonHandler.Builder named =
        BatonHandler.builder(served.baton)
            .agents("researcher")
            .flowAt("/agents/researcher/getSnapshot", "shout");
    assertThatThrownBy(named::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("serves /agent-snapshot/researcher there");
    BatonHandler.Builder flows =
        BatonHandler.builder(served.baton).flows("shout").agentAt("/flows/shout", "researcher");
    assertThatThrownBy(flows::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("serves /flow/shout there");

    // A default route that is not served may be chosen.
    BatonHandler.builder(served.baton)
        .agents("researcher")
        .flowAt("/agents/coder", "shout")
        .build();
    BatonHandler.builder(served.baton).allFlows().agentAt("/agents/shout", "researcher").build();
  }
}
