package dev.baton.plugins.openai;

import static dev.baton.plugins.openai.OpenAIFixtures.baton;
import static dev.baton.plugins.openai.OpenAIFixtures.call;
import static dev.baton.plugins.openai.OpenAIFixtures.plugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Cancelling the context aborts the HTTP call, and the plugin's timeouts bound it; both while
 * waiting for headers and while a stream is open. Servers here never finish answering, and each
 * test checks that the client really closed the connection rather than leaving it running.
 */
@Timeout(20)
class ChatCancellationTest {
  private static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));
  private static final String FIRST_FRAME =
      "{\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"Hel\"}}]}";

  private FakeHttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

  @BeforeEach
  void start() throws Exception {
    server = new FakeHttpServer();
  }

  @AfterEach
  void stop() {
    executor.shutdownNow();
    server.close();
  }

  private CompletableFuture<ModelResponse> callAsync(
      Baton baton, ActionContext context, StreamCallback<dev.baton.ai.ModelResponseChunk> stream) {
    return CompletableFuture.supplyAsync(() -> call(baton, context, HELLO, stream), executor);
  }

  private static BatonException failureOf(CompletableFuture<ModelResponse> call) throws Exception {
    try {
      call.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof BatonException batonException) {
        return batonException;
      }
      throw e;
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void cancellingWhileWaitingForTheAnswerAbortsTheRequest() throws Exception {
    Reply hanging = Reply.hang();
    server.reply(hanging);
    Baton baton = baton(server);
    ActionContext context = baton.context();

    CompletableFuture<ModelResponse> call = callAsync(baton, context, StreamCallback.discard());
    server.awaitRequest();
    context.cancellation().cancel();

    BatonException e = failureOf(call);
    assertThat(e.status()).isEqualTo(Status.CANCELLED);
    hanging.awaitClientGone();
  }

  @Test
  void cancellingWhileStreamingClosesTheStream() throws Exception {
    Reply stalled = Reply.sse(FIRST_FRAME).thenHang();
    server.reply(stalled);
    Baton baton = baton(server);
    ActionContext context = baton.context();
    CountDownLatch firstChunk = new CountDownLatch(1);

    CompletableFuture<ModelResponse> call = callAsync(baton, context, c -> firstChunk.countDown());
    assertThat(firstChunk.await(10, TimeUnit.SECONDS)).isTrue();
    context.cancellation().cancel(new BatonException(Status.CANCELLED, "the user closed the chat"));

    BatonException e = failureOf(call);
    assertThat(e.status()).isEqualTo(Status.CANCELLED);
    assertThat(e.getMessage()).isEqualTo("the user closed the chat");
    stalled.awaitClientGone();
  }

  @Test
  void anAlreadyCancelledContextSendsNothing() {
    Baton baton = baton(server);
    ActionContext context = baton.context();
    context.cancellation().cancel();

    assertThatThrownBy(() -> call(baton, context, HELLO, StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void aServerThatNeverAnswersHitsTheTimeout() throws Exception {
    Reply hanging = Reply.hang();
    server.reply(hanging);
    Baton baton =
        Baton.builder().plugin(plugin(server).timeout(Duration.ofMillis(200)).build()).build();

    assertThatThrownBy(() -> call(baton, HELLO))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
              assertThat(e.getMessage())
                  .isEqualTo("openai (127.0.0.1) did not finish answering within PT0.2S");
            });
    hanging.awaitClientGone();
  }

  @Test
  void aStreamThatStallsHitsTheTimeout() throws Exception {
    Reply stalled = Reply.sse(FIRST_FRAME).thenHang();
    server.reply(stalled);
    Baton baton =
        Baton.builder().plugin(plugin(server).timeout(Duration.ofMillis(300)).build()).build();

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));
    stalled.awaitClientGone();
  }

  @Test
  void aStreamThatGoesQuietHitsTheIdleTimeoutLongBeforeTheOverallOne() throws Exception {
    Reply stalled = Reply.sse(FIRST_FRAME).thenHang();
    server.reply(stalled);
    Baton baton =
        Baton.builder()
            .plugin(
                plugin(server)
                    .timeout(Duration.ofMinutes(10))
                    .idleTimeout(Duration.ofMillis(200))
                    .build())
            .build();

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
              assertThat(e.getMessage())
                  .isEqualTo("openai (127.0.0.1) sent nothing for PT0.2S mid-answer");
            });
    stalled.awaitClientGone();
  }

  @Test
  void interruptingTheCallingThreadMidStreamCancelsTheCall() throws Exception {
    Reply stalled = Reply.sse(FIRST_FRAME).thenHang();
    server.reply(stalled);
    Baton baton = baton(server);
    CountDownLatch firstChunk = new CountDownLatch(1);
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    AtomicBoolean stillInterrupted = new AtomicBoolean();
    Thread caller =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    call(baton, baton.context(), HELLO, c -> firstChunk.countDown());
                  } catch (RuntimeException e) {
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                    failure.complete(e);
                  }
                });
    assertThat(firstChunk.await(10, TimeUnit.SECONDS)).isTrue();
    caller.interrupt();

    assertThat(failure.get(10, TimeUnit.SECONDS))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(stillInterrupted).isTrue();
    stalled.awaitClientGone();
  }
}
