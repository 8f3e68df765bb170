package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentConnection;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An A2A agent played by a fake server, as a Baton sub-agent: answers no A2A SDK sends, such as an
 * HTTP error on the JSON-RPC endpoint, and the exact requests of a wait (a stream followed, opened
 * again, refused).
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

  @Test
  void aWaitFollowsTheTasksEventsRatherThanReadingItAgainWhenTheAgentStreams() {
    SessionSnapshot settled =
        waitForDetachedTask(
            streamingCard(),
            Reply.sse(
                result(task("working")),
                result(statusUpdate("working", false)),
                result(statusUpdate("completed", true))),
            reply("completed"));

    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(methods())
        .containsExactly("message/send", "tasks/get", "tasks/resubscribe", "tasks/get");
    assertThat(remote.request(3).header("Accept")).isEqualTo("text/event-stream");
  }

  @Test
  void aBlockingSendAnsweredBeforeItsTaskSettledFollowsTheTask() {
    remote.reply(
        streamingCard(),
        reply("working"),
        reply("working"),
        Reply.sse(result(statusUpdate("completed", true))),
        reply("completed"));
    Agent far = define();

    AgentOutput output =
        far.run(client.context(), AgentInput.text("Hi"), AgentInit.NEW, StreamCallback.discard());

    assertThat(output.text()).isEqualTo("Done.");
    assertThat(methods())
        .containsExactly("message/send", "tasks/get", "tasks/resubscribe", "tasks/get");
  }

  @Test
  void aStreamThatBreaksIsOpenedAgainAndTheResultIsNotLost() {
    SessionSnapshot settled =
        waitForDetachedTask(
            streamingCard(),
            Reply.sse(result(task("working"))).thenCut(),
            reply("working"),
            Reply.sse(result(statusUpdate("completed", true))),
            reply("completed"));

    assertThat(settled.state().messages()).extracting(Message::text).containsExactly("Hi", "Done.");
    assertThat(methods())
        .containsExactly(
            "message/send",
            "tasks/get",
            "tasks/resubscribe",
            "tasks/get",
            "tasks/resubscribe",
            "tasks/get");
  }

  @Test
  void anAgentThatRefusesTheStreamHasItsTaskReadEveryPollInterval() {
    String unsupported =
        """
        {"jsonrpc": "2.0", "id": "1",
         "error": {"code": -32004, "message": "This operation is not supported"}}
        """;
    SessionSnapshot settled =
        waitForDetachedTask(
            streamingCard(), Reply.json(unsupported), reply("working"), reply("completed"));

    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(methods())
        .containsExactly(
            "message/send", "tasks/get", "tasks/resubscribe", "tasks/get", "tasks/get");
  }

  @Test
  void anAgentThatDoesNotStreamHasItsTaskReadEveryPollInterval() {
    SessionSnapshot settled = waitForDetachedTask(card(), reply("completed"));

    assertThat(settled.status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(methods()).containsExactly("message/send", "tasks/get", "tasks/get");
  }

  @Test
  void anAbortEndsAWaitThatFollowsTheTask() throws Exception {
    Reply stream = Reply.sse(result(task("working"))).thenHang();
    remote.reply(streamingCard(), reply("working"), reply("working"), stream);
    Agent far = define();
    AgentOutput detached = detach(far);
    Cancellation wait = Cancellation.create();
    CompletableFuture<Void> waiting =
        CompletableFuture.runAsync(
            () ->
                far.snapshots(client.context().withCancellation(wait))
                    .waitFor(detached.snapshotId()));
    await().atMost(Duration.ofSeconds(10)).until(() -> remote.requests().size() == 4);

    wait.cancel();

    assertThatThrownBy(waiting::join)
        .hasCauseInstanceOf(BatonException.class)
        .cause()
        .satisfies(e -> assertThat(((BatonException) e).status()).isEqualTo(Status.CANCELLED));
    stream.awaitClientGone();
  }

  /**
   * Detaches a turn whose task is working, and waits for it: the wait reads the task (working),
   * then gets the replies {@code then}.
   */
  private SessionSnapshot waitForDetachedTask(Reply card, Reply... then) {
    remote.reply(card, reply("working"), reply("working"));
    remote.reply(then);
    Agent far = define();
    return far.snapshots().waitFor(detach(far).snapshotId());
  }

  private static Reply reply(String state) {
    return Reply.json(result(task(state)));
  }

  private Agent define() {
    return A2aAgents.define(
        client,
        "far",
        remote.baseUrl().resolve("/card.json"),
        A2aAgentOptions.builder().waitPollInterval(Duration.ofMillis(10)).build());
  }

  private AgentOutput detach(Agent far) {
    return far.run(
        client.context(),
        AgentInput.text("Hi").withDetach(true),
        AgentInit.NEW,
        StreamCallback.discard());
  }

  private List<String> methods() {
    return remote.requests().stream()
        .skip(1)
        .map(request -> Json.parse(request.body()).get("method").stringValue())
        .toList();
  }

  private static String task(String state) {
    String done =
        state.equals("completed")
            ? ", \"message\": {\"kind\": \"message\", \"messageId\": \"a1\", \"role\": \"agent\","
                + " \"parts\": [{\"kind\": \"text\", \"text\": \"Done.\"}]}"
            : "";
    return """
        {"kind": "task", "id": "t1", "contextId": "c1", "status": {"state": "%s"%s},
         "history": [{"kind": "message", "messageId": "u1", "role": "user",
                      "parts": [{"kind": "text", "text": "Hi"}]}]}
        """
        .formatted(state, done);
  }

  private static String statusUpdate(String state, boolean last) {
    return """
        {"kind": "status-update", "taskId": "t1", "contextId": "c1",
         "status": {"state": "%s"}, "final": %s}
        """
        .formatted(state, last);
  }

  /** A JSON-RPC response on one line, as one SSE event or a whole answer. */
  private static String result(String event) {
    return "{\"jsonrpc\": \"2.0\", \"id\": \"1\", \"result\": " + event.replace("\n", " ") + "}";
  }

  private Reply card() {
    return Reply.json("{\"name\": \"far\", \"url\": \"" + remote.baseUrl().resolve("/rpc") + "\"}");
  }

  private Reply streamingCard() {
    return Reply.json(
        "{\"name\": \"far\", \"url\": \""
            + remote.baseUrl().resolve("/rpc")
            + "\", \"capabilities\": {\"streaming\": true}}");
  }
}
