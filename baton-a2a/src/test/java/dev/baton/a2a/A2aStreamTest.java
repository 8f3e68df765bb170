package dev.baton.a2a;

import static dev.baton.a2a.ServedA2a.send;
import static dev.baton.a2a.ServedA2a.writesNote;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a task produces, as clients see it: its own turn's artifacts, streamed as they appear while
 * the turn runs, keep-alive comments on a quiet stream, and status messages with IDs of their own.
 */
@Timeout(60) // a stream that never sends what a test waits for fails it rather than hangs
class A2aStreamTest {
  private final ServedA2a served =
      new ServedA2a().serve(b -> b.keepAliveInterval(Duration.ofMillis(50)));

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  private static ObjectNode request(String method, JsonNode params) {
    ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", "s1").put("method", method);
    request.set("params", params);
    return request;
  }

  /** The next frame that is not a keep-alive, as its result. */
  private static JsonNode result(SseLines stream) {
    JsonNode frame = stream.nextFrame();
    assertThat(frame.path("id").asString()).isEqualTo("s1");
    assertThat(frame.has("error")).as("an error frame: %s", frame).isFalse();
    return frame.path("result");
  }

  @Test
  void aStreamSendsEachArtifactAsTheTurnMakesItAndAgainWhenItChanges() throws Exception {
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().blockUntil(start).respond(writesNote("notes", "draft"));
    served.model.step().blockUntil(release).respond(writesNote("notes", "final"));
    served.model.respondText("Done.");

    try (SseLines stream =
        SseLines.post(served.url(), request("message/stream", send("Write notes", null, null)))) {
      JsonNode task = result(stream);
      assertThat(task.path("kind").asString()).isEqualTo("task");
      assertThat(task.path("status").path("state").asString()).isEqualTo("working");
      assertThat(task.path("artifacts")).isEmpty();

      // The turn writes its note, then is held in its second model call: the note is out first.
      start.countDown();
      JsonNode draft = result(stream);
      assertThat(draft.path("kind").asString()).isEqualTo("artifact-update");
      assertThat(draft.path("taskId").asString()).isEqualTo(task.path("id").asString());
      assertThat(draft.at("/artifact/artifactId").asString()).isEqualTo("notes");
      assertThat(draft.at("/artifact/parts/0/text").asString()).isEqualTo("draft");
      assertThat(draft.path("append").asBoolean(true)).isFalse();
      assertThat(draft.path("lastChunk").asBoolean()).isTrue();

      release.countDown();
      List<JsonNode> rest = new ArrayList<>();
      JsonNode next;
      do {
        next = result(stream);
        rest.add(next);
      } while (!next.path("final").asBoolean());

      assertThat(rest).hasSize(2);
      assertThat(rest.getFirst().path("kind").asString()).isEqualTo("artifact-update");
      assertThat(rest.getFirst().at("/artifact/artifactId").asString()).isEqualTo("notes");
      assertThat(rest.getFirst().at("/artifact/parts/0/text").asString()).isEqualTo("final");
      assertThat(next.at("/status/state").asString()).isEqualTo("completed");
    }
  }

  @Test
  void aResubscribedStreamSeesTheArtifactsOfARunningTaskAsTheyAppear() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served.model.respond(writesNote("notes", "draft"));
    served.model.step().blockUntil(release).respondText("Done.");
    JsonNode params = send("Write notes", null, null);
    params.withObject("configuration").put("blocking", false);
    String id = served.result("message/send", params).path("id").asString();

    try (SseLines stream =
        SseLines.post(served.url(), request("tasks/resubscribe", Json.object().put("id", id)))) {
      JsonNode task = result(stream);
      // The note may be written before or after the stream begins: either way it is sent once.
      List<JsonNode> artifacts = new ArrayList<>(task.path("artifacts").valueStream().toList());
      while (artifacts.isEmpty()) {
        JsonNode update = result(stream);
        assertThat(update.path("kind").asString()).isEqualTo("artifact-update");
        artifacts.add(update.path("artifact"));
      }
      assertThat(artifacts)
          .singleElement()
          .satisfies(a -> assertThat(a.at("/parts/0/text").asString()).isEqualTo("draft"));

      release.countDown();
      JsonNode last = result(stream);
      assertThat(last.path("kind").asString()).isEqualTo("status-update");
      assertThat(last.at("/status/state").asString()).isEqualTo("completed");
    }
  }

  @Test
  void aQuietStreamSendsKeepAliveComments() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().blockUntil(release).respondText("Done.");

    try (SseLines stream =
        SseLines.post(served.url(), request("message/stream", send("Think", null, null)))) {
      assertThat(result(stream).path("kind").asString()).isEqualTo("task");
      assertThat(stream.nextComment()).isEqualTo(": keep-alive");
      release.countDown();
      JsonNode last;
      do {
        last = result(stream);
      } while (!last.path("final").asBoolean());
      assertThat(last.at("/status/state").asString()).isEqualTo("completed");
    }
  }

  @Test
  void aTaskCarriesOnlyTheArtifactsItsOwnTurnMadeOrChanged() {
    served.model.respond(writesNote("notes", "v1")).respondText("Noted.");
    JsonNode first = served.result("message/send", send("Write notes", null, null));
    String contextId = first.path("contextId").asString();
    served
        .model
        .respond(writesNote("summary", "short"))
        .respondText("Summed up.")
        .respond(writesNote("notes", "v2"))
        .respondText("Revised.");

    JsonNode second = served.result("message/send", send("Sum up", contextId, null));
    JsonNode third = served.result("message/send", send("Revise the notes", contextId, null));

    assertThat(first.path("artifacts").valueStream().map(a -> a.path("artifactId").asString()))
        .containsExactly("notes");
    assertThat(second.path("artifacts").valueStream().map(a -> a.path("artifactId").asString()))
        .containsExactly("summary");
    assertThat(third.path("artifacts").valueStream().map(a -> a.at("/parts/0/text").asString()))
        .containsExactly("v2");
    JsonNode firstAgain =
        served.result("tasks/get", Json.object().put("id", first.path("id").asString()));
    assertThat(firstAgain.path("artifacts")).isEqualTo(first.path("artifacts"));
  }

  @Test
  void aTaskAnsweredAfterInputRequiredCarriesTheArtifactsOfAllItsRounds() {
    served.model.respondText("Earlier.");
    String contextId =
        served.result("message/send", send("Start", null, null)).path("contextId").asString();
    served.model.respond(writesNote("notes", "v1"));
    served.modelAsksForApproval();
    served.model.respond(writesNote("summary", "short")).respondText("Published.");

    JsonNode asked = served.result("message/send", send("Publish", contextId, null));
    assertThat(asked.at("/status/state").asString()).isEqualTo("input-required");
    JsonNode done =
        served.result("message/send", send("yes", contextId, asked.path("id").asString()));

    assertThat(done.path("id").asString()).isEqualTo(asked.path("id").asString());
    assertThat(done.at("/status/state").asString()).isEqualTo("completed");
    assertThat(done.path("artifacts").valueStream().map(a -> a.path("artifactId").asString()))
        .containsExactly("notes", "summary");
    assertThat(done.at("/status/message/messageId").asString())
        .isNotEqualTo(asked.at("/status/message/messageId").asString())
        .isNotEqualTo(done.path("id").asString());
  }

  @Test
  void aStatusMessageHasAnIdOfItsOwnThatRereadsTheSame() {
    served.model.respondText("An answer.");
    JsonNode task = served.result("message/send", send("Ask", null, null));
    String messageId = task.at("/status/message/messageId").asString();

    assertThat(messageId).isNotEmpty().isNotEqualTo(task.path("id").asString());
    JsonNode again =
        served.result("tasks/get", Json.object().put("id", task.path("id").asString()));
    assertThat(again.at("/status/message/messageId").asString()).isEqualTo(messageId);
  }
}
