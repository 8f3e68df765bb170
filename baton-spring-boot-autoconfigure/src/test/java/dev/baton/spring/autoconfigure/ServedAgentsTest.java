package dev.baton.spring.autoconfigure;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentInput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** Agents and flows served on the application's own servlet container, under the base path. */
@SpringBootTest(classes = ChatApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ServedAgentsTest {
  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  @LocalServerPort int port;
  @Autowired ProgrammableModel model;

  @BeforeEach
  void resetModel() {
    model.reset();
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Test
  void aJsonTurnUnderTheBasePathAnswersTheOutputAndTheNextResumesTheSession() {
    model.respondText("first").respondText("second");

    Answer first = post(url("/baton/agents/chat"), envelope(HELLO));
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.contentType()).startsWith("application/json");
    assertThat(first.result().get("finishReason").stringValue()).isEqualTo("stop");
    assertThat(first.result().at("/message/content/0/text").stringValue()).isEqualTo("first");
    String sessionId = first.result().get("sessionId").stringValue();

    Answer second =
        post(url("/baton/agents/chat"), envelope(HELLO, Map.of("sessionId", sessionId)));
    assertThat(second.result().get("sessionId").stringValue()).isEqualTo(sessionId);
    assertThat(second.result().at("/message/content/0/text").stringValue()).isEqualTo("second");
    // The second call saw the whole conversation: hello, first, hello.
    assertThat(model.lastRequest().messages()).hasSize(3);
  }

  @Test
  void aStreamedTurnSendsItsChunksAsServerSentEvents() {
    model
        .step()
        .chunks(ModelResponseChunk.text("he"), ModelResponseChunk.text("llo"))
        .respond(ModelResponse.of(Message.model("hello"), FinishReason.STOP));

    Answer streamed = post(url("/baton/agents/chat?stream=true"), envelope(HELLO));

    assertThat(streamed.status()).as(streamed.body()).isEqualTo(200);
    assertThat(streamed.contentType()).startsWith("text/event-stream");
    List<JsonNode> frames = streamed.frames();
    assertThat(frames).hasSize(4);
    assertThat(frames.get(0).at("/message/modelChunk/content/0/text").stringValue())
        .isEqualTo("he");
    assertThat(frames.get(1).at("/message/modelChunk/content/0/text").stringValue())
        .isEqualTo("llo");
    assertThat(frames.get(2).at("/message/turnEnd/finishReason").stringValue()).isEqualTo("stop");
    assertThat(frames.get(3).at("/result/message/content/0/text").stringValue()).isEqualTo("hello");
  }

  @Test
  void aDetachedTurnIsAbortedThroughItsCompanionAndItsSnapshotSaysSo() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    model
        .step()
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never"), FinishReason.STOP));

    Answer detached =
        post(url("/baton/agents/chat"), envelope(AgentInput.text("go").withDetach(true)));
    assertThat(detached.result().get("finishReason").stringValue()).isEqualTo("detached");
    Map<String, String> id =
        Map.of("snapshotId", detached.result().get("snapshotId").stringValue());
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    Answer aborted = post(url("/baton/agents/chat/abort"), envelope(id));
    assertThat(aborted.status()).as(aborted.body()).isEqualTo(200);
    assertThat(aborted.result().get("status").stringValue()).isEqualTo("aborted");

    Answer snapshot = post(url("/baton/agents/chat/getSnapshot"), envelope(id));
    assertThat(snapshot.result().get("status").stringValue()).isEqualTo("aborted");
    Answer settled = post(url("/baton/agents/chat/waitForSnapshot"), envelope(id));
    assertThat(settled.result().get("finishReason").stringValue()).isEqualTo("aborted");
  }

  @Test
  void flowsAreServedAndNothingOutsideTheBasePathIsBatons() {
    Answer flow = post(url("/baton/flows/whoami"), envelope("me"));
    assertThat(flow.status()).as(flow.body()).isEqualTo(200);
    assertThat(flow.result().isObject()).isTrue();

    assertThat(post(url("/agents/chat"), envelope(HELLO)).status()).isEqualTo(404);
    Answer unknown = post(url("/baton/agents/nobody"), envelope(HELLO));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
  }
}
