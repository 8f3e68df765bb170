package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.middleware.agents.Agents;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Clients that go away cancel their runs (a detached run excepted), and a graceful shutdown lets
 * work finish within its grace, then ends streams with an error and leaves detached runs pending.
 */
class DisconnectAndShutdownTest {
  @AutoClose final ServedBaton served = new ServedBaton();
  final InMemorySessionStore store = InMemorySessionStore.create();
  final Semaphore entries = new Semaphore(0);
  final CountDownLatch cancelled = new CountDownLatch(1);
  final CountDownLatch release = new CountDownLatch(1);

  /** An agent whose model waits for {@link #release} or the run's cancellation. */
  private void slowAgent() {
    served.baton.defineModel(
        "slow",
        new ModelInfo("slow", ModelInfo.Supports.TEXT_ONLY, null),
        (ctx, request, stream) -> {
          entries.release();
          CountDownLatch either = new CountDownLatch(1);
          try (var onCancel = ctx.cancellation().onCancel(either::countDown);
              var onRelease = releaseListener(either)) {
            either.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (ctx.cancellation().isCancelled()) {
            cancelled.countDown();
            ctx.cancellation().throwIfCancelled();
          }
          return ModelResponse.of(Message.model("done"), FinishReason.STOP);
        });
    served.baton.defineAgent(
        "slow",
        InlinePrompt.builder().model("slow").build(),
        AgentOptions.builder().sessionStore(store).build());
  }

  private Cancellation.Registration releaseListener(CountDownLatch either) {
    Thread waiter =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    release.await();
                    either.countDown();
                  } catch (InterruptedException e) {
                    // the call ended first
                  }
                });
    return waiter::interrupt;
  }

  /** Sends a request over a socket of its own, which the test closes to go away. */
  private Socket send(String path, String body, String... headers) throws IOException {
    Socket socket = new Socket("127.0.0.1", served.server().port());
    StringBuilder head =
        new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: test\r\n")
            .append("Content-Type: application/json\r\n");
    for (String header : headers) {
      head.append(header).append("\r\n");
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    head.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
    OutputStream out = socket.getOutputStream();
    out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
    return socket;
  }

  private static final String TURN =
      "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"go\"}]}}}";

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "/agents/slow",
        "/agents/slow?stream=true",
        "/agents/slow?stream=true&keepalive",
      })
  void aClientThatGoesAwayCancelsItsRun(String path) throws Exception {
    slowAgent();
    served.start(b -> b.keepAliveInterval(Duration.ofMillis(50)));
    String[] headers =
        path.endsWith("keepalive") ? new String[] {"X-Baton-Keep-Alive: true"} : new String[0];

    try (Socket socket = send(path.replace("&keepalive", ""), TURN, headers)) {
      assertThat(entries.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
    }

    assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the run was cancelled").isTrue();
  }

  @Test
  void aDetachedRunOutlivesItsClient() throws Exception {
    slowAgent();
    served.start();
    String detach = Json.write(envelope(Json.toTree(AgentInput.text("go").withDetach(true))));
    String snapshotId;
    try (Socket socket = send("/agents/slow", detach)) {
      String answer = readAnswer(socket.getInputStream());
      snapshotId = Json.parse(answer).at("/result/snapshotId").stringValue();
      assertThat(entries.tryAcquire(10, TimeUnit.SECONDS)).isTrue();
    }
    release.countDown();

    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                store.getSnapshot(served.baton.context(), snapshotId).status()
                    == SnapshotStatus.COMPLETED);
    assertThat(cancelled.getCount()).isEqualTo(1);
  }

  @Test
  void aGracefulShutdownRefusesNewRequestsAndWaitsForDetachedWork() throws Exception {
    slowAgent();
    served.baton.defineFlow("ping", String.class, String.class, (ctx, in) -> in);
    served.start();
    String snapshotId =
        post(
                served.url("/agents/slow"),
                envelope(Json.toTree(AgentInput.text("go").withDetach(true))))
            .json()
            .at("/result/snapshotId")
            .stringValue();
    assertThat(entries.tryAcquire(10, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(served::close);
    // Polled on a fast route: a slow turn admitted before the drain began would wait for release.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> post(served.url("/flows/ping"), envelope("x")).status() == 503);
    Answer refused = post(served.url("/agents/slow"), TURN);
    assertThat(refused.status()).isEqualTo(503);
    assertThat(refused.json().get("status").stringValue()).isEqualTo("UNAVAILABLE");
    assertThat(closing).isNotDone();

    release.countDown();
    closing.get(10, TimeUnit.SECONDS);
    assertThat(store.getSnapshot(ActionContext.root(served.baton.registry()), snapshotId).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(cancelled.getCount()).isEqualTo(1);
  }

  /**
   * A served orchestrator's background delegation is a detached run that no request of the server
   * made: the drain hears of it from the run itself, and waits for its final row.
   */
  @Test
  void aGracefulShutdownWaitsForTheBackgroundDelegationsOfAServedTurn() throws Exception {
    slowAgent();
    ProgrammableModel orch = ProgrammableModel.define(served.baton.registry(), "orch");
    orch.respond(
        ModelResponse.of(
            new Message(
                Role.MODEL,
                List.of(
                    Part.toolRequest(
                        "delegate_to_slow",
                        "r1",
                        Json.object().put("task", "work").put("background", true)))),
            FinishReason.STOP));
    orch.respondText("started");
    served.baton.defineAgent(
        "orchestrator",
        InlinePrompt.builder()
            .model("orch")
            .use(Agents.builder().agents(served.baton.agent("slow").ref()).async(true).build())
            .build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    served.baton.defineFlow("ping", String.class, String.class, (ctx, in) -> in);
    served.start();

    assertThat(post(served.url("/agents/orchestrator"), TURN).status()).isEqualTo(200);
    assertThat(orch.calls()).as("the turn delegated, then answered").isEqualTo(2);
    String taskId =
        orch.lastRequest()
            .messages()
            .getLast()
            .toolResponses()
            .get(0)
            .toolResponse()
            .output()
            .get("taskId")
            .stringValue();
    String snapshotId = taskId.substring("slow:".length());
    assertThat(entries.tryAcquire(10, TimeUnit.SECONDS)).as("the delegation is running").isTrue();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(served::close);
    // Draining, or (were the delegation not waited for) already stopped.
    await().atMost(Duration.ofSeconds(10)).until(() -> closing.isDone() || pingRefused());
    assertThat(closing).as("the shutdown waits for the delegation").isNotDone();

    release.countDown();
    closing.get(10, TimeUnit.SECONDS);
    assertThat(store.getSnapshot(ActionContext.root(served.baton.registry()), snapshotId).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
  }

  /** Whether the server answers 503 to a fast flow: it is draining. False once it has stopped. */
  private boolean pingRefused() {
    try {
      return post(served.url("/flows/ping"), envelope("x")).status() == 503;
    } catch (RuntimeException stopped) {
      return false;
    }
  }

  @Test
  void whenTheGraceRunsOutStreamsEndWithAnErrorAndDetachedRunsAreLeftPending() throws Exception {
    slowAgent();
    served.baton.defineAgent(
        "slow-too",
        InlinePrompt.builder().model("slow").build(),
        AgentOptions.builder().sessionStore(store).build());
    served.start(b -> b.shutdownGrace(Duration.ofMillis(300)));
    String snapshotId =
        post(
                served.url("/agents/slow-too"),
                envelope(Json.toTree(AgentInput.text("go").withDetach(true))))
            .json()
            .at("/result/snapshotId")
            .stringValue();
    CompletableFuture<Answer> stream =
        CompletableFuture.supplyAsync(() -> post(served.url("/agents/slow?stream=true"), TURN));
    assertThat(entries.tryAcquire(2, 10, TimeUnit.SECONDS))
        .as("both runs reached the model")
        .isTrue();

    served.close();

    Answer answer = stream.get(10, TimeUnit.SECONDS);
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.lastFrame().at("/error/status").stringValue()).isEqualTo("UNAVAILABLE");
    assertThat(store.getSnapshot(served.baton.context(), snapshotId).status())
        .isEqualTo(SnapshotStatus.PENDING);
    release.countDown();
  }

  @Test
  void aStoppedHandlerServesAgainOnceRestarted() {
    served.agent("chat", AgentOptions.DEFAULTS);
    served.model.respondText("first").respondText("second");
    BatonHandler handler =
        BatonHandler.builder(served.baton)
            .allAgents()
            .keepAliveInterval(Duration.ofMillis(20))
            .build();

    for (String text : List.of("first", "second")) {
      // Each stop drains the handler and ends its keep-alive timer; each start begins afresh.
      try (BatonServer server = BatonServer.start(handler, "127.0.0.1", 0)) {
        Answer answer =
            post(
                server.uri().resolve("/agents/chat?stream=true"),
                TURN,
                "X-Baton-Keep-Alive",
                "true");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.lastFrame().at("/result/message/content/0/text").stringValue())
            .isEqualTo(text);
      }
    }
  }

  /** Reads one HTTP answer with a Content-Length body from a socket. */
  private static String readAnswer(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the answer ended early");
      }
      head.write(b);
    }
    int length = 0;
    for (String line : head.toString(StandardCharsets.US_ASCII).split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        length = Integer.parseInt(line.substring(15).strip());
      }
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }
}
