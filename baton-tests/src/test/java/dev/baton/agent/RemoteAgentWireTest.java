package dev.baton.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Recorded;
import dev.baton.testing.FakeHttpServer.Reply;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * A remote agent against a scripted HTTP server: what it sends, and how it reads Genkit's answers,
 * in the shapes JS and Go (and Baton) write them. Baton against Baton and against Genkit JS are
 * tested in baton-server.
 */
class RemoteAgentWireTest {
  private static final String OUTPUT =
      "{\"result\": {\"sessionId\": \"sess\", \"snapshotId\": \"s2\", \"finishReason\": \"stop\","
          + " \"message\": {\"role\": \"model\", \"content\": [{\"text\": \"hi\"}]}}}";

  @AutoClose final FakeHttpServer server = FakeHttpServer.start();
  final Baton baton = Baton.builder().experimental().build();

  private Agent remote(RemoteAgentOptions options) {
    return baton.defineRemoteAgent(
        "researcher", server.baseUrl().resolve("/agents/researcher"), options);
  }

  private Agent remote() {
    return remote(RemoteAgentOptions.builder().waitPollInterval(Duration.ofMillis(10)).build());
  }

  @Test
  void aTurnPostsTheEnvelopeWithItsHeadersAndReadsChunksAndResult() {
    server.reply(
        Reply.sse(
            "{\"message\": {\"modelChunk\": {\"role\": \"model\", \"content\": [{\"text\":"
                + " \"hi\"}]}}}",
            "{\"message\": {\"turnEnd\": {\"snapshotId\": \"s2\", \"finishReason\": \"stop\"}}}",
            OUTPUT.substring(0, OUTPUT.length())));
    Agent agent =
        remote(
            RemoteAgentOptions.builder()
                .header("X-Team", "research")
                .headers(ctx -> Map.of("Authorization", "Bearer " + ctx.auth().get("token")))
                .build());
    List<AgentStreamChunk> chunks = new ArrayList<>();

    AgentOutput output =
        agent.run(
            baton.context().withAuth(Map.of("token", "t-1")),
            AgentInput.text("hello"),
            AgentInit.NEW,
            chunks::add);

    assertThat(output.snapshotId()).isEqualTo("s2");
    assertThat(output.text()).isEqualTo("hi");
    assertThat(chunks).hasSize(2);
    assertThat(chunks.get(1).turnEnd().snapshotId()).isEqualTo("s2");
    Recorded request = server.request(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.pathAndQuery()).isEqualTo("/agents/researcher");
    assertThat(request.header("Accept")).isEqualTo("text/event-stream");
    assertThat(request.header("Content-Type")).isEqualTo("application/json");
    assertThat(request.header("X-Team")).isEqualTo("research");
    assertThat(request.header("Authorization")).isEqualTo("Bearer t-1");
    JsonNode body = Json.parse(request.body());
    assertThat(body.at("/data/message/content/0/text").stringValue()).isEqualTo("hello");
    // Genkit JS refuses a turn without init, so a fresh session sends {}.
    assertThat(body.get("init").isObject()).isTrue();
    assertThat(body.get("init").isEmpty()).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "JS error line | 'error: {\"error\":{\"status\":\"FAILED_PRECONDITION\",\"message\":\"no"
            + " way\"}}' | FAILED_PRECONDITION",
        "Go data line | 'data: {\"error\":{\"status\":\"NOT_FOUND\",\"message\":\"no way\"}}' |"
            + " NOT_FOUND",
      })
  void errorFramesKeepTheirStatusInEitherDialect(String dialect, String frame, Status status) {
    server.reply(Reply.raw(200, "text/plain", frame + "\n\n"));
    assertThatThrownBy(() -> remote().run(baton.context(), AgentInput.text("hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).isEqualTo("no way");
              assertThat(e.isPublic()).isTrue();
            });
  }

  @Test
  void aStreamThatEndsWithoutAResultIsUnavailable() {
    server.reply(Reply.sse("{\"message\": {\"turnEnd\": {\"finishReason\": \"stop\"}}}"));
    assertThatThrownBy(() -> remote().run(baton.context(), AgentInput.text("hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
              assertThat(e.getMessage()).contains("without a result");
            });
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "400 | '{\"status\":\"FAILED_PRECONDITION\",\"message\":\"pending\"}' | FAILED_PRECONDITION"
            + " | pending",
        "400 | '{\"message\":\"no body\",\"status\":\"INVALID ARGUMENT\"}' | INVALID_ARGUMENT |"
            + " no body",
        "404 | 'snapshot \"x\" not found' | NOT_FOUND | answered HTTP 404",
        "503 | overloaded | UNAVAILABLE | answered HTTP 503",
        "500 | '' | INTERNAL | answered HTTP 500",
        "418 | teapot | UNKNOWN | answered HTTP 418",
        // Go refuses Baton's continue extension as an unknown init field, in plain text.
        "400 | 'init has an unknown field \"continue\"' | INVALID_ARGUMENT | answered HTTP 400",
      })
  void anErrorAnswerKeepsTheStatusItNamesOrTheOneItsCodeMeans(
      int http, String body, Status status, String message) {
    server.reply(Reply.raw(http, "text/plain", body));
    assertThatThrownBy(() -> remote().run(baton.context(), AgentInput.text("hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).contains(message);
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "Baton or Genkit JS, plain | 400 | application/json | '{\"status\":\"FAILED_PRECONDITION\","
            + "\"message\":\"no store\"}'",
        "Baton, streamed | 200 | text/event-stream | 'data: {\"error\":{\"status\":"
            + "\"FAILED_PRECONDITION\",\"message\":\"no store\"}}'",
        "Genkit JS, streamed | 200 | text/plain | 'error: {\"error\":{\"status\":"
            + "\"FAILED_PRECONDITION\",\"message\":\"no store\"}}'",
      })
  void aDetachTheServerRefusesIsAFailedOutputAsALocalAgentGivesIt(
      String dialect, int http, String contentType, String answer) {
    server.reply(Reply.raw(http, contentType, answer + "\n\n"));
    SessionState state =
        SessionState.empty().withSessionId("sess").withMessages(List.of(Message.user("earlier")));

    AgentOutput output =
        remote()
            .run(
                baton.context(),
                AgentInput.text("later").withDetach(true),
                AgentInit.ofState(state),
                StreamCallback.discard());

    assertThat(output.finishReason()).isEqualTo(AgentFinishReason.FAILED);
    assertThat(output.error().statusCode()).isEqualTo(Status.FAILED_PRECONDITION);
    assertThat(output.error().message()).isEqualTo("no store");
    // What the turn started from, as a local agent's failed output gives it.
    assertThat(output.sessionId()).isEqualTo("sess");
    assertThat(output.state()).isEqualTo(state);
  }

  @Test
  void aDetachTheServerRefusesForAnotherReasonStillThrows() {
    server.reply(Reply.json(503, "{\"status\":\"UNAVAILABLE\",\"message\":\"overloaded\"}"));
    assertThatThrownBy(
            () -> remote().run(baton.context(), AgentInput.text("later").withDetach(true)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAVAILABLE));
  }

  @Test
  void aBodyThatIsNotJsonStaysOutOfThePublicMessage() {
    server.reply(
        Reply.raw(502, "text/html", "<h1>Bad gateway</h1> upstream 10.0.0.7:8080 refused"));
    assertThatThrownBy(() -> remote().run(baton.context(), AgentInput.text("hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.getMessage()).isEqualTo("remote agent \"researcher\" answered HTTP 502");
              assertThat(e.isPublic()).isTrue();
              // The body stays available to logs, in a cause no client sees.
              assertThat(e.getCause())
                  .isInstanceOfSatisfying(
                      BatonException.class,
                      body -> {
                        assertThat(body.isPublic()).isFalse();
                        assertThat(body.getMessage()).contains("10.0.0.7:8080 refused");
                      });
            });
  }

  @Test
  void aRefusedCredentialIsNotPassedOnToRemoteClients() {
    server.reply(
        Reply.json(401, "{\"status\":\"UNAUTHENTICATED\",\"message\":\"key k-9 expired\"}"));
    assertThatThrownBy(() -> remote().run(baton.context(), AgentInput.text("hi")))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.UNAUTHENTICATED);
              assertThat(e.isPublic()).isFalse();
            });
  }

  @Test
  void continuationAndRetryTravelAsBatonsExtensionFields() {
    server.reply(Reply.sse(OUTPUT));
    remote()
        .run(
            baton.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom("s1"),
            StreamCallback.discard());
    JsonNode body = Json.parse(server.request(0).body());
    assertThat(body.at("/init/snapshotId").stringValue()).isEqualTo("s1");
    assertThat(body.at("/init/continue").booleanValue()).isTrue();
    assertThat(body.at("/data/retry").booleanValue()).isTrue();
  }

  @Test
  void snapshotReadsUseTheCompanionRoutes() {
    server.reply(
        Reply.json(
            "{\"result\": {\"snapshotId\": \"s1\", \"sessionId\": \"sess\", \"createdAt\":"
                + " \"2026-12-01T10:00:00Z\", \"status\": \"completed\"}}"),
        Reply.json(404, "{\"status\": \"NOT_FOUND\", \"message\": \"no snapshot\"}"),
        Reply.raw(404, "text/html", "Cannot POST /agents/researcher/getSnapshot"));
    Agent agent = remote();

    assertThat(agent.snapshots().get("s1").sessionId()).isEqualTo("sess");
    assertThat(agent.snapshots().latest("other")).isNull();
    assertThatThrownBy(() -> agent.snapshots().get("gone"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
    assertThat(server.request(0).pathAndQuery()).isEqualTo("/agents/researcher/getSnapshot");
    assertThat(Json.parse(server.request(0).body()).toString())
        .isEqualTo("{\"data\":{\"snapshotId\":\"s1\"}}");
    assertThat(Json.parse(server.request(1).body()).toString())
        .isEqualTo("{\"data\":{\"sessionId\":\"other\"}}");
  }

  @Test
  void anAbortedRowWithoutAFinishReasonSettlesOnceItsHeartbeatAgesOut() {
    String row =
        "{\"result\": {\"snapshotId\": \"%s\", \"createdAt\": \"2026-12-01T10:00:00Z\","
            + " \"heartbeatAt\": \"%s\", \"status\": \"aborted\"}}";
    Instant now = Instant.now();
    server.reply(
        Reply.json(row.formatted("fresh", now)),
        Reply.json(row.formatted("stale", now.minus(Duration.ofMinutes(5)))));
    Agent agent = remote();

    assertThat(agent.snapshots().get("fresh").finishReason())
        .as("a live worker is still saving its progress")
        .isNull();
    assertThat(agent.snapshots().get("stale").finishReason())
        .as("Genkit JS never writes it; the aged heartbeat says no one will")
        .isEqualTo(AgentFinishReason.ABORTED);
  }

  @Test
  void withoutAWaitRouteAWaitPollsGetSnapshotUntilTheSnapshotSettles() {
    String pending =
        "{\"result\": {\"snapshotId\": \"p\", \"createdAt\": \"2026-12-01T10:00:00Z\","
            + " \"status\": \"pending\"}}";
    server.reply(
        Reply.raw(404, "text/html", "Cannot POST /agents/researcher/waitForSnapshot"),
        Reply.json(pending),
        Reply.json(pending),
        Reply.json(pending.replace("pending", "completed")));
    Agent agent = remote();

    assertThat(agent.snapshots().waitFor("p").status()).isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(server.requests())
        .extracting(Recorded::pathAndQuery)
        .containsExactly(
            "/agents/researcher/waitForSnapshot",
            "/agents/researcher/getSnapshot",
            "/agents/researcher/getSnapshot",
            "/agents/researcher/getSnapshot");

    // The route stays known to be missing: the next wait polls at once.
    server.reply(Reply.json(pending.replace("pending", "failed")));
    assertThat(agent.snapshots().waitFor("p").status()).isEqualTo(SnapshotStatus.FAILED);
    assertThat(server.requests()).hasSize(5);
  }

  @Test
  void anAbortTrustsASettledAnswerAndRereadsAnyOther() {
    String aborted =
        "{\"result\": {\"snapshotId\": \"p\", \"createdAt\": \"2026-12-01T10:00:00Z\","
            + " \"status\": \"aborted\"}}";
    server.reply(
        Reply.json("{\"result\": {\"snapshotId\": \"p\", \"status\": \"aborted\"}}"),
        // Genkit JS answers with the status before the abort, or none for an unknown ID.
        Reply.json("{\"result\": {\"snapshotId\": \"p\", \"status\": \"pending\"}}"),
        Reply.json(aborted),
        Reply.json("{\"result\": {\"snapshotId\": \"q\"}}"),
        Reply.json(404, "{\"status\": \"NOT_FOUND\", \"message\": \"no q\"}"),
        Reply.json(404, "{\"status\": \"NOT_FOUND\", \"message\": \"no r\"}"),
        Reply.json(404, "{\"status\": \"NOT_FOUND\", \"message\": \"no r\"}"),
        // No abort route, while the snapshot exists: the server cannot abort.
        Reply.raw(404, "text/plain", "404 page not found"),
        Reply.json(aborted.replace("aborted", "pending")));
    Agent agent = remote();

    assertThat(agent.snapshots().abort("p")).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.snapshots().abort("p")).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.snapshots().abort("q")).isNull();
    assertThat(agent.snapshots().abort("r")).isNull();
    assertThatThrownBy(() -> agent.snapshots().abort("p"))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
              assertThat(e.getMessage())
                  .contains("publishes no route to abort")
                  .doesNotContain(server.baseUrl().getAuthority());
              // The URL it tried is for logs only.
              assertThat(e.getCause().getMessage()).contains("/agents/researcher/abort");
              assertThat(((BatonException) e.getCause()).isPublic()).isFalse();
            });
    assertThat(server.requests()).hasSize(9);
  }

  @Test
  void cancellingTheCallerClosesTheRequest() throws Exception {
    Reply hanging = Reply.hang();
    server.reply(hanging);
    ActionContext context = baton.context();
    Thread caller =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    remote()
                        .run(
                            context,
                            AgentInput.text("hi"),
                            AgentInit.NEW,
                            StreamCallback.discard());
                  } catch (BatonException expected) {
                    // cancelled
                  }
                });
    server.awaitRequest();
    context.cancellation().cancel();
    hanging.awaitClientGone();
    caller.join();
  }

  @Test
  void aConnectionSendsEachInputAsATurnResumingThePreviousOne() {
    server.reply(Reply.sse(OUTPUT), Reply.sse(OUTPUT.replace("s2", "s3")));
    Agent agent = remote();
    AgentOutput output;
    try (AgentConnection connection = agent.connect(baton.context(), AgentInit.ofSession("sess"))) {
      connection.sendText("one");
      connection.sendText("two");
      output = connection.output();
    }
    assertThat(output.snapshotId()).isEqualTo("s3");
    assertThat(Json.parse(server.request(0).body()).get("init").toString())
        .isEqualTo("{\"sessionId\":\"sess\"}");
    assertThat(Json.parse(server.request(1).body()).get("init").toString())
        .isEqualTo("{\"snapshotId\":\"s2\"}");
  }

  @Test
  void itRegistersTheCompanionsItsMetadataAllows() {
    baton.defineRemoteAgent("unknown", server.baseUrl().resolve("/agents/unknown"));
    baton.defineRemoteAgent(
        "client",
        server.baseUrl().resolve("/agents/client"),
        RemoteAgentOptions.builder().stateManagement(StateManagement.CLIENT).build());
    baton.defineRemoteAgent(
        "noabort",
        server.baseUrl().resolve("/agents/noabort"),
        RemoteAgentOptions.builder()
            .description("Cannot stop.")
            .stateManagement(StateManagement.SERVER)
            .abortable(false)
            .build());
    var registry = baton.registry();

    assertThat(registry.lookup(ActionType.AGENT_SNAPSHOT, "unknown")).isPresent();
    assertThat(registry.lookup(ActionType.AGENT_WAIT, "unknown")).isPresent();
    assertThat(registry.lookup(ActionType.AGENT_ABORT, "unknown")).isPresent();
    assertThat(registry.lookup(ActionType.AGENT_SNAPSHOT, "client")).isEmpty();
    assertThat(registry.lookup(ActionType.AGENT_SNAPSHOT, "noabort")).isPresent();
    assertThat(registry.lookup(ActionType.AGENT_ABORT, "noabort")).isEmpty();
    assertThat(baton.agent("unknown").metadata()).isNull();
    Agent noAbort = baton.agent("noabort");
    assertThat(noAbort.description()).isEqualTo("Cannot stop.");
    assertThat(noAbort.metadata().stateManagement()).isEqualTo(StateManagement.SERVER);
    assertThat(noAbort.metadata().isAbortable()).isFalse();
    assertThat(noAbort.metadata().stateSchema()).isNull();
    assertThat(
            baton
                .agent("noabort")
                .descriptor()
                .metadata()
                .at("/agent/stateManagement")
                .stringValue())
        .isEqualTo("server");
  }

  @Test
  void aRemoteAgentNeedsExperimentalFeatures() {
    assertThatThrownBy(() -> Baton.builder().build().defineRemoteAgent("r", server.baseUrl()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void companionRoutesCanBeMovedElsewhere() {
    String row =
        "{\"result\": {\"snapshotId\": \"s1\", \"createdAt\": \"2026-12-01T10:00:00Z\","
            + " \"status\": \"completed\"}}";
    server.reply(
        Reply.json(row),
        Reply.json(row),
        Reply.json("{\"result\": {\"snapshotId\": \"s1\", \"status\": \"completed\"}}"));
    Agent agent =
        remote(
            RemoteAgentOptions.builder()
                .getSnapshotUrl(server.baseUrl().resolve("/snapshots/read"))
                .waitForSnapshotUrl(server.baseUrl().resolve("/snapshots/wait"))
                .abortUrl(server.baseUrl().resolve("/snapshots/abort"))
                .build());

    agent.snapshots().get("s1");
    agent.snapshots().waitFor("s1");
    agent.snapshots().abort("s1");

    assertThat(server.requests())
        .extracting(Recorded::pathAndQuery)
        .containsExactly("/snapshots/read", "/snapshots/wait", "/snapshots/abort");
  }
}
