package dev.baton.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.core.Json;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The A2A JavaScript SDK's client ({@code @a2a-js/sdk}, through its v0.3 compatibility layer)
 * against a Baton agent served over A2A: send, a multi-turn context, get, stream, resubscribe,
 * cancel and an input-required round.
 */
class JsClientInteropTest {
  private static final List<String> RUNNING = List.of("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING");
  private final ServedA2a served = new ServedA2a().serve();

  @BeforeAll
  static void node() {
    NodeFixture.require();
  }

  @AfterEach
  void close() throws Exception {
    served.close();
  }

  private JsonNode run(String scenario) {
    NodeFixture.Run run =
        NodeFixture.node(
            "interop-client.js", List.of(scenario, served.url().toString()), Duration.ofMinutes(1));
    assertThat(run.exit()).as(run.stdout() + run.stderr()).isZero();
    String[] lines = run.stdout().strip().split("\n");
    return Json.parse(lines[lines.length - 1]);
  }

  @Test
  void sendContinuesTheContextAndGetReadsTheTask() {
    served.model.respondText("It needs sorted input.").respondText("Uniform keys help too.");

    JsonNode out = run("send");

    assertThat(out.path("first").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(out.path("first").path("text").asString()).isEqualTo("It needs sorted input.");
    assertThat(out.path("second").path("contextId").asString())
        .isEqualTo(out.path("first").path("contextId").asString());
    assertThat(out.path("second").path("text").asString()).isEqualTo("Uniform keys help too.");
    assertThat(out.path("got").path("id").asString())
        .isEqualTo(out.path("first").path("id").asString());
    assertThat(out.path("got").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
  }

  @Test
  void aStreamCarriesTheArtifactAndEndsOnTheCompletedStatus() {
    served.model.respond(ServedA2a.writesNote("notes.md", "Streamed note."));
    served.model.respondText("Streamed.");

    JsonNode out = run("stream");

    assertThat(out.path("events").size()).isGreaterThanOrEqualTo(2);
    assertThat(out.path("lastState").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(out.path("lastText").asString()).isEqualTo("Streamed.");
    // The note is one whole artifact on the stream: an artifact update, or, when the turn wrote it
    // before the stream attached, part of the task the stream opens with. tasks/get reads it too.
    JsonNode updates = out.path("artifactUpdates");
    assertThat(updates.size()).as("artifact updates: %s", out).isEqualTo(1);
    JsonNode update = updates.get(0);
    assertThat(update.path("taskId").asString()).isEqualTo(out.path("taskId").asString());
    assertThat(update.path("artifactId").asString()).isNotBlank();
    assertThat(update.path("name").asString()).isEqualTo("notes.md");
    assertThat(update.path("text").asString()).isEqualTo("Streamed note.");
    if (!update.path("inTask").asBoolean()) {
      assertThat(update.path("lastChunk").asBoolean()).isTrue();
      assertThat(update.path("append").asBoolean()).isFalse();
    }
    JsonNode artifacts = out.path("artifacts");
    assertThat(artifacts.size()).as("task artifacts: %s", out).isEqualTo(1);
    assertThat(artifacts.get(0).path("artifactId").asString())
        .isEqualTo(update.path("artifactId").asString());
    assertThat(artifacts.get(0).path("name").asString()).isEqualTo("notes.md");
    assertThat(artifacts.get(0).path("text").asString()).isEqualTo("Streamed note.");
  }

  @Test
  void aResubscriptionToARunningTaskSeesItComplete() {
    CountDownLatch release = new CountDownLatch(1);
    served
        .model
        .when(request -> ProgrammableModel.lastUserText(request).equals("Research slowly"))
        .blockUntil(release)
        .respondText("Done researching.");
    // The script sends this once its resubscription has delivered the running task.
    served
        .model
        .when(request -> ProgrammableModel.lastUserText(request).equals("Release the research"))
        .signalOnEntry(release)
        .respondText("Released.");
    try {
      JsonNode out = run("resubscribe");

      String id = out.path("started").path("id").asString();
      assertThat(out.path("started").path("state").asString()).isIn(RUNNING);
      JsonNode events = out.path("events");
      assertThat(events.get(0).path("state").asString()).isIn(RUNNING);
      assertThat(events.valueStream().map(event -> event.path("taskId").asString()))
          .containsOnly(id);
      assertThat(events.get(events.size() - 1).path("state").asString())
          .isEqualTo("TASK_STATE_COMPLETED");
      assertThat(out.path("lastText").asString()).isEqualTo("Done researching.");
      assertThat(out.path("got").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    } finally {
      release.countDown();
    }
  }

  @Test
  void cancelAbortsARunningTask() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    served.model.step().blockUntil(release).respondText("unreached");
    try {
      JsonNode out = run("cancel");

      assertThat(out.path("started").path("state").asString()).isEqualTo("TASK_STATE_WORKING");
      assertThat(out.path("canceled").path("state").asString()).isEqualTo("TASK_STATE_CANCELED");
      assertThat(out.path("got").path("state").asString()).isEqualTo("TASK_STATE_CANCELED");
    } finally {
      release.countDown();
    }
  }

  @Test
  void anInputRequiredRoundIsAnsweredInTheSameTask() {
    served.modelAsksForApproval();
    served.model.respondText("Published.");

    JsonNode out = run("input-required");

    String taskId = out.path("asked").path("id").asString();
    assertThat(out.path("asked").path("state").asString()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
    assertThat(out.path("asked").path("text").asString()).contains("May I proceed?");
    assertThat(out.path("done").path("id").asString()).isEqualTo(taskId);
    assertThat(out.path("done").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(out.path("done").path("text").asString()).isEqualTo("Published.");
    assertThat(out.path("got").path("id").asString()).isEqualTo(taskId);
    assertThat(out.path("got").path("state").asString()).isEqualTo("TASK_STATE_COMPLETED");
    assertThat(out.path("againError").asString()).contains("is in a terminal state");
  }

  @Test
  void anUnknownTaskIsTheSdksTaskNotFound() {
    JsonNode out = run("unknown-task");

    assertThat(out.path("error").asString()).isNotEmpty();
    assertThat(out.path("message").asString()).containsIgnoringCase("not found");
  }
}
