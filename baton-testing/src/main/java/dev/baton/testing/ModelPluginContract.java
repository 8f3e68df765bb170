package dev.baton.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer.Reply;
import java.net.ServerSocket;
import java.net.URI;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What every HTTP model plugin must do the same way, as JUnit tests: extend this class, say how to
 * build a Baton whose plugin talks to a given address and what the provider's answers look like,
 * and the plugin is checked for cancellation, timeouts and error mapping against a {@link
 * FakeHttpServer}.
 *
 * <pre>{@code
 * class AcmeContractTest extends ModelPluginContract {
 *   @Override
 *   protected String model() {
 *     return "acme/rocket-1";
 *   }
 *
 *   @Override
 *   protected Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout) {
 *     return Baton.builder()
 *         .plugin(Acme.builder().baseUrl(serverUrl).apiKey("test-key")
 *             .httpClient(FakeHttpServer.sharedClient())
 *             .timeout(timeout).idleTimeout(idleTimeout).build())
 *         .build();
 *   }
 *
 *   @Override
 *   protected String providerLabel() {
 *     return "Acme API";
 *   }
 *
 *   @Override
 *   protected String textEvent(String text) {
 *     return "{\"delta\": {\"text\": \"" + text + "\"}}";
 *   }
 *
 *   @Override
 *   protected String errorBody(int httpStatus, String message) {
 *     return "{\"error\": {\"code\": " + httpStatus + ", \"message\": \"" + message + "\"}}";
 *   }
 * }
 * }</pre>
 *
 * <p>What it checks, for the model {@link #model()} names:
 *
 * <ul>
 *   <li>Cancellation: cancelling the context while the request waits for headers, or while a stream
 *       is open, fails the call with {@code CANCELLED} (keeping the cancellation's own message) and
 *       closes the connection; an already-cancelled context sends nothing; interrupting the calling
 *       thread mid-stream is {@code CANCELLED} too and leaves the thread interrupted.
 *   <li>Timeouts: a server that never answers, or a stream that stalls, hits the overall timeout; a
 *       stream that goes quiet hits the idle timeout long before the overall one. Each is {@code
 *       DEADLINE_EXCEEDED}, names the provider, and closes the connection.
 *   <li>Error mapping: the HTTP statuses every provider shares map to Baton statuses as public
 *       errors that keep the provider's message ({@code "<label> returned HTTP <code>: <message>"})
 *       and its {@code error} object in the details; a 429's {@code Retry-After} ends up in {@code
 *       details.retryAfterSeconds}; an error body or a successful answer that is not JSON, and a
 *       stream event cut short, are quoted (abbreviated when long); an address nobody listens on is
 *       {@code UNAVAILABLE}.
 * </ul>
 *
 * <p>Every check that a connection was dropped waits on the reply's {@linkplain
 * Reply#awaitClientGone() client-gone latch}: none sleeps, and the class-level {@code @Timeout}
 * bounds each test. For those checks to mean anything the plugin must use a client that the garbage
 * collector cannot close under the test, such as {@link FakeHttpServer#sharedClient()}. Each test
 * gets a fresh {@link #server()}, started before and closed after it. The hooks are called during
 * the test, so fields the subclass initialises are ready.
 *
 * <p>The subclass is also the place for the plugin's own error and configuration tests: {@link
 * #server()}, {@link #baton()}, {@link #call}, {@link #failure} and {@link #HELLO} are there for
 * them. A provider whose errors also depend on something the shared HTTP status table does not
 * cover (say, a status name in the body) can add its own rows and check each with {@link
 * #assertMapsHttpError}.
 *
 * <p>The tests are public so that a plugin that deliberately departs from one rule can override
 * that test and say why.
 */
@Timeout(20)
public abstract class ModelPluginContract {
  /** The one-message request the contract's tests send. */
  protected static final ModelRequest HELLO = ModelRequest.of(List.of(Message.user("Hello")));

  /** The timeouts of tests that do not exercise them: long enough never to fire. */
  private static final Duration GENEROUS = Duration.ofMinutes(10);

  /** The text the first stream event carries; a cut-short event ends right after it. */
  private static final String FIRST_TEXT = "Hel";

  private FakeHttpServer server;
  private ExecutorService executor;

  /** For a plugin's test, which extends this class. */
  protected ModelPluginContract() {}

  // ---- hooks ----

  /** The model every test calls, such as {@code googleai/gemini-2.5-flash}. */
  protected abstract String model();

  /**
   * A Baton whose plugin sends {@link #model()}'s requests to {@code serverUrl} (a root address
   * such as {@code http://127.0.0.1:8080}, to which the plugin adds its own path) with a valid-
   * looking key, the given overall timeout and the given idle timeout.
   */
  protected abstract Baton newBaton(URI serverUrl, Duration timeout, Duration idleTimeout);

  /**
   * How the plugin names the provider in its messages, such as {@code Gemini API} in {@code "Gemini
   * API returned HTTP 404: ..."}, when talking to {@link #server()}.
   */
  protected abstract String providerLabel();

  /**
   * The payload of one server-sent event of a streamed answer whose only content is the text {@code
   * text}, written as it is, such as {@code {"delta": {"text": "Hel"}}}. The text must appear in it
   * once, so that the payload cut right after the text is the start of an event that is not JSON.
   */
  protected abstract String textEvent(String text);

  /**
   * The JSON body the provider answers an error with, for HTTP status {@code httpStatus} and the
   * message {@code message} (plain text: no quotes or backslashes to escape). It must hold the
   * error as an object under {@code error}, which the plugin passes on as {@code
   * details.providerError}.
   */
  protected abstract String errorBody(int httpStatus, String message);

  // ---- fixtures and helpers ----

  /** Starts the test's server, and the executor its asynchronous calls run on. */
  @BeforeEach
  protected final void startServer() throws Exception {
    server = new FakeHttpServer();
    executor = Executors.newVirtualThreadPerTaskExecutor();
  }

  /** Stops the calls still running and closes the test's server. */
  @AfterEach
  protected final void stopServer() {
    executor.shutdownNow();
    server.close();
  }

  /** The server of the running test. */
  protected final FakeHttpServer server() {
    return server;
  }

  /** A Baton for {@link #server()} whose timeouts never fire during a test. */
  protected final Baton baton() {
    return newBaton(server.baseUrl(), GENEROUS, GENEROUS);
  }

  /** Runs {@link #model()} in {@code baton}. */
  protected final ModelResponse call(
      Baton baton,
      ActionContext context,
      ModelRequest request,
      StreamCallback<ModelResponseChunk> stream) {
    return Model.lookup(baton.registry(), model()).run(context, request, stream);
  }

  /** Runs {@link #model()} in {@code baton} without streaming. */
  protected final ModelResponse call(Baton baton, ModelRequest request) {
    return call(baton, baton.context(), request, StreamCallback.discard());
  }

  /** The error that a non-streaming call of {@link #HELLO} fails with. */
  protected final BatonException failure(Baton baton) {
    try {
      call(baton, HELLO);
    } catch (BatonException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }

  /**
   * Answers a call with HTTP {@code httpStatus} and {@code body}, and checks that it fails with
   * {@code expected}, keeping {@code message} and the body's {@code error} object; the error is
   * public unless it refuses the server's own credentials (401, 403).
   */
  protected final void assertMapsHttpError(
      int httpStatus, String body, Status expected, String message) {
    server.reply(Reply.json(httpStatus, body));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(expected);
    // Refused credentials concern the server's own account; anything else is about the request.
    assertThat(e.isPublic()).isEqualTo(httpStatus != 401 && httpStatus != 403);
    assertThat(e.getMessage())
        .isEqualTo(providerLabel() + " returned HTTP " + httpStatus + ": " + message);
    assertThat(e.details())
        .isEqualTo(
            Json.parse(
                "{\"httpStatus\": %d, \"providerError\": %s}"
                    .formatted(httpStatus, Json.parse(body).path("error"))));
  }

  private CompletableFuture<ModelResponse> callAsync(
      Baton baton, ActionContext context, StreamCallback<ModelResponseChunk> stream) {
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

  /** A stream that sends its first event, then neither more nor an end. */
  private Reply stalledStream() {
    return Reply.sse(textEvent(FIRST_TEXT)).thenHang();
  }

  // ---- cancellation ----

  @Test
  public void cancellingWhileWaitingForTheAnswerAbortsTheRequest() throws Exception {
    Reply hanging = Reply.hang();
    server.reply(hanging);
    Baton baton = baton();
    ActionContext context = baton.context();

    CompletableFuture<ModelResponse> call = callAsync(baton, context, StreamCallback.discard());
    server.awaitRequest();
    context.cancellation().cancel();

    BatonException e = failureOf(call);
    assertThat(e.status()).isEqualTo(Status.CANCELLED);
    hanging.awaitClientGone();
  }

  @Test
  public void cancellingWhileStreamingClosesTheStream() throws Exception {
    Reply stalled = stalledStream();
    server.reply(stalled);
    Baton baton = baton();
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
  public void anAlreadyCancelledContextSendsNothing() {
    Baton baton = baton();
    ActionContext context = baton.context();
    context.cancellation().cancel();

    assertThatThrownBy(() -> call(baton, context, HELLO, StreamCallback.discard()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(server.requests()).isEmpty();
  }

  @Test
  public void interruptingTheCallingThreadMidStreamCancelsTheCall() throws Exception {
    Reply stalled = stalledStream();
    server.reply(stalled);
    Baton baton = baton();
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

  // ---- timeouts ----

  @Test
  public void aServerThatNeverAnswersHitsTheTimeout() throws Exception {
    // The JVM's first exchange loads and connects a lot; the 200 ms are for this one alone, which
    // must reach the server for the test to see the client leave it.
    server.reply(Reply.json(404, errorBody(404, "warming up")));
    failure(baton());
    Reply hanging = Reply.hang();
    server.reply(hanging);
    Baton baton = newBaton(server.baseUrl(), Duration.ofMillis(200), GENEROUS);

    assertThatThrownBy(() -> call(baton, HELLO))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
              assertThat(e.getMessage())
                  .isEqualTo(providerLabel() + " did not finish answering within PT0.2S");
            });
    hanging.awaitClientGone();
  }

  @Test
  public void aStreamThatStallsHitsTheTimeout() throws Exception {
    Reply stalled = stalledStream();
    server.reply(stalled);
    Baton baton = newBaton(server.baseUrl(), Duration.ofMillis(300), GENEROUS);

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED));
    stalled.awaitClientGone();
  }

  @Test
  public void aStreamThatGoesQuietHitsTheIdleTimeoutLongBeforeTheOverallOne() throws Exception {
    Reply stalled = stalledStream();
    server.reply(stalled);
    Baton baton = newBaton(server.baseUrl(), GENEROUS, Duration.ofMillis(200));

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
              assertThat(e.getMessage())
                  .isEqualTo(providerLabel() + " sent nothing for PT0.2S mid-answer");
            });
    stalled.awaitClientGone();
  }

  // ---- error mapping ----

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "400 | INVALID_ARGUMENT  | Invalid value for 'temperature'.",
        "401 | UNAUTHENTICATED   | Request had invalid authentication credentials.",
        "403 | PERMISSION_DENIED | Method doesn't allow unregistered callers.",
        "404 | NOT_FOUND         | The model 'no-such-model' does not exist.",
        "500 | UNAVAILABLE       | An internal error has occurred.",
        "503 | UNAVAILABLE       | The model is overloaded. Please try again later."
      })
  public void mapsHttpErrorsToStatusesAndKeepsTheMessage(
      int httpStatus, Status expected, String message) {
    assertMapsHttpError(httpStatus, errorBody(httpStatus, message), expected, message);
  }

  @Test
  public void rateLimitingKeepsTheRetryAfterHeader() {
    String body = errorBody(429, "Rate limit reached. Please slow down.");
    server.reply(Reply.json(429, body).withHeader("Retry-After", "7"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(e.getMessage())
        .isEqualTo(providerLabel() + " returned HTTP 429: Rate limit reached. Please slow down.");
    assertThat(e.details())
        .isEqualTo(
            Json.parse(
                "{\"httpStatus\": 429, \"retryAfterSeconds\": 7, \"providerError\": %s}"
                    .formatted(Json.parse(body).path("error"))));
  }

  @Test
  public void anErrorBodyThatIsNotJsonIsKeptForLogsOnly() {
    server.reply(Reply.raw(502, "text/html", "<html>Bad Gateway</html>"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo(providerLabel() + " returned HTTP 502: (no message)");
    assertThat(bodyForLogs(e)).contains("<html>Bad Gateway</html>");
  }

  @Test
  public void aSuccessfulAnswerThatIsNotJsonIsUnavailableAndNamesTheProvider() {
    server.reply(Reply.raw(200, "text/html", "<html><body>Sign in to the proxy</body></html>"));

    BatonException e = failure(baton());

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage())
        .isEqualTo(providerLabel() + " answered with something that is not JSON");
    assertThat(bodyForLogs(e)).contains("<html><body>Sign in to the proxy</body></html>");
  }

  @Test
  public void aStreamedEventCutShortIsUnavailableAndKeepsTheStartOfItForLogs() {
    String event = textEvent(FIRST_TEXT);
    String cut = event.substring(0, event.indexOf(FIRST_TEXT) + FIRST_TEXT.length());
    server.reply(Reply.sse(cut));
    Baton baton = baton();

    assertThatThrownBy(() -> call(baton, baton.context(), HELLO, chunk -> {}))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage())
                  .isEqualTo(providerLabel() + " answered with something that is not JSON");
              assertThat(bodyForLogs(e)).endsWith(cut);
            });
  }

  @Test
  public void aLongBodyThatIsNotJsonIsAbbreviated() {
    server.reply(Reply.raw(200, "text/plain", "x".repeat(2000)));

    BatonException e = failure(baton());

    assertThat(bodyForLogs(e)).endsWith(": " + "x".repeat(500) + "…");
  }

  /**
   * What the server sent instead of JSON: the message of the error's cause, which is not public, so
   * a Baton server never passes it on to its clients, while logs show it.
   */
  private static String bodyForLogs(BatonException e) {
    assertThat(e.isPublic()).isTrue();
    if (!(e.getCause() instanceof BatonException body)) {
      throw new AssertionError("no cause holds the body", e);
    }
    assertThat(body.isPublic()).as("the body is for logs only").isFalse();
    return String.valueOf(body.getMessage());
  }

  @Test
  public void anUnreachableServerIsUnavailable() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Baton baton = newBaton(URI.create("http://127.0.0.1:" + closedPort), GENEROUS, GENEROUS);

    BatonException e = failure(baton);

    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
    assertThat(e.getMessage()).startsWith("could not reach " + providerLabel());
    assertThat(e.toPublicErrorInfo().message()).doesNotContain("127.0.0.1");
  }
}
