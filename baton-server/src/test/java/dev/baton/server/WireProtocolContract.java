package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

/**
 * What every binding of Genkit's wire protocol must do on the wire, whatever server carries it: a
 * subclass serves the fixture's Baton instance ({@link #serve}) and the tests drive it over HTTP.
 * The fixture: an agent {@code chat} on a programmable model with an in-memory store (so it can
 * detach), flows {@code shout} (streams its input, answers it upper case), {@code firehose}
 * (streams until cancelled) and {@code boom} (fails with an internal error), and a bearer-token
 * context provider that binds {@code t-alice} and {@code t-bob} to principals and refuses any other
 * credential.
 *
 * <p>Subclasses outside this module (a Spring Boot application's test, say) need only {@link
 * #serve} and {@link #stopServing}; the fixture uses no server's types.
 */
// The tests compile inside module dev.baton.server: JUnit's annotations are not its exports'
// concern.
@SuppressWarnings("exports")
@Timeout(60)
public abstract class WireProtocolContract {
  /** The body limit a subclass serves with: small, so that a body over it is cheap to send. */
  protected static final long MAX_REQUEST_BYTES = 64 * 1024;

  /** The keep-alive interval a subclass serves with: short, so that a test sees comments soon. */
  protected static final Duration KEEP_ALIVE_INTERVAL = Duration.ofMillis(100);

  private static final String[] ALICE = {"Authorization", "Bearer t-alice"};
  private static final String[] BOB = {"Authorization", "Bearer t-bob"};
  private static final String SECRET = "jdbc:postgresql://db.internal:5432 refused user baton";

  private @Nullable Baton baton;
  private @Nullable ProgrammableModel model;
  private @Nullable URI base;
  private final CountDownLatch firehoseCancelled = new CountDownLatch(1);

  /** For subclasses. */
  protected WireProtocolContract() {}

  /**
   * Serves every agent and flow of {@code baton} with these context providers, in order, a body
   * limit of {@link #MAX_REQUEST_BYTES} and keep-alives every {@link #KEEP_ALIVE_INTERVAL}, and
   * answers the base URI the routes hang under: {@code <base>/agents/chat} runs a turn.
   */
  protected abstract URI serve(Baton baton, List<ContextProvider> providers) throws Exception;

  /** Stops what {@link #serve} started. */
  protected abstract void stopServing() throws Exception;

  @BeforeEach
  final void serveTheFixture() throws Exception {
    Baton fixture = Baton.builder().experimental().build();
    baton = fixture;
    model = ProgrammableModel.define(fixture.registry(), "model");
    fixture.defineAgent(
        "chat",
        InlinePrompt.builder().model("model").system("You chat.").build(),
        AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    fixture.defineStreamingFlow(
        "shout",
        String.class,
        String.class,
        String.class,
        (ctx, in, stream) -> {
          stream.onChunk(in);
          return in.toUpperCase(java.util.Locale.ROOT);
        });
    fixture.defineStreamingFlow(
        "firehose",
        String.class,
        String.class,
        String.class,
        (ctx, in, stream) -> {
          CountDownLatch cancelled = new CountDownLatch(1);
          try (var onCancel = ctx.cancellation().onCancel(cancelled::countDown)) {
            // A chunk every few milliseconds until the run is cancelled: a binding that only
            // notices a gone client by a failed write notices it at the next chunk.
            while (!cancelled.await(5, TimeUnit.MILLISECONDS)) {
              stream.onChunk(in);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            if (ctx.cancellation().isCancelled()) {
              firehoseCancelled.countDown();
            }
          }
          ctx.cancellation().throwIfCancelled();
          return in;
        });
    fixture.defineFlow(
        "boom",
        String.class,
        String.class,
        (ctx, in) -> {
          throw new IllegalStateException(SECRET);
        });
    ContextProvider bearer =
        ContextProviders.bearerToken(
            token ->
                switch (token) {
                  case "t-alice" -> Map.of(ActionContext.PRINCIPAL, "alice");
                  case "t-bob" -> Map.of(ActionContext.PRINCIPAL, "bob");
                  default -> null;
                });
    base = serve(fixture, List.of(bearer));
  }

  @AfterEach
  final void stopTheFixture() throws Exception {
    try {
      stopServing();
    } finally {
      if (baton != null) {
        baton.close();
      }
    }
  }

  /** The programmable model of the fixture's agent. */
  final ProgrammableModel model() {
    return java.util.Objects.requireNonNull(model, "not serving");
  }

  /** The URI of a route under the base: {@code url("/agents/chat")}. */
  protected final URI url(String route) {
    String served = java.util.Objects.requireNonNull(base, "not serving").toString();
    return URI.create(
        (served.endsWith("/") ? served.substring(0, served.length() - 1) : served) + route);
  }

  @Test
  void aTurnAnswersItsResultAsJson() {
    model().respondText("hello alice");

    TestHttp.Answer answer = TestHttp.post(url("/agents/chat"), turn("hi"), ALICE);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).startsWith("application/json");
    JsonNode result = answer.json().get("result");
    assertThat(result.get("finishReason").stringValue()).isEqualTo("stop");
    assertThat(result.at("/message/content/0/text").stringValue()).isEqualTo("hello alice");
    assertThat(result.get("snapshotId").stringValue()).isNotEmpty();
  }

  @Test
  void aStreamedTurnSendsItsChunksThenOneResultFrame() {
    model()
        .step()
        .chunks(ModelResponseChunk.text("hel"), ModelResponseChunk.text("lo"))
        .respond(ModelResponse.of(Message.model("hello"), FinishReason.STOP));

    TestHttp.Answer answer = TestHttp.post(url("/agents/chat?stream=true"), turn("hi"), ALICE);

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.contentType()).startsWith("text/event-stream");
    // Genkit JS splits on blank lines and drops exactly "data: ": nothing else may appear.
    assertThat(answer.body().split("\n\n")).allMatch(block -> block.startsWith("data: {"));
    List<JsonNode> frames = answer.frames();
    assertThat(frames.get(0).at("/message/modelChunk/content/0/text").stringValue())
        .isEqualTo("hel");
    assertThat(frames.get(1).at("/message/modelChunk/content/0/text").stringValue())
        .isEqualTo("lo");
    assertThat(frames.subList(0, frames.size() - 1)).allMatch(frame -> frame.has("message"));
    assertThat(answer.lastFrame().at("/result/finishReason").stringValue()).isEqualTo("stop");
  }

  @Test
  void aFlowAnswersAsJsonAndAsAStream() {
    TestHttp.Answer json = TestHttp.post(url("/flows/shout"), TestHttp.envelope("hey"), ALICE);
    assertThat(json.status()).isEqualTo(200);
    assertThat(json.json().get("result").stringValue()).isEqualTo("HEY");

    TestHttp.Answer streamed =
        TestHttp.post(
            url("/flows/shout"),
            TestHttp.envelope("hey"),
            "Accept",
            "text/event-stream",
            ALICE[0],
            ALICE[1]);
    assertThat(streamed.frames())
        .extracting(JsonNode::toString)
        .containsExactly("{\"message\":\"hey\"}", "{\"result\":\"HEY\"}");
  }

  @Test
  void theCompanionsReadWaitForAndAbortADetachedTurn() throws Exception {
    JsonNode id = detachBlockedTurn();

    TestHttp.Answer pending = TestHttp.post(url("/agents/chat/getSnapshot"), id, ALICE);
    assertThat(pending.json().at("/result/status").stringValue()).isEqualTo("pending");
    TestHttp.Answer aborted = TestHttp.post(url("/agents/chat/abort"), id, ALICE);
    assertThat(aborted.json().at("/result/status").stringValue()).isEqualTo("aborted");
    TestHttp.Answer settled = TestHttp.post(url("/agents/chat/waitForSnapshot"), id, ALICE);
    assertThat(settled.status()).isEqualTo(200);
    assertThat(settled.json().at("/result/finishReason").stringValue()).isEqualTo("aborted");
  }

  @Test
  void anotherPrincipalCanNeitherAbortNorWaitForADetachedTurn() throws Exception {
    JsonNode id = detachBlockedTurn();

    assertError(TestHttp.post(url("/agents/chat/abort"), id, BOB), 404, "NOT_FOUND");
    assertError(TestHttp.post(url("/agents/chat/waitForSnapshot"), id, BOB), 404, "NOT_FOUND");

    TestHttp.Answer still = TestHttp.post(url("/agents/chat/getSnapshot"), id, ALICE);
    assertThat(still.json().at("/result/status").stringValue())
        .as("bob's abort left alice's run going")
        .isEqualTo("pending");
    assertThat(TestHttp.post(url("/agents/chat/abort"), id, ALICE).status()).isEqualTo(200);
  }

  /**
   * Alice detaches a turn whose model call blocks for good, and waits until it runs; returns the
   * companions' envelope naming its snapshot.
   */
  private JsonNode detachBlockedTurn() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    model()
        .step()
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never"), FinishReason.STOP));
    JsonNode detached =
        TestHttp.post(
                url("/agents/chat"),
                TestHttp.envelope(Json.toTree(AgentInput.text("go").withDetach(true))),
                ALICE)
            .json()
            .get("result");
    assertThat(detached.get("finishReason").stringValue()).isEqualTo("detached");
    assertThat(entered.await(10, TimeUnit.SECONDS)).as("the detached run started").isTrue();
    return TestHttp.envelope(Map.of("snapshotId", detached.get("snapshotId").stringValue()));
  }

  @Test
  void aClientThatAsksGetsKeepAliveCommentsWhileItsTurnWaits() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    model()
        .step()
        .blockUntil(release)
        .respond(ModelResponse.of(Message.model("late"), FinishReason.STOP));
    HttpResponse<InputStream> asking =
        TestHttp.CLIENT.send(
            HttpRequest.newBuilder(url("/agents/chat?stream=true"))
                .timeout(Duration.ofSeconds(30))
                .header("X-Baton-Keep-Alive", "true")
                .header(ALICE[0], ALICE[1])
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(turn("hi"))))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    StringBuilder rest = new StringBuilder();
    try (java.io.BufferedReader lines =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(asking.body(), StandardCharsets.UTF_8))) {
      // Nothing but comments arrives while the model waits.
      String line = lines.readLine();
      while (line != null && !line.equals(": keep-alive")) {
        line = lines.readLine();
      }
      assertThat(line).as("a keep-alive comment arrived").isEqualTo(": keep-alive");
      release.countDown();
      lines.lines().forEach(more -> rest.append(more).append('\n'));
    }
    assertThat(asking.statusCode()).isEqualTo(200);
    assertThat(rest.toString()).contains("data: {\"result\":");
  }

  @Test
  void requestsThatCannotRunAnswerGenkitsErrorStatuses() {
    assertError(TestHttp.post(url("/agents/chat"), "{\"data\": ", ALICE), 400, "INVALID_ARGUMENT");
    assertError(TestHttp.post(url("/agents/chat"), "[1, 2]", ALICE), 400, "INVALID_ARGUMENT");
    assertError(TestHttp.post(url("/agents/nobody"), turn("hi"), ALICE), 404, "NOT_FOUND");
    assertError(
        TestHttp.post(
            url("/agents/chat"),
            TestHttp.envelope("x".repeat((int) MAX_REQUEST_BYTES + 1024)),
            ALICE),
        413,
        "INVALID_ARGUMENT");
    assertError(TestHttp.post(url("/agents/chat"), turn("hi")), 401, "UNAUTHENTICATED");
    assertError(
        TestHttp.post(url("/agents/chat"), turn("hi"), "Authorization", "Bearer t-mallory"),
        401,
        "UNAUTHENTICATED");

    HttpResponse<String> get = send(HttpRequest.newBuilder(url("/agents/chat")).GET());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    assertThat(Json.parse(get.body()).get("status").stringValue()).isEqualTo("INVALID_ARGUMENT");
    assertThat(model().calls()).as("nothing ran").isZero();
  }

  @Test
  void anotherPrincipalsSnapshotAnswersAsAnUnknownOne() {
    model().respondText("for alice");
    String snapshot =
        TestHttp.post(url("/agents/chat"), turn("hi"), ALICE)
            .json()
            .at("/result/snapshotId")
            .stringValue();
    JsonNode id = TestHttp.envelope(Map.of("snapshotId", snapshot));

    assertError(TestHttp.post(url("/agents/chat/getSnapshot"), id, BOB), 404, "NOT_FOUND");
    assertError(
        TestHttp.post(
            url("/agents/chat"),
            TestHttp.envelope(hello("hi"), Map.of("snapshotId", snapshot)),
            BOB),
        404,
        "NOT_FOUND");
    assertThat(TestHttp.post(url("/agents/chat/getSnapshot"), id, ALICE).status()).isEqualTo(200);
  }

  @Test
  void aClientThatGoesAwayMidStreamCancelsItsRun() throws Exception {
    URI uri = url("/flows/firehose?stream=true");
    byte[] body = Json.writeBytes(TestHttp.envelope("x"));
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      String head =
          "POST "
              + uri.getRawPath()
              + "?"
              + uri.getRawQuery()
              + " HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
              + "Authorization: Bearer t-alice\r\nContent-Length: "
              + body.length
              + "\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.write(body);
      out.flush();
      awaitText(socket.getInputStream(), "data: {\"message\"");
    }

    assertThat(firehoseCancelled.await(20, TimeUnit.SECONDS)).as("the run was cancelled").isTrue();
  }

  @Test
  void noStackTraceOrInternalMessageReachesTheClient() {
    TestHttp.Answer json = TestHttp.post(url("/flows/boom"), TestHttp.envelope("x"), ALICE);
    assertError(json, 500, "INTERNAL");
    TestHttp.Answer streamed =
        TestHttp.post(url("/flows/boom?stream=true"), TestHttp.envelope("x"), ALICE);
    assertThat(streamed.lastFrame().at("/error/status").stringValue()).isEqualTo("INTERNAL");
    TestHttp.Answer malformed = TestHttp.post(url("/agents/chat"), "{\"data\": [1, }", ALICE);

    for (TestHttp.Answer answer : List.of(json, streamed, malformed)) {
      assertThat(answer.body())
          .doesNotContain("db.internal")
          .doesNotContain("IllegalStateException")
          .doesNotContain("Exception")
          .doesNotContain("\tat ")
          .doesNotContain("dev.baton")
          .doesNotContain("tools.jackson");
    }
  }

  private static void assertError(TestHttp.Answer answer, int httpStatus, String status) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(httpStatus);
    assertThat(answer.contentType()).startsWith("application/json");
    assertThat(answer.json().get("status").stringValue()).isEqualTo(status);
    assertThat(answer.json().get("message").stringValue()).isNotEmpty();
  }

  private static Map<String, Object> hello(String text) {
    return Map.of("message", Message.user(text));
  }

  private static JsonNode turn(String text) {
    return TestHttp.envelope(hello(text));
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return TestHttp.CLIENT.send(
          request.timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer t-alice").build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Reads until {@code text} has arrived. */
  private static void awaitText(InputStream in, String text) throws IOException {
    StringBuilder seen = new StringBuilder();
    byte[] buffer = new byte[1024];
    while (seen.indexOf(text) < 0) {
      int read = in.read(buffer);
      if (read < 0) {
        throw new IOException("the server closed the stream before sending: " + text);
      }
      seen.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
    }
  }
}
