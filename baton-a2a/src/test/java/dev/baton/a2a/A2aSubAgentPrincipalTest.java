package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An A2A agent reached with the same headers for every caller, as a Baton sub-agent: the tasks one
 * principal starts are unknown to another, whatever the remote agent would answer.
 */
class A2aSubAgentPrincipalTest {
  private final ServedA2a served = new ServedA2a().serve();
  private final Baton client = Baton.builder().experimental().build();
  private final Agent researcher =
      A2aAgents.define(
          client, "researcher", URI.create(served.url() + "/.well-known/agent-card.json"));
  private final ActionContext alice = as("alice");
  private final ActionContext bob = as("bob");

  @AfterEach
  void close() throws Exception {
    client.close();
    served.close();
  }

  private ActionContext as(String principal) {
    return client.context().withAuth(Map.of(ActionContext.PRINCIPAL, principal));
  }

  private AgentOutput run(ActionContext context, String text, AgentInit init) {
    return researcher.run(context, AgentInput.text(text), init, StreamCallback.discard());
  }

  @Test
  void anotherPrincipalCannotReadWaitForOrAbortATask() {
    served.model.respondText("Tides follow the moon.");
    AgentOutput output = run(alice, "Why tides?", AgentInit.NEW);

    assertThat(researcher.snapshots(alice).get(output.snapshotId()).snapshotId())
        .isEqualTo(output.snapshotId());
    assertNotFound(() -> researcher.snapshots(bob).get(output.snapshotId()));
    assertNotFound(() -> researcher.snapshots(bob).waitFor(output.snapshotId()));
    assertThat(researcher.snapshots(bob).abort(output.snapshotId())).isNull();
    assertThat(researcher.snapshots(client.context()).abort(output.snapshotId())).isNull();
  }

  @Test
  void anotherPrincipalHasNoLatestTaskInTheContextAndCannotContinueIt() {
    served.model.respondText("Tides follow the moon.").respondText("Hello.");
    AgentOutput first = run(alice, "Why tides?", AgentInit.NEW);

    assertThat(researcher.snapshots(bob).latest(first.sessionId())).isNull();
    assertThat(researcher.snapshots(alice).latest(first.sessionId()).snapshotId())
        .isEqualTo(first.snapshotId());

    AgentOutput bobs = run(bob, "Hi", AgentInit.ofSession(first.sessionId()));
    assertThat(bobs.sessionId()).isNotEqualTo(first.sessionId());
    assertThat(served.model.lastRequest().messages())
        .extracting(m -> m.text())
        .doesNotContain("Why tides?");
    assertNotFound(() -> run(bob, "Go on", AgentInit.ofSnapshot(first.snapshotId())));
  }

  @Test
  void anotherPrincipalCannotContinueAContextAnsweredWithPlainMessages() {
    try (FakeHttpServer remote = FakeHttpServer.start()) {
      String message =
          """
          {"jsonrpc": "2.0", "id": "1", "result": {"kind": "message", "messageId": "a1",
           "role": "agent", "contextId": "c1", "parts": [{"kind": "text", "text": "Hello."}]}}
          """;
      remote.reply(
          Reply.json("{\"name\": \"far\", \"url\": \"" + remote.baseUrl().resolve("/rpc") + "\"}"),
          Reply.json(message),
          Reply.json(message.replace("\"c1\"", "\"c2\"")));
      Agent far = A2aAgents.define(client, "far", remote.baseUrl().resolve("/card.json"));

      AgentOutput alices =
          far.run(alice, AgentInput.text("Hi"), AgentInit.NEW, StreamCallback.discard());
      far.run(
          bob,
          AgentInput.text("Go on"),
          AgentInit.ofSession(alices.sessionId()),
          StreamCallback.discard());

      assertThat(alices.sessionId()).isEqualTo("c1");
      // Bob's message starts a context of its own rather than continuing Alice's.
      assertThat(
              Json.parse(remote.request(2).body()).at("/params/message/contextId").isMissingNode())
          .isTrue();
    }
  }

  private static void assertNotFound(Runnable call) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }
}
