package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An A2A agent played by a fake server, as a Baton sub-agent: answers no A2A SDK sends, such as an
 * HTTP error on the JSON-RPC endpoint.
 */
class A2aSubAgentFakeServerTest {
  private final FakeHttpServer remote = FakeHttpServer.start();
  private final Baton client = Baton.builder().experimental().build();

  @AfterEach
  void close() {
    client.close();
    remote.close();
  }

  @Test
  void aNotFoundEndpointIsUnavailableNotAnUnknownTask() {
    String task =
        """
        {"jsonrpc": "2.0", "id": "1", "result": {"kind": "task", "id": "t1", "contextId": "c1",
         "status": {"state": "completed"}}}
        """;
    remote.reply(card(), Reply.json(task), Reply.json(404, "{\"error\": \"no such route\"}"));
    Agent far = A2aAgents.define(client, "far", remote.baseUrl().resolve("/card.json"));
    AgentOutput output =
        far.run(client.context(), AgentInput.text("Hi"), AgentInit.NEW, StreamCallback.discard());

    assertThatThrownBy(() -> far.snapshots().get(output.snapshotId()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE));
  }

  @Test
  void aConnectionKeepsTheContextOfAnAgentThatAnswersWithPlainMessages() throws Exception {
    String message =
        """
        {"jsonrpc": "2.0", "id": "1", "result": {"kind": "message", "messageId": "a1",
         "role": "agent", "contextId": "c1", "parts": [{"kind": "text", "text": "Hello."}]}}
        """;
    remote.reply(card(), Reply.json(message), Reply.json(message));
    Agent far = A2aAgents.define(client, "far", remote.baseUrl().resolve("/card.json"));

    try (AgentConnection connection = far.connect(client.context(), AgentInit.NEW)) {
      connection.sendText("Hi");
      connection.sendText("And then?");
      assertThat(connection.output().sessionId()).isEqualTo("c1");
    }

    assertThat(remote.request(1).body()).doesNotContain("contextId");
    assertThat(Json.parse(remote.request(2).body()).at("/params/message/contextId").asString())
        .isEqualTo("c1");
  }

  private Reply card() {
    return Reply.json("{\"name\": \"far\", \"url\": \"" + remote.baseUrl().resolve("/rpc") + "\"}");
  }
}
