package dev.baton.a2a;

import static dev.baton.a2a.ServedA2a.send;
import static dev.baton.a2a.ServedA2a.writesNote;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import io.a2a.A2A;
import io.a2a.client.http.A2ACardResolver;
import io.a2a.client.http.JdkA2AHttpClient;
import io.a2a.client.transport.jsonrpc.JSONRPCTransport;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Task;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** What a served task carries: its status message, artifacts and history, as clients read them. */
class A2aTaskContentTest {
  private final ServedA2a served = new ServedA2a().serve();

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void theJavaSdkReadsAnAnswerOfOnlyReasoning() throws Exception {
    served.model.respond(
        ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.reasoning("hmm"))), FinishReason.STOP));
    JSONRPCTransport transport =
        new JSONRPCTransport(
            new A2ACardResolver(
                    new JdkA2AHttpClient(), served.url() + "/", ".well-known/agent-card.json")
                .getAgentCard());

    Task task =
        (Task)
            transport.sendMessage(
                new MessageSendParams.Builder().message(A2A.toUserMessage("Think")).build(), null);

    assertThat(task.getStatus().state()).isEqualTo(TaskState.COMPLETED);
    assertThat(task.getStatus().message()).isNull();
    Task got = transport.getTask(new TaskQueryParams(task.getId(), 10), null);
    assertThat(got.getHistory())
        .singleElement()
        .satisfies(m -> assertThat(m.getRole()).isEqualTo(io.a2a.spec.Message.Role.USER));
  }

  @Test
  void historyHoldsTheTasksOwnMessagesAndHonoursItsLength() {
    served.model.respondText("Tides follow the moon.").respondText("Storms follow fronts.");
    JsonNode first = served.result("message/send", send("Why tides?", null, null));
    JsonNode second =
        served.result(
            "message/send", send("And storms?", first.path("contextId").asString(), null));
    String id = second.path("id").asString();

    JsonNode history = served.result("tasks/get", Json.object().put("id", id)).path("history");
    assertThat(history).hasSize(2);
    assertThat(history.get(0).path("role").asString()).isEqualTo("user");
    assertThat(history.get(0).at("/parts/0/text").asString()).isEqualTo("And storms?");
    assertThat(history.get(0).path("messageId").asString()).isEqualTo(id + "-0");
    assertThat(history.get(0).path("taskId").asString()).isEqualTo(id);
    assertThat(history.get(0).path("contextId").asString())
        .isEqualTo(first.path("contextId").asString());
    assertThat(history.get(1).path("role").asString()).isEqualTo("agent");
    assertThat(history.get(1).at("/parts/0/text").asString()).isEqualTo("Storms follow fronts.");
    assertThat(second.path("history")).isEqualTo(history);

    JsonNode last = served.result("tasks/get", Json.object().put("id", id).put("historyLength", 1));
    assertThat(last.path("history")).containsExactly(history.get(1));
    assertThat(
            served
                .result("tasks/get", Json.object().put("id", id).put("historyLength", 0))
                .path("history"))
        .isEmpty();
    JsonNode negative =
        served.call("tasks/get", Json.object().put("id", id).put("historyLength", -1));
    assertThat(negative.at("/error/code").asInt()).isEqualTo(-32602);
  }

  @Test
  void sendHonoursTheConfiguredHistoryLength() {
    served.model.respondText("Hello.");
    ObjectNode params = send("Hi", null, null);
    params.withObject("configuration").put("historyLength", 1);

    JsonNode task = served.result("message/send", params);

    assertThat(task.path("history"))
        .singleElement()
        .satisfies(m -> assertThat(m.at("/parts/0/text").asString()).isEqualTo("Hello."));
    params.withObject("configuration").put("historyLength", -2);
    assertThat(served.call("message/send", params).at("/error/code").asInt()).isEqualTo(-32602);
  }

  @Test
  void batonsClientRetriesAFailedTaskFromItsHistory() {
    served.model.step().fail(BatonException.failedPrecondition("model says no"));
    Baton client = Baton.builder().experimental().build();
    try {
      Agent remote =
          A2aAgents.define(client, "r", URI.create(served.url() + "/.well-known/agent-card.json"));
      AgentOutput first =
          remote.run(
              client.context(), AgentInput.text("hi"), AgentInit.NEW, StreamCallback.discard());
      assertThat(first.isFailed()).isTrue();
      served.model.respondText("ok now");

      AgentOutput retried =
          remote.run(
              client.context(),
              AgentInput.retryTurn(),
              AgentInit.ofSnapshot(first.snapshotId()),
              StreamCallback.discard());

      assertThat(retried.isFailed()).isFalse();
      assertThat(retried.text()).isEqualTo("ok now");
      assertThat(served.model.lastRequest().messages()).extracting(Message::text).contains("hi");
    } finally {
      client.close();
    }
  }

  @Test
  void aCancelAnswersWithWhatTheTurnHadMade() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    served.model.respond(writesNote("notes", "v1"));
    served.model.step().signalOnEntry(entered).blockUntil(never).respondText("unreached");
    ObjectNode params = send("Research forever", null, null);
    params.withObject("configuration").put("blocking", false);
    String id = served.result("message/send", params).path("id").asString();
    entered.await();

    JsonNode canceled = served.result("tasks/cancel", Json.object().put("id", id));

    assertThat(canceled.at("/status/state").asString()).isEqualTo("canceled");
    assertThat(canceled.path("artifacts"))
        .singleElement()
        .satisfies(a -> assertThat(a.at("/parts/0/text").asString()).isEqualTo("v1"));
    never.countDown();
  }

  @Test
  void aFilesBytesMustBeBase64() {
    ObjectNode params = send("hi", null, null);
    ((ObjectNode) params.get("message"))
        .withArray("parts")
        .addObject()
        .put("kind", "file")
        .putObject("file")
        .put("bytes", "%%%not base64")
        .put("mimeType", "image/png");

    JsonNode response = served.call("message/send", params);

    assertThat(response.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(response.at("/error/message").asString())
        .contains("params.message.parts[1].file.bytes");
  }
}
