package dev.baton.conformance;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.agent.CompanionRequests.GetSnapshotRequest;
import dev.baton.testing.AgentConformance;
import dev.baton.testing.ConformanceAgents;
import dev.baton.testing.ConformanceSuite;
import dev.baton.testing.ConformanceTools;
import dev.baton.testing.ProgrammableModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

/** Runs Genkit's {@code agent.yaml} unchanged against agents called in process. */
class AgentConformanceTest {

  @TestFactory
  Stream<DynamicTest> agentSuite() {
    ConformanceSuite suite = ConformanceSuite.load("agent.yaml");
    return suite.tests().stream()
        .map(
            scenario ->
                DynamicTest.dynamicTest(
                    scenario.path("name").asString(),
                    () -> new AgentConformance(new InProcess()).run(scenario)));
  }

  /** Drives the agents through their Java API, with JSON at the edges as a client would send. */
  static final class InProcess implements AgentConformance.Driver {
    private final Baton baton = Baton.builder().experimental().build();
    private final ProgrammableModel model;
    private final Map<String, Agent> agents;

    InProcess() {
      ConformanceTools.register(baton.registry());
      model = ProgrammableModel.define(baton.registry(), "programmableModel");
      agents = ConformanceAgents.define(baton, InMemorySessionStore::create);
    }

    @Override
    public void scriptModel(JsonNode modelResponses, JsonNode streamChunks) {
      for (int i = 0; i < modelResponses.size(); i++) {
        List<ModelResponseChunk> chunks = new ArrayList<>();
        streamChunks.path(i).forEach(c -> chunks.add(Json.convert(c, ModelResponseChunk.class)));
        model
            .step()
            .chunks(chunks)
            .respond(Json.convert(modelResponses.get(i), ModelResponse.class));
      }
    }

    @Override
    public AgentConformance.Sent send(String agent, JsonNode init, List<JsonNode> inputs) {
      AgentConnection connection = agent(agent).connect(baton.context(), AgentInit.fromJson(init));
      for (JsonNode input : inputs) {
        connection.send(Json.convert(input, AgentInput.class));
      }
      connection.close();
      List<JsonNode> chunks = new ArrayList<>();
      for (AgentStreamChunk chunk : connection.receive()) {
        chunks.add(Json.toTree(chunk));
      }
      return new AgentConformance.Sent(chunks, Json.toTree(connection.output()));
    }

    @Override
    public JsonNode getSnapshot(
        String agent, @Nullable String snapshotId, @Nullable String sessionId) {
      return baton
          .registry()
          .lookup("/agent-snapshot/" + agent)
          .orElseThrow()
          .runJson(
              baton.context(),
              Json.toTree(new GetSnapshotRequest(snapshotId, sessionId)),
              StreamCallback.discard());
    }

    @Override
    public void abort(String agent, String snapshotId) {
      agent(agent).snapshots().abort(snapshotId);
    }

    private Agent agent(String name) {
      return Objects.requireNonNull(agents.get(name), () -> "no conformance agent " + name);
    }
  }
}
