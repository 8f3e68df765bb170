package dev.baton.a2a;

import static dev.baton.a2a.ServedA2a.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.agent.SnapshotSubscriber;
import dev.baton.agent.StatusSubscription;
import dev.baton.agent.store.FileSessionStore;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.server.TestHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A Baton agent served over A2A, driven by raw JSON-RPC: the methods and the task mapping. */
class A2aServerTest {
  private final ServedA2a served = new ServedA2a().serve();

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  @Test
  void theCardNamesTheAgentItsUrlAndStreaming() throws Exception {
    URI card = URI.create(served.url() + "/.well-known/agent-card.json");
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(HttpRequest.newBuilder(card).build(), HttpResponse.BodyHandlers.ofString());

    JsonNode json = Json.parse(response.body());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json.path("protocolVersion").asString()).isEqualTo("0.3.0");
    assertThat(json.path("name").asString()).isEqualTo("researcher");
    assertThat(json.path("description").asString())
        .isEqualTo("Finds facts and writes research notes.");
    assertThat(json.path("url").asString()).isEqualTo(served.url().toString());
    assertThat(json.path("preferredTransport").asString()).isEqualTo("JSONRPC");
    assertThat(json.path("capabilities").path("streaming").asBoolean()).isTrue();
    assertThat(json.path("skills").get(0).path("id").asString()).isEqualTo("researcher");
  }

  @Test
  void aSentMessageIsACompletedTaskAndTheNextOneInItsContextContinuesTheSession() {
    served.model.respondText("Binary search needs sorted input.").respondText("Yes, uniform.");

    JsonNode first = served.result("message/send", send("What limits binary search?", null, null));
    assertThat(first.path("kind").asString()).isEqualTo("task");
    assertThat(first.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(first.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Binary search needs sorted input.");
    String contextId = first.path("contextId").asString();

    JsonNode second = served.result("message/send", send("Uniform keys too?", contextId, null));
    assertThat(second.path("contextId").asString()).isEqualTo(contextId);
    assertThat(second.path("id").asString()).isNotEqualTo(first.path("id").asString());
    assertThat(served.model.lastRequest().messages())
        .extracting(m -> m.text())
        .contains("What limits binary search?", "Binary search needs sorted input.");

    JsonNode got = served.result("tasks/get", Json.object().put("id", first.path("id").asString()));
    assertThat(got.path("status").path("state").asString()).isEqualTo("completed");
  }

  @Test
  void aNonBlockingSendIsWorkingUntilItsTurnEndsAndTasksGetSeesItEnd() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().blockUntil(release).respondText("Done.");
    JsonNode params = send("Research slowly", null, null);
    params.withObject("configuration").put("blocking", false);

    JsonNode task = served.result("message/send", params);
    assertThat(task.path("status").path("state").asString()).isEqualTo("working");
    release.countDown();

    String id = task.path("id").asString();
    org.awaitility.Awaitility.await()
        .until(
            () ->
                served
                    .result("tasks/get", Json.object().put("id", id))
                    .path("status")
                    .path("state")
                    .asString()
                    .equals("completed"));
  }

  @Test
  void aCanceledTaskIsBatonsAbort() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(never).respondText("unreached");
    JsonNode params = send("Research forever", null, null);
    params.withObject("configuration").put("blocking", false);
    String id = served.result("message/send", params).path("id").asString();
    entered.await();

    JsonNode canceled = served.result("tasks/cancel", Json.object().put("id", id));
    assertThat(canceled.path("status").path("state").asString()).isEqualTo("canceled");
    JsonNode again = served.call("tasks/cancel", Json.object().put("id", id));
    assertThat(again.path("error").path("code").asInt()).isEqualTo(-32002);
  }

  @Test
  void anInterruptIsInputRequiredAndTheNextMessageInTheTaskAnswersItUnderTheSameId() {
    served.modelAsksForApproval();
    served.model.respondText("Published.");

    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    assertThat(asked.path("status").path("state").asString()).isEqualTo("input-required");
    JsonNode question = asked.path("status").path("message").path("parts").get(0).path("data");
    assertThat(question.path("interrupt").path("name").asString()).isEqualTo("approve");
    assertThat(question.path("interrupt").path("data").path("question").asString())
        .isEqualTo("May I proceed?");
    String taskId = asked.path("id").asString();

    JsonNode done =
        served.result("message/send", send("yes", asked.path("contextId").asString(), taskId));
    assertThat(done.path("id").asString()).isEqualTo(taskId);
    assertThat(done.path("contextId").asString()).isEqualTo(asked.path("contextId").asString());
    assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
    JsonNode answer = done.path("status").path("message");
    assertThat(answer.path("parts").get(0).path("text").asString()).isEqualTo("Published.");
    assertThat(answer.path("taskId").asString()).isEqualTo(taskId);
    assertThat(answer.path("messageId").asString())
        .isNotEqualTo(asked.path("status").path("message").path("messageId").asString());

    JsonNode got = served.result("tasks/get", Json.object().put("id", taskId));
    assertThat(got.path("id").asString()).isEqualTo(taskId);
    assertThat(got.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(got.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Published.");
  }

  @Test
  void aTaskAsksAndIsAnsweredSeveralRoundsUnderOneId() {
    served.modelAsksForApproval();
    served.modelAsksForApproval();
    served.model.respondText("Published twice.");
    JsonNode asked = served.result("message/send", send("Publish both", null, null));
    String contextId = asked.path("contextId").asString();
    String taskId = asked.path("id").asString();

    JsonNode again = served.result("message/send", send("yes", contextId, taskId));
    assertThat(again.path("id").asString()).isEqualTo(taskId);
    assertThat(again.path("status").path("state").asString()).isEqualTo("input-required");
    assertThat(
            served
                .result("tasks/get", Json.object().put("id", taskId))
                .path("status")
                .path("state")
                .asString())
        .isEqualTo("input-required");

    JsonNode done = served.result("message/send", send("yes, that too", contextId, taskId));
    assertThat(done.path("id").asString()).isEqualTo(taskId);
    assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(done.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Published twice.");
    assertThat(served.model.requests()).hasSize(3);
  }

  @Test
  void aStreamedAnswerIsTheSameTaskToItsEnd() {
    served.modelAsksForApproval();
    served.model.respondText("Published.");
    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    String taskId = asked.path("id").asString();
    ObjectNode request =
        Json.object().put("jsonrpc", "2.0").put("id", "s2").put("method", "message/stream");
    request.set("params", send("yes", asked.path("contextId").asString(), taskId));

    List<JsonNode> frames =
        TestHttp.post(served.url(), request, "Accept", "text/event-stream").frames();

    JsonNode first = frames.getFirst().path("result");
    assertThat(first.path("kind").asString()).isEqualTo("task");
    assertThat(first.path("id").asString()).isEqualTo(taskId);
    JsonNode last = frames.getLast().path("result");
    assertThat(last.path("taskId").asString()).isEqualTo(taskId);
    assertThat(last.path("final").asBoolean()).isTrue();
    assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
  }

  @Test
  void whileItsAnswerRunsTheTaskIsWorkingAndTakesNoOtherMessage() throws Exception {
    served.modelAsksForApproval();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(release).respondText("Published.");
    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    String contextId = asked.path("contextId").asString();
    String taskId = asked.path("id").asString();
    ObjectNode answer = send("yes", contextId, taskId);
    answer.withObject("configuration").put("blocking", false);

    JsonNode answering = served.result("message/send", answer);
    entered.await();
    try {
      assertThat(answering.path("id").asString()).isEqualTo(taskId);
      assertThat(answering.path("status").path("state").asString()).isEqualTo("working");
      JsonNode got = served.result("tasks/get", Json.object().put("id", taskId));
      assertThat(got.path("status").path("state").asString()).isEqualTo("working");

      JsonNode refused = served.call("message/send", send("yes again", contextId, taskId));
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32600);
      assertThat(refused.path("error").path("message").asString())
          .isEqualTo("Task " + taskId + " is not waiting for input");
    } catch (Throwable failure) {
      release.countDown();
      throw failure;
    }
    ObjectNode resubscribe =
        Json.object().put("jsonrpc", "2.0").put("id", "r2").put("method", "tasks/resubscribe");
    resubscribe.set("params", Json.object().put("id", taskId));
    CompletableFuture<TestHttp.Answer> stream =
        CompletableFuture.supplyAsync(
            () -> TestHttp.post(served.url(), resubscribe, "Accept", "text/event-stream"));
    release.countDown();

    List<JsonNode> frames = stream.get().frames();
    assertThat(frames.getFirst().path("result").path("id").asString()).isEqualTo(taskId);
    JsonNode last = frames.getLast().path("result");
    assertThat(last.path("taskId").asString()).isEqualTo(taskId);
    assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(last.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Published.");
    assertThat(served.model.requests()).hasSize(2);
  }

  @Test
  void twoAnswersAtOnceResumeTheTaskOnce() throws Exception {
    served.close();
    ClaimGate gate = new ClaimGate();
    try (ServedA2a racing = new ServedA2a(gate).serve()) {
      racing.modelAsksForApproval();
      racing.model.respondText("Published.");
      JsonNode asked = racing.result("message/send", send("Publish the notes", null, null));
      String contextId = asked.path("contextId").asString();
      String taskId = asked.path("id").asString();
      // Both answers read the task as waiting before either may claim it.
      gate.hold(taskId);

      CompletableFuture<JsonNode> first =
          CompletableFuture.supplyAsync(
              () -> racing.call("message/send", send("yes", contextId, taskId)));
      CompletableFuture<JsonNode> second =
          CompletableFuture.supplyAsync(
              () -> racing.call("message/send", send("yes too", contextId, taskId)));
      List<JsonNode> answers = List.of(first.get(), second.get());

      assertThat(answers)
          .filteredOn(a -> a.has("result"))
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.path("result").path("id").asString()).isEqualTo(taskId);
                assertThat(a.path("result").path("status").path("state").asString())
                    .isEqualTo("completed");
              });
      assertThat(answers)
          .filteredOn(a -> a.has("error"))
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.path("error").path("code").asInt()).isEqualTo(-32600);
                assertThat(a.path("error").path("message").asString())
                    .isEqualTo("Task " + taskId + " is already being answered");
              });
      assertThat(racing.model.requests()).hasSize(2);
    }
  }

  @Test
  void aQuestionAskedBeforeARestartIsAnsweredAfterIt(@TempDir Path dir) throws Exception {
    served.close();
    String contextId;
    String taskId;
    try (ServedA2a before = new ServedA2a(fileStore(dir)).serve()) {
      before.modelAsksForApproval();
      JsonNode asked = before.result("message/send", send("Publish the notes", null, null));
      assertThat(asked.path("status").path("state").asString()).isEqualTo("input-required");
      contextId = asked.path("contextId").asString();
      taskId = asked.path("id").asString();
    }

    try (ServedA2a after = new ServedA2a(fileStore(dir)).serve()) {
      after.model.respondText("Published.");

      JsonNode done = after.result("message/send", send("yes", contextId, taskId));

      assertThat(done.path("id").asString()).isEqualTo(taskId);
      assertThat(done.path("status").path("state").asString()).isEqualTo("completed");
      JsonNode got = after.result("tasks/get", Json.object().put("id", taskId));
      assertThat(got.path("status").path("message").path("parts").get(0).path("text").asString())
          .isEqualTo("Published.");
      JsonNode again = after.call("message/send", send("yes again", contextId, taskId));
      assertThat(again.path("error").path("code").asInt()).isEqualTo(-32600);
    }
  }

  @Test
  void aCanceledQuestionIsCanceledForGoodAndTakesNoAnswer() {
    served.modelAsksForApproval();
    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    String contextId = asked.path("contextId").asString();
    String taskId = asked.path("id").asString();

    JsonNode canceled = served.result("tasks/cancel", Json.object().put("id", taskId));

    assertThat(canceled.path("id").asString()).isEqualTo(taskId);
    assertThat(canceled.path("status").path("state").asString()).isEqualTo("canceled");
    JsonNode got = served.result("tasks/get", Json.object().put("id", taskId));
    assertThat(got.path("status").path("state").asString()).isEqualTo("canceled");
    JsonNode answer = served.call("message/send", send("yes", contextId, taskId));
    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(answer.path("error").path("message").asString())
        .isEqualTo("Task " + taskId + " is in a terminal state");
    JsonNode again = served.call("tasks/cancel", Json.object().put("id", taskId));
    assertThat(again.path("error").path("code").asInt()).isEqualTo(-32002);
    assertThat(served.model.requests()).hasSize(1);
  }

  @Test
  void aStreamSendsTheTaskThenItsFinalStatus() {
    served.model.respondText("Streamed answer.");
    JsonNode request =
        Json.object().put("jsonrpc", "2.0").put("id", "s1").put("method", "message/stream");
    ((tools.jackson.databind.node.ObjectNode) request).set("params", send("Stream it", null, null));

    TestHttp.Answer answer = TestHttp.post(served.url(), request, "Accept", "text/event-stream");

    assertThat(answer.contentType()).startsWith("text/event-stream");
    List<JsonNode> frames = answer.frames();
    assertThat(frames).allSatisfy(f -> assertThat(f.path("id").asString()).isEqualTo("s1"));
    assertThat(frames.getFirst().path("result").path("kind").asString()).isEqualTo("task");
    JsonNode last = frames.getLast().path("result");
    assertThat(last.path("kind").asString()).isEqualTo("status-update");
    assertThat(last.path("final").asBoolean()).isTrue();
    assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
  }

  @Test
  void resubscribingToARunningTaskStreamsItToItsEnd() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().signalOnEntry(entered).blockUntil(release).respondText("Finally.");
    JsonNode params = send("Take your time", null, null);
    params.withObject("configuration").put("blocking", false);
    String id = served.result("message/send", params).path("id").asString();
    entered.await();
    tools.jackson.databind.node.ObjectNode request =
        Json.object().put("jsonrpc", "2.0").put("id", "r1").put("method", "tasks/resubscribe");
    request.set("params", Json.object().put("id", id));

    java.util.concurrent.CompletableFuture<TestHttp.Answer> stream =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> TestHttp.post(served.url(), request, "Accept", "text/event-stream"));
    release.countDown();

    List<JsonNode> frames = stream.get().frames();
    assertThat(frames.getFirst().path("result").path("id").asString()).isEqualTo(id);
    JsonNode last = frames.getLast().path("result");
    assertThat(last.path("final").asBoolean()).isTrue();
    assertThat(last.path("status").path("state").asString()).isEqualTo("completed");
    assertThat(last.path("status").path("message").path("parts").get(0).path("text").asString())
        .isEqualTo("Finally.");
  }

  @Test
  void anotherPrincipalsTaskIsUnknown() throws Exception {
    served.close();
    try (ServedA2a guarded =
        new ServedA2a()
            .serve(
                b ->
                    b.contextProvider(
                        request -> java.util.Map.of("principal", request.header("x-user"))))) {
      guarded.model.respondText("Mine.");
      String id =
          guarded
              .result("message/send", send("Hi", null, null), "x-user", "alice")
              .path("id")
              .asString();

      JsonNode asBob = guarded.call("tasks/get", Json.object().put("id", id), "x-user", "bob");
      assertThat(asBob.path("error").path("code").asInt()).isEqualTo(-32001);
      JsonNode cancelAsBob =
          guarded.call("tasks/cancel", Json.object().put("id", id), "x-user", "bob");
      assertThat(cancelAsBob.path("error").path("code").asInt()).isEqualTo(-32001);
      JsonNode resubscribeAsBob =
          guarded.call("tasks/resubscribe", Json.object().put("id", id), "x-user", "bob");
      assertThat(resubscribeAsBob.path("error").path("code").asInt()).isEqualTo(-32001);
      JsonNode asAlice = guarded.call("tasks/get", Json.object().put("id", id), "x-user", "alice");
      assertThat(asAlice.path("result").path("id").asString()).isEqualTo(id);
    }
  }

  @Test
  void aCompletedTaskTakesNoAnswerSoItsToolRunsOnce() {
    served.modelAsksForApproval();
    served.model.respondText("Published.");
    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    String contextId = asked.path("contextId").asString();
    String taskId = asked.path("id").asString();
    served.result("message/send", send("yes", contextId, taskId));
    int requests = served.model.requests().size();

    JsonNode again = served.call("message/send", send("yes again", contextId, taskId));

    assertThat(again.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(again.path("error").path("message").asString())
        .isEqualTo("Task " + taskId + " is in a terminal state");
    assertThat(served.model.requests()).hasSize(requests);
    JsonNode got = served.result("tasks/get", Json.object().put("id", taskId));
    assertThat(got.path("status").path("state").asString()).isEqualTo("completed");
  }

  @Test
  void aQuestionLeftBehindByTheNextMessageInItsContextTakesNoAnswer() {
    served.modelAsksForApproval();
    served.model.respondText("Something else, then.");
    JsonNode asked = served.result("message/send", send("Publish the notes", null, null));
    String contextId = asked.path("contextId").asString();
    String taskId = asked.path("id").asString();
    served.result("message/send", send("Never mind", contextId, null));

    JsonNode answer = served.call("message/send", send("yes", contextId, taskId));

    assertThat(answer.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(served.model.requests()).hasSize(2);
  }

  @Test
  void aTurnTheAgentRefusesIsAnErrorNotThePreviousTask() throws Exception {
    served.close();
    // Without SnapshotSubscriber a store cannot hand a turn to a background worker.
    InMemorySessionStore memory = InMemorySessionStore.create();
    SessionStore noDetach =
        new SessionStore() {
          @Override
          public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
            return memory.getSnapshot(context, snapshotId);
          }

          @Override
          public @Nullable SessionSnapshot getLatestSnapshot(
              ActionContext context, String sessionId) {
            return memory.getLatestSnapshot(context, sessionId);
          }

          @Override
          public @Nullable SessionSnapshot saveSnapshot(
              ActionContext context,
              @Nullable String snapshotId,
              UnaryOperator<@Nullable SessionSnapshot> update) {
            return memory.saveSnapshot(context, snapshotId, update);
          }
        };
    try (ServedA2a refusing = new ServedA2a(noDetach).serve()) {
      JsonNode response = refusing.call("message/send", send("Hi", null, null));

      assertThat(response.has("result")).isFalse();
      assertThat(response.path("error").path("code").asInt()).isEqualTo(-32004);
    }
  }

  private static FileSessionStore fileStore(Path dir) {
    return FileSessionStore.builder(dir).pollInterval(Duration.ofMillis(50)).build();
  }

  /**
   * An in-memory store that holds writes of one row until two have arrived: two answers to a task
   * both reach their claim of its row, having read it unclaimed, before either claim is written.
   */
  private static final class ClaimGate implements SessionStore, SnapshotSubscriber {
    private final InMemorySessionStore store = InMemorySessionStore.create();
    private final CountDownLatch bothClaiming = new CountDownLatch(2);
    private volatile @Nullable String held;

    void hold(String snapshotId) {
      held = snapshotId;
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      return store.getSnapshot(context, snapshotId);
    }

    @Override
    public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
      return store.getLatestSnapshot(context, sessionId);
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      if (snapshotId != null && snapshotId.equals(held)) {
        bothClaiming.countDown();
        try {
          // Bounded only so that a broken server fails the test instead of hanging it.
          bothClaiming.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return store.saveSnapshot(context, snapshotId, update);
    }

    @Override
    public StatusSubscription onSnapshotStatusChange(ActionContext context, String snapshotId) {
      return store.onSnapshotStatusChange(context, snapshotId);
    }
  }
}
