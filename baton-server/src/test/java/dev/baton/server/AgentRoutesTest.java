package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.SessionState;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.server.TestHttp.Answer;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * The agent and flow routes: the envelope, SSE frames, the two tiers of errors and their statuses,
 * the companions, and what never leaves the server.
 */
class AgentRoutesTest {
  @AutoClose final ServedBaton served = new ServedBaton();

  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  private void serverManaged() {
    served.agent(
        "chat", AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  @Test
  void aTurnAnswersItsOutputAndTheNextResumesTheSession() {
    serverManaged();
    served.start();
    served.model.respondText("first").respondText("second");

    Answer first = post(served.url("/agents/chat"), envelope(HELLO));
    assertThat(first.status()).isEqualTo(200);
    assertThat(first.contentType()).startsWith("application/json");
    JsonNode output = first.json().get("result");
    assertThat(output.get("finishReason").stringValue()).isEqualTo("stop");
    assertThat(output.at("/message/content/0/text").stringValue()).isEqualTo("first");
    String sessionId = output.get("sessionId").stringValue();
    String firstSnapshot = output.get("snapshotId").stringValue();

    JsonNode second =
        post(served.url("/agents/chat"), envelope(HELLO, Map.of("sessionId", sessionId)))
            .json()
            .get("result");
    assertThat(second.get("sessionId").stringValue()).isEqualTo(sessionId);
    JsonNode snapshot =
        post(
                served.url("/agents/chat/getSnapshot"),
                envelope(Map.of("snapshotId", second.get("snapshotId").stringValue())))
            .json()
            .get("result");
    assertThat(snapshot.get("parentId").stringValue()).isEqualTo(firstSnapshot);
    assertThat(snapshot.at("/state/messages")).hasSize(4);
    // The second call saw the whole conversation.
    assertThat(served.model.lastRequest().messages()).hasSize(4);
  }

  @Test
  void aStreamedTurnSendsEachChunkThenExactlyOneResultFrame() {
    serverManaged();
    served.start();
    for (int i = 0; i < 2; i++) {
      served
          .model
          .step()
          .chunks(ModelResponseChunk.text("he"), ModelResponseChunk.text("llo"))
          .respond(ModelResponse.of(Message.model("hello"), FinishReason.STOP));
    }

    Answer byQuery = post(served.url("/agents/chat?stream=true"), envelope(HELLO));
    Answer byAccept =
        post(served.url("/agents/chat"), envelope(HELLO), "Accept", "text/event-stream");

    for (Answer answer : List.of(byQuery, byAccept)) {
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.contentType()).startsWith("text/event-stream");
      // Genkit JS splits on blank lines and drops exactly "data: ": nothing else may appear.
      assertThat(answer.body().split("\n\n")).allMatch(block -> block.startsWith("data: {"));
      List<JsonNode> frames = answer.frames();
      assertThat(frames).hasSize(4);
      assertThat(frames.get(0).at("/message/modelChunk/content/0/text").stringValue())
          .isEqualTo("he");
      assertThat(frames.get(1).at("/message/modelChunk/content/0/text").stringValue())
          .isEqualTo("llo");
      assertThat(frames.get(2).at("/message/turnEnd/finishReason").stringValue()).isEqualTo("stop");
      assertThat(frames.get(3).at("/result/message/content/0/text").stringValue())
          .isEqualTo("hello");
      assertThat(frames.get(3).at("/result/snapshotId").stringValue())
          .isEqualTo(frames.get(2).at("/message/turnEnd/snapshotId").stringValue());
    }
  }

  @Test
  void aFailedTurnIsAResultCarryingItsErrorWithoutInternalDetail() {
    serverManaged();
    served.start();
    served.model.respondText("fine");
    served.model.step().fail(new IllegalStateException("db password is hunter2"));
    String sessionId =
        post(served.url("/agents/chat"), envelope(HELLO))
            .json()
            .at("/result/sessionId")
            .stringValue();

    Answer failed =
        post(served.url("/agents/chat"), envelope(HELLO, Map.of("sessionId", sessionId)));

    assertThat(failed.status()).isEqualTo(200);
    JsonNode output = failed.json().get("result");
    assertThat(output.get("finishReason").stringValue()).isEqualTo("failed");
    assertThat(output.at("/error/status").stringValue()).isEqualTo("INTERNAL");
    assertThat(output.get("snapshotId").stringValue()).isNotEmpty();
    assertThat(failed.body()).doesNotContain("hunter2", "IllegalStateException", "at dev.baton");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "unknown snapshot | chat | {\"snapshotId\": \"nope\"} | 404 | NOT_FOUND",
        "state to a server-managed agent | chat | {\"state\": {\"messages\": []}} | 400 |"
            + " FAILED_PRECONDITION",
        "session ID to a client-managed agent | stateless | {\"sessionId\": \"s\"} | 400 |"
            + " FAILED_PRECONDITION",
        "state with a session ID | stateless | {\"state\": {}, \"sessionId\": \"s\"} | 400 |"
            + " INVALID_ARGUMENT",
        "unknown init field | chat | {\"bogus\": true} | 400 | INVALID_ARGUMENT",
      })
  void initFailuresAreHttpErrorsWithTheirStatusOrErrorFramesInAStream(
      String what, String agent, String init, int http, String status) {
    serverManaged();
    served.agent("stateless", AgentOptions.DEFAULTS);
    served.start();
    String body =
        "{\"data\": {\"message\": {\"role\": \"user\", \"content\": [{\"text\": \"hi\"}]}},"
            + " \"init\": "
            + init
            + "}";

    Answer plain = post(served.url("/agents/" + agent), body);
    assertThat(plain.status()).isEqualTo(http);
    assertThat(plain.contentType()).startsWith("application/json");
    assertThat(plain.json().get("status").stringValue()).isEqualTo(status);
    assertThat(plain.json().get("message").stringValue()).isNotEmpty();

    Answer streamed = post(served.url("/agents/" + agent + "?stream=true"), body);
    assertThat(streamed.status()).isEqualTo(200);
    assertThat(streamed.frames()).hasSize(1);
    assertThat(streamed.lastFrame().at("/error/status").stringValue()).isEqualTo(status);
    assertThat(served.model.calls()).isZero();
  }

  @Test
  void aDetachTheAgentCannotTakeIsRefusedAsAnErrorAsGenkitJsRefusesIt() {
    served.agent("stateless", AgentOptions.DEFAULTS);
    served.start();
    JsonNode detach =
        envelope(Map.of("message", Message.user("in the background"), "detach", true), Map.of());

    Answer plain = post(served.url("/agents/stateless"), detach);
    assertThat(plain.status()).isEqualTo(400);
    assertThat(plain.json().get("status").stringValue()).isEqualTo("FAILED_PRECONDITION");
    assertThat(plain.json().get("message").stringValue())
        .contains("detach requires a session store");

    Answer streamed = post(served.url("/agents/stateless?stream=true"), detach);
    assertThat(streamed.status()).isEqualTo(200);
    assertThat(streamed.frames()).hasSize(1);
    assertThat(streamed.lastFrame().at("/error/status").stringValue())
        .isEqualTo("FAILED_PRECONDITION");
    assertThat(served.model.calls()).isZero();
  }

  @Test
  void aDetachIsRefusedAsTheAgentReadsTheInput() {
    served.agent("stateless", AgentOptions.DEFAULTS);
    served.start();
    // JSON's reader takes "True" for true, as it takes "true", so the agent was asked to detach.
    Answer answer =
        post(
            served.url("/agents/stateless"),
            envelope(Map.of("message", Message.user("later"), "detach", "True"), Map.of()));

    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.json().get("status").stringValue()).isEqualTo("FAILED_PRECONDITION");
  }

  @Test
  void aTurnWithoutInputOrWithInputOfTheWrongShapeIsRefused() {
    serverManaged();
    served.start();
    assertThat(post(served.url("/agents/chat"), "{\"init\": {}}").status()).isEqualTo(400);
    assertThat(
            post(served.url("/agents/chat"), "{\"data\": 42}").json().get("status").stringValue())
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(
            post(served.url("/agents/chat"), "{\"data\": {\"message\": \"hi\"}}")
                .json()
                .get("status")
                .stringValue())
        .isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void companionsReadWaitAndAbortADetachedRun() {
    serverManaged();
    served.start();
    CountDownLatch entered = new CountDownLatch(1);
    served
        .model
        .step()
        .signalOnEntry(entered)
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never"), FinishReason.STOP));

    JsonNode detached =
        post(
                served.url("/agents/chat"),
                envelope(Json.toTree(AgentInput.text("go").withDetach(true))))
            .json()
            .get("result");
    assertThat(detached.get("finishReason").stringValue()).isEqualTo("detached");
    String pending = detached.get("snapshotId").stringValue();
    Map<String, String> id = Map.of("snapshotId", pending);

    assertThat(
            post(served.url("/agents/chat/getSnapshot"), envelope(id))
                .json()
                .at("/result/status")
                .stringValue())
        .isEqualTo("pending");
    JsonNode aborted = post(served.url("/agents/chat/abort"), envelope(id)).json().get("result");
    assertThat(aborted.get("snapshotId").stringValue()).isEqualTo(pending);
    assertThat(aborted.get("status").stringValue()).isEqualTo("aborted");
    JsonNode settled =
        post(served.url("/agents/chat/waitForSnapshot"), envelope(id)).json().get("result");
    assertThat(settled.get("status").stringValue()).isEqualTo("aborted");
    assertThat(settled.get("finishReason").stringValue()).isEqualTo("aborted");

    Answer unknown =
        post(served.url("/agents/chat/getSnapshot"), envelope(Map.of("snapshotId", "nope")));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
  }

  @Test
  void aClientManagedAgentServesTurnsButNoCompanions() {
    served.agent("stateless", AgentOptions.DEFAULTS);
    served.start();
    served.model.respondText("hi");

    JsonNode output = post(served.url("/agents/stateless"), envelope(HELLO)).json().get("result");
    assertThat(output.has("snapshotId")).isFalse();
    SessionState state = Json.convert(output.get("state"), SessionState.class);
    assertThat(state.messages()).hasSize(2);

    for (String companion : List.of("getSnapshot", "waitForSnapshot", "abort")) {
      Answer answer =
          post(served.url("/agents/stateless/" + companion), envelope(Map.of("snapshotId", "s")));
      assertThat(answer.status()).isEqualTo(404);
      assertThat(answer.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void flowsRunStreamAndRefuseAnInit() {
    served.baton.defineStreamingFlow(
        "shout",
        String.class,
        String.class,
        String.class,
        (ctx, in, stream) -> {
          stream.onChunk(in);
          return in.toUpperCase();
        });
    served.start();

    assertThat(post(served.url("/flows/shout"), envelope("hey")).json().get("result").stringValue())
        .isEqualTo("HEY");
    Answer streamed = post(served.url("/flows/shout?stream=true"), envelope("hey"));
    assertThat(streamed.frames())
        .extracting(frame -> frame.toString())
        .containsExactly("{\"message\":\"hey\"}", "{\"result\":\"HEY\"}");
    Answer withInit = post(served.url("/flows/shout"), envelope("hey", Map.of()));
    assertThat(withInit.status()).isEqualTo(400);
    assertThat(withInit.json().get("message").stringValue()).contains("does not accept init");
  }

  @Test
  void requestsThatCannotBeReadAreRefusedBeforeAnythingRuns() {
    serverManaged();
    served.start(b -> b.maxRequestBytes(1000));

    Answer malformed = post(served.url("/agents/chat"), "{\"data\": ");
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.json().get("status").stringValue()).isEqualTo("INVALID_ARGUMENT");
    assertThat(post(served.url("/agents/chat"), "[1, 2]").status()).isEqualTo(400);

    Answer huge = post(served.url("/agents/chat"), envelope("x".repeat(2000)));
    assertThat(huge.status()).isEqualTo(413);
    assertThat(huge.json().get("status").stringValue()).isEqualTo("INVALID_ARGUMENT");
    assertThat(huge.json().get("message").stringValue()).contains("1000 bytes");

    Answer deep =
        post(served.url("/agents/chat"), "{\"data\": " + "[".repeat(300) + "]".repeat(300) + "}");
    assertThat(deep.status()).isEqualTo(400);
    assertThat(served.model.calls()).isZero();
  }

  @Test
  void internalMessagesAreRedactedUnlessExposed() {
    served.baton.defineFlow(
        "leaky",
        String.class,
        String.class,
        (ctx, in) -> {
          throw new IllegalStateException("jdbc:postgresql://10.0.0.7/prod failed");
        });
    served.baton.defineFlow(
        "picky",
        String.class,
        String.class,
        (ctx, in) -> {
          throw BatonException.of(Status.OUT_OF_RANGE, "%s is too long", in);
        });
    served.start(b -> b.exposeErrorMessages(false));

    Answer leaky = post(served.url("/flows/leaky"), envelope("x"));
    assertThat(leaky.status()).isEqualTo(500);
    assertThat(leaky.json().get("status").stringValue()).isEqualTo("INTERNAL");
    assertThat(leaky.body()).doesNotContain("jdbc", "10.0.0.7", "IllegalStateException", "at ");
    Answer streamed = post(served.url("/flows/leaky?stream=true"), envelope("x"));
    assertThat(streamed.lastFrame().at("/error/status").stringValue()).isEqualTo("INTERNAL");
    assertThat(streamed.body()).doesNotContain("jdbc");
    // A public error keeps its message and its own status.
    Answer picky = post(served.url("/flows/picky"), envelope("abc"));
    assertThat(picky.status()).isEqualTo(400);
    assertThat(picky.json().get("status").stringValue()).isEqualTo("OUT_OF_RANGE");
    assertThat(picky.json().get("message").stringValue()).isEqualTo("abc is too long");
  }

  /** A value whose JSON cannot be written: its one property fails. */
  public static final class Unwritable {
    public String getSecret() {
      throw new IllegalStateException("the vault at 10.0.0.9 is sealed");
    }
  }

  @Test
  void aStreamWhoseResultCannotBeWrittenStillEndsWithAnErrorFrame() {
    served.baton.defineFlow(
        "unwritable",
        String.class,
        JsonNode.class,
        (ctx, in) -> Json.nodes().pojoNode(new Unwritable()));
    served.start(b -> b.exposeErrorMessages(false));

    // The failure comes after the stream began: without a closing frame a Genkit JS client hangs.
    Answer streamed = post(served.url("/flows/unwritable?stream=true"), envelope("x"));

    assertThat(streamed.status()).isEqualTo(200);
    assertThat(streamed.frames()).hasSize(1);
    assertThat(streamed.lastFrame().at("/error/status").stringValue()).isEqualTo("INTERNAL");
    assertThat(streamed.body()).doesNotContain("vault", "10.0.0.9");
  }

  @Test
  void internalMessagesReachADevelopmentClient() {
    served.baton.defineFlow(
        "leaky",
        String.class,
        String.class,
        (ctx, in) -> {
          throw new IllegalStateException("the cache is cold");
        });
    served.start(b -> b.exposeErrorMessages(true));

    Answer leaky = post(served.url("/flows/leaky"), envelope("x"));
    assertThat(leaky.json().get("message").stringValue()).contains("the cache is cold");
    assertThat(leaky.body()).doesNotContain("at dev.baton", "\tat ");
  }

  @Test
  void onlyPostIsAnsweredAndUnmountedRoutesAreLeftAlone() throws Exception {
    serverManaged();
    served.agent("secret", AgentOptions.DEFAULTS);
    served.serve(b -> b.agents("chat"));

    HttpResponse<String> get =
        TestHttp.CLIENT.send(
            HttpRequest.newBuilder(served.url("/agents/chat")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    // Not mounted: the handler leaves the path to the next one, here Jetty's own 404.
    Answer secret = post(served.url("/agents/secret"), envelope(HELLO));
    assertThat(secret.status()).isEqualTo(404);
    assertThat(secret.body()).doesNotContain("\"status\"");
    assertThat(served.model.calls()).isZero();
  }

  @Test
  void keepAliveCommentsGoOnlyToClientsThatAskForThem() throws Exception {
    serverManaged();
    served.start(b -> b.keepAliveInterval(Duration.ofMillis(20)));
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch entered = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      served
          .model
          .step()
          .signalOnEntry(entered)
          .blockUntil(release)
          .respond(ModelResponse.of(Message.model("late"), FinishReason.STOP));
    }
    String turn = Json.write(envelope(HELLO));
    CompletableFuture<Answer> silent =
        CompletableFuture.supplyAsync(() -> post(served.url("/agents/chat?stream=true"), turn));
    HttpResponse<InputStream> asking =
        TestHttp.CLIENT.send(
            HttpRequest.newBuilder(served.url("/agents/chat?stream=true"))
                .header("X-Baton-Keep-Alive", "true")
                .POST(HttpRequest.BodyPublishers.ofString(turn))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    StringBuilder read = new StringBuilder();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(asking.body(), StandardCharsets.UTF_8))) {
      assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
      // Both turns wait in the model until the asking client has had two keep-alives, so a full
      // interval passed while both streams were open.
      int keepAlives = 0;
      String line;
      while (keepAlives < 2 && (line = lines.readLine()) != null) {
        keepAlives += line.equals(": keep-alive") ? 1 : 0;
      }
      assertThat(keepAlives).isEqualTo(2);
      release.countDown();
      lines.lines().forEach(rest -> read.append(rest).append('\n'));
    }

    assertThat(read.toString()).contains("data: {\"result\":");
    Answer answer = silent.get(30, TimeUnit.SECONDS);
    assertThat(answer.body()).doesNotContain(": keep-alive");
    assertThat(answer.lastFrame().has("result")).isTrue();
  }
}
