package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.Json;
import dev.baton.server.NodeFixture;
import dev.baton.testing.ProgrammableModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Genkit JS's {@code remoteAgent} client (npm {@code genkit@1.42.0}) drives an agent served on the
 * Spring Boot application's own server: turns, a snapshot read, a stream and an abort.
 */
@Timeout(180)
@SpringBootTest(classes = ChatApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class JsRemoteAgentTest {
  @LocalServerPort int port;
  @Autowired ProgrammableModel model;

  // A first run installs the npm packages, which NodeFixture bounds at ten minutes.
  @BeforeAll
  @Timeout(value = 11, unit = TimeUnit.MINUTES)
  static void node() {
    NodeFixture.require();
  }

  @Test
  void genkitJsRemoteAgentDrivesASpringServedAgent() {
    model.reset();
    model.fallback(
        request -> {
          String text = ProgrammableModel.lastUserText(request);
          return ModelResponse.of(Message.model("echo: " + text), FinishReason.STOP);
        });
    model
        .when(request -> ProgrammableModel.lastUserText(request).equals("stream it"))
        .chunks(ModelResponseChunk.text("echo: "), ModelResponseChunk.text("stream it"))
        .respond(ModelResponse.of(Message.model("echo: stream it"), FinishReason.STOP));
    model
        .when(request -> ProgrammableModel.lastUserText(request).contains("[block]"))
        .blockUntil(new CountDownLatch(1))
        .respondText("never");

    NodeFixture.Run run =
        NodeFixture.node(
            "remote-agent.cjs",
            List.of("http://127.0.0.1:" + port + "/baton/agents/chat"),
            Duration.ofSeconds(90));

    assertThat(run.exit()).as(run.stderr() + run.stdout()).isZero();
    JsonNode report = Json.parse(run.stdout().strip());
    JsonNode first = report.at("/turns/0");
    JsonNode second = report.at("/turns/1");
    assertThat(first.get("text").stringValue()).isEqualTo("echo: hello");
    assertThat(second.get("text").stringValue()).isEqualTo("echo: again");
    assertThat(second.get("sessionId")).isEqualTo(first.get("sessionId"));
    assertThat(report.at("/secondSnapshot/parentId")).isEqualTo(first.get("snapshotId"));
    assertThat(report.at("/secondSnapshot/status").stringValue()).isEqualTo("completed");
    assertThat(report.at("/streamed/chunks").toString()).isEqualTo("[\"echo: \",\"stream it\"]");
    assertThat(report.at("/streamed/text").stringValue()).isEqualTo("echo: stream it");
    assertThat(report.get("abortAnswer").stringValue()).isEqualTo("aborted");
    assertThat(report.at("/aborted/status").stringValue()).isEqualTo("aborted");
    assertThat(report.at("/aborted/finishReason").stringValue()).isEqualTo("aborted");
  }
}
