package dev.baton.spring.autoconfigure;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * The served routes drain when the application closes, before Spring Boot's web server stops: new
 * Baton requests answer 503 while the running ones finish, and those still running when the grace
 * is over end with an error the client reads.
 */
class ServingShutdownTest {
  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  private ConfigurableApplicationContext context;
  private ProgrammableModel model;
  private URI base;

  @TempDir Path directory;

  /** Starts the application on a free port, with its sessions in {@link #directory}. */
  private void start(String grace) {
    SpringApplication application = new SpringApplication(ChatApp.class);
    application.setDefaultProperties(
        Map.of(
            "server.address", "127.0.0.1",
            "server.port", "0",
            "baton.shutdown-grace", grace,
            "baton.store.file.directory", directory.toString(),
            "spring.main.banner-mode", "off"));
    context = application.run();
    model = context.getBean(ProgrammableModel.class);
    int port = ((WebServerApplicationContext) context).getWebServer().getPort();
    base = URI.create("http://127.0.0.1:" + port + "/baton");
  }

  @AfterEach
  void close() {
    if (context != null) {
      context.close();
    }
  }

  private URI url(String route) {
    return URI.create(base + route);
  }

  @Test
  void aClosingApplicationRefusesNewRequestsWhileItsRunningTurnFinishes() throws Exception {
    start("20s");
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    model
        .step()
        .signalOnEntry(entered)
        .blockUntil(release)
        .respond(ModelResponse.of(Message.model("finished"), FinishReason.STOP));
    CompletableFuture<Answer> running =
        CompletableFuture.supplyAsync(() -> post(url("/agents/chat"), envelope(HELLO)));
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> post(url("/flows/whoami"), envelope("x")).status() == 503);
    Answer refused = post(url("/agents/chat"), envelope(HELLO));
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.json().get("status").stringValue()).isEqualTo("UNAVAILABLE");
    assertThat(closed).isNotDone();

    release.countDown();
    Answer finished = running.get(10, TimeUnit.SECONDS);
    assertThat(finished.status()).as(finished.body()).isEqualTo(200);
    assertThat(finished.result().at("/message/content/0/text").stringValue()).isEqualTo("finished");
    closed.get(20, TimeUnit.SECONDS);
  }

  @Test
  void whenTheGraceRunsOutARunningStreamEndsWithAnErrorFrame() throws Exception {
    start("300ms");
    CountDownLatch entered = new CountDownLatch(1);
    model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("never");
    CompletableFuture<Answer> stream =
        CompletableFuture.supplyAsync(() -> post(url("/agents/chat?stream=true"), envelope(HELLO)));
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    context.close();

    Answer answer = stream.get(10, TimeUnit.SECONDS);
    assertThat(answer.status()).isEqualTo(200);
    List<JsonNode> frames = answer.frames();
    assertThat(frames.get(frames.size() - 1).at("/error/status").stringValue())
        .isEqualTo("UNAVAILABLE");
  }

  @Test
  void aDetachedRunOutlivingTheGraceIsAbortedWithinOneGraceAndTheNextStartContinuesIt()
      throws Exception {
    Duration grace = Duration.ofSeconds(3);
    start(grace.toSeconds() + "s");
    CountDownLatch entered = new CountDownLatch(1);
    model.step().signalOnEntry(entered).blockUntil(new CountDownLatch(1)).respondText("never");
    Answer detached =
        post(url("/agents/chat"), envelope(AgentInput.text("a long job").withDetach(true)));
    assertThat(detached.result().get("finishReason").stringValue()).isEqualTo("detached");
    String snapshotId = detached.result().get("snapshotId").stringValue();
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    long closing = System.nanoTime();
    CompletableFuture.runAsync(context::close).get(30, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - closing);

    // The routes' drain and the Baton bean's close share the grace: the close waits for the run
    // once, not once in each.
    assertThat(took)
        .as("the close waits the grace for the run, then aborts it")
        .isBetween(grace, grace.multipliedBy(13).dividedBy(10));

    start("3s");
    Map<String, String> id = Map.of("snapshotId", snapshotId);
    Answer row = post(url("/agents/chat/getSnapshot"), envelope(id));
    assertThat(row.status()).as(row.body()).isEqualTo(200);
    assertThat(row.result().get("status").stringValue()).isEqualTo("aborted");
    assertThat(row.result().get("finishReason").stringValue()).as("settled").isEqualTo("aborted");

    model.respondText("done after the restart");
    Answer continued =
        post(
            url("/agents/chat"),
            envelope(AgentInput.retryTurn(), AgentInit.continueFrom(snapshotId)));
    assertThat(continued.status()).as(continued.body()).isEqualTo(200);
    assertThat(continued.result().at("/message/content/0/text").stringValue())
        .isEqualTo("done after the restart");
    assertThat(model.lastRequest().messages())
        .extracting(Message::text)
        .as("the job it was handed, re-attempted")
        .containsExactly("a long job");
  }
}
