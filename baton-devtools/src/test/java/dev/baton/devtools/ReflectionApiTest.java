package dev.baton.devtools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.core.Action;
import dev.baton.core.ActionContext;
import dev.baton.core.ActionDescriptor;
import dev.baton.core.ActionType;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.Retry;
import dev.baton.otel.BatonTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** The reflection API over HTTP, as genkit-cli 1.43.0 calls it. */
class ReflectionApiTest {
  private static final Map<String, String> DEV =
      Map.of("GENKIT_ENV", "dev", "GENKIT_REFLECTION_PORT", "0");

  private static final String RETRY = new Retry().name();

  @TempDir Path project;
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private final BatonTelemetry telemetry = BatonTelemetry.builder().addSpanExporter(spans).build();
  private final Baton baton = DevApp.define(telemetry);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger sideEffects = new AtomicInteger();
  private DevTools devTools;
  private ReflectionClient client;

  @BeforeEach
  void start() throws Exception {
    Files.writeString(project.resolve("pom.xml"), "<project/>");
    baton.defineFlow(
        "held",
        String.class,
        String.class,
        (ctx, in) -> {
          await(release);
          return "released " + in;
        });
    baton.defineFlow(
        "waitsForCancel",
        String.class,
        String.class,
        (ctx, in) -> {
          CountDownLatch cancelled = new CountDownLatch(1);
          ctx.cancellation().onCancel(cancelled::countDown);
          await(cancelled);
          ctx.cancellation().throwIfCancelled();
          return "not cancelled";
        });
    baton.defineFlow(
        "fails",
        String.class,
        String.class,
        (ctx, in) -> {
          throw in.equals("public")
              ? BatonException.of(Status.FAILED_PRECONDITION, "not now")
              : new IllegalStateException("secret database path /var/db");
        });
    baton.defineFlow(
        "whoAmI",
        String.class,
        String.class,
        (ctx, in) -> new TreeMap<>(ctx.auth()) + " as " + ctx.principal().orElse("nobody"));
    baton.defineFlow(
        "sideEffect",
        String.class,
        String.class,
        (ctx, in) -> "run " + sideEffects.incrementAndGet());
    devTools = DevTools.start(baton, DEV, project);
    client = new ReflectionClient(devTools.url().orElseThrow());
  }

  @AfterEach
  void stop() {
    release.countDown();
    devTools.close();
    telemetry.close();
  }

  @Test
  void theRuntimeFileNamesTheServerAndTheHealthCheckComparesItsId() throws Exception {
    List<Path> files = runtimeFiles();
    assertThat(files).hasSize(1);
    JsonNode file = Json.parse(Files.readString(files.get(0)));
    long pid = ProcessHandle.current().pid();
    int port = devTools.url().orElseThrow().getPort();
    assertThat(files.get(0).getFileName().toString())
        .startsWith(pid + "-" + port + "-")
        .endsWith(".json");
    assertThat(file.path("id").asString()).isEqualTo(pid + "-" + port);
    assertThat(file.path("pid").asLong()).isEqualTo(pid);
    assertThat(file.path("reflectionServerUrl").asString()).isEqualTo("http://127.0.0.1:" + port);
    assertThat(file.path("reflectionApiSpecVersion").asInt()).isEqualTo(1);
    assertThat(file.path("genkitVersion").asString()).startsWith("java/");
    assertThat(java.time.Instant.parse(file.path("timestamp").asString())).isNotNull();

    assertThat(client.get("/api/__health").statusCode()).isEqualTo(200);
    assertThat(client.get("/api/__health?id=" + pid + "-" + port).statusCode()).isEqualTo(200);
    HttpResponse<String> wrong = client.get("/api/__health?id=someone-else");
    assertThat(wrong.statusCode()).isEqualTo(503);
    assertThat(wrong.body()).isEqualTo("Invalid runtime ID");

    devTools.close();
    assertThat(runtimeFiles()).isEmpty();
    assertThat(devTools.isRunning()).isFalse();
  }

  @Test
  void aRuntimeIdFromTheEnvironmentIsWrittenAndChecked(@TempDir Path other) throws Exception {
    Files.writeString(other.resolve("build.gradle.kts"), "");
    Path nested = Files.createDirectories(other.resolve("src/main"));
    Map<String, String> env =
        Map.of("GENKIT_ENV", "dev", "GENKIT_REFLECTION_PORT", "0", "GENKIT_RUNTIME_ID", "mine");
    try (DevTools second = DevTools.start(baton, env, nested)) {
      Path runtimes = other.resolve(".genkit/runtimes");
      try (var listing = Files.list(runtimes)) {
        JsonNode file = Json.parse(Files.readString(listing.findFirst().orElseThrow()));
        assertThat(file.path("id").asString()).isEqualTo("mine");
      }
      ReflectionClient secondClient = new ReflectionClient(second.url().orElseThrow());
      assertThat(secondClient.get("/api/__health?id=mine").statusCode()).isEqualTo(200);
      int port = second.url().orElseThrow().getPort();
      assertThat(
              secondClient
                  .get("/api/__health?id=" + ProcessHandle.current().pid() + "-" + port)
                  .statusCode())
          .isEqualTo(503);
    }
  }

  @Test
  void outsideDevModeNothingIsServed(@TempDir Path quiet) {
    DevTools off = DevTools.start(baton, Map.of("GENKIT_REFLECTION_PORT", "0"), quiet);
    assertThat(off.isRunning()).isFalse();
    assertThat(off.url()).isEmpty();
    assertThat(quiet.resolve(".genkit")).doesNotExist();
    off.close();
  }

  @Test
  void actionsListsEveryActionWithAgentMetadataCompanionsAndMiddleware() {
    HttpResponse<String> response = client.get("/api/actions");
    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode actions = client.json(response);
    assertThat(actions.properties())
        .extracting(Map.Entry::getKey)
        .contains(
            "/flow/echo",
            "/flow/count",
            "/tool/shout",
            "/model/echoModel",
            "/util/generate",
            "/agent/serverAgent",
            "/agent-snapshot/serverAgent",
            "/agent-abort/serverAgent",
            "/executable-prompt/serverAgent",
            "/middleware/" + RETRY);
    JsonNode flow = actions.path("/flow/echo");
    assertThat(flow.path("key").asString()).isEqualTo("/flow/echo");
    assertThat(flow.path("name").asString()).isEqualTo("echo");
    assertThat(flow.path("inputSchema").path("type").asString()).isEqualTo("string");
    JsonNode agent = actions.path("/agent/serverAgent");
    assertThat(agent.path("description").asString()).isEqualTo("Echoes, remembering the session.");
    assertThat(agent.path("metadata").path("bidi").asBoolean()).isTrue();
    assertThat(agent.path("metadata").path("agent").path("stateManagement").asString())
        .isEqualTo("server");
    assertThat(agent.path("metadata").path("agent").path("abortable").asBoolean()).isTrue();
    assertThat(agent.path("outputSchema").path("properties").has("snapshotId")).isTrue();
    assertThat(
            actions
                .path("/model/echoModel")
                .path("metadata")
                .path("model")
                .path("label")
                .asString())
        .isEqualTo("Echo");
    JsonNode retry = actions.path("/middleware/" + RETRY);
    assertThat(retry.path("description").asString())
        .isEqualTo("Retry failed model calls with exponential backoff and jitter");
    assertThat(retry.path("inputSchema").path("properties").isObject()).isTrue();
  }

  @Test
  void anActionWhoseDescriptorFailsIsListedByKeyAndNameAndTheOthersStillAre() {
    baton.registry().register(new BrokenAction(ActionType.TOOL, "broken"));

    HttpResponse<String> response = client.get("/api/actions");

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode actions = client.json(response);
    assertThat(actions.properties())
        .extracting(Map.Entry::getKey)
        .contains("/flow/echo", "/tool/shout", "/agent/serverAgent", "/middleware/" + RETRY);
    assertThat(actions.path("/tool/broken"))
        .isEqualTo(Json.parse("{\"key\":\"/tool/broken\",\"name\":\"broken\",\"metadata\":{}}"));
    assertThat(actions.path("/flow/echo").path("inputSchema").path("type").asString())
        .isEqualTo("string");
  }

  /**
   * An action that answers its type and name from its descriptor, which worked when it was
   * registered and fails now, cannot be listed at all; the others still are.
   */
  @Test
  void anActionWhoseNameNeedsItsFailingDescriptorIsLeftOutAndTheOthersStillListed() {
    AtomicBoolean describable = new AtomicBoolean(true);
    baton.registry().register(new DescriptorOnlyAction(describable));
    describable.set(false);

    HttpResponse<String> response = client.get("/api/actions");

    assertThat(response.statusCode()).isEqualTo(200);
    JsonNode actions = client.json(response);
    assertThat(actions.properties())
        .extracting(Map.Entry::getKey)
        .contains("/flow/echo", "/tool/shout", "/agent/serverAgent", "/middleware/" + RETRY)
        .doesNotContain("/tool/flaky");
  }

  /** An action that overrides only its descriptor, which fails once {@code describable} is off. */
  private record DescriptorOnlyAction(AtomicBoolean describable)
      implements Action<JsonNode, JsonNode, Void> {
    @Override
    public ActionDescriptor descriptor() {
      if (!describable.get()) {
        throw new IllegalStateException("the schema source went away");
      }
      return ActionDescriptor.builder(ActionType.TOOL, "flaky").build();
    }

    @Override
    public JsonNode run(ActionContext context, JsonNode input, StreamCallback<Void> stream) {
      return input;
    }

    @Override
    public JsonNode runJson(
        ActionContext context,
        JsonNode input,
        @Nullable JsonNode init,
        StreamCallback<JsonNode> stream) {
      return input;
    }
  }

  /** An action whose descriptor fails; its type and name answer without it, as Baton's do. */
  private record BrokenAction(ActionType type, String name)
      implements Action<JsonNode, JsonNode, Void> {
    @Override
    public ActionDescriptor descriptor() {
      throw new IllegalStateException("no schema for " + name);
    }

    @Override
    public JsonNode run(ActionContext context, JsonNode input, StreamCallback<Void> stream) {
      return input;
    }

    @Override
    public JsonNode runJson(
        ActionContext context,
        JsonNode input,
        @Nullable JsonNode init,
        StreamCallback<JsonNode> stream) {
      return input;
    }
  }

  @Test
  void valuesListsMiddlewareByNameAndRequiresAType() {
    JsonNode middleware = client.json(client.get("/api/values?type=middleware"));
    assertThat(middleware.path(RETRY).path("name").asString()).isEqualTo(RETRY);
    assertThat(middleware.path(RETRY).path("configSchema").isObject()).isTrue();
    assertThat(client.json(client.get("/api/values?type=defaultModel")).isEmpty()).isTrue();
    assertThat(client.get("/api/values").statusCode()).isEqualTo(400);
  }

  @Test
  void aRunAnswersItsResultAndTraceIdWhichTheHeaderCarriesToo() {
    HttpResponse<String> response = client.post("/api/runAction", run("/flow/echo", "bob"));
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    JsonNode body = client.json(response);
    assertThat(body.path("result").asString()).isEqualTo("echo: bob");
    String traceId = body.path("telemetry").path("traceId").asString();
    assertThat(response.headers().firstValue("X-Genkit-Trace-Id")).hasValue(traceId);
    assertThat(response.headers().firstValue("X-Genkit-Version")).hasValue(DevTools.VERSION);
    SpanData root = rootSpan("echo");
    assertThat(root.getTraceId()).isEqualTo(traceId);
    assertThat(response.headers().firstValue("X-Genkit-Span-Id")).hasValue(root.getSpanId());
    // As Genkit JS labels a run's root span: its action's key, and the context it ran with ("{}"
    // when the request gave none).
    assertThat(root.getAttributes().get(AttributeKey.stringKey("genkit:key")))
        .isEqualTo("/flow/echo");
    assertThat(tracedContext(root)).isEqualTo(Json.object());
  }

  @Test
  void aStreamedRunIsNdjsonEndingWithTheResultAndNoNewline() {
    HttpResponse<String> response =
        client.post("/api/runAction?stream=true", run("/flow/count", 3));
    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain");
    String body = response.body();
    assertThat(body).doesNotEndWith("\n");
    String[] lines = body.split("\n", -1);
    assertThat(lines).hasSize(4);
    assertThat(Json.parse(lines[0])).isEqualTo(Json.object().put("count", 0));
    assertThat(Json.parse(lines[2])).isEqualTo(Json.object().put("count", 2));
    JsonNode last = Json.parse(lines[3]);
    assertThat(last.path("result").asString()).isEqualTo("done: 3");
    assertThat(last.path("telemetry").path("traceId").asString())
        .isEqualTo(response.headers().firstValue("X-Genkit-Trace-Id").orElseThrow());
  }

  @Test
  void theTraceHeadersArriveWhileTheActionIsStillRunning() {
    HttpResponse<InputStream> response =
        client.postStreaming("/api/runAction", run("/flow/held", "x"));
    // send() returned with the headers while the flow is still held.
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("X-Genkit-Trace-Id")).isPresent();
    release.countDown();
    assertThat(Json.parse(ReflectionClient.readAll(response)).path("result").asString())
        .isEqualTo("released x");
  }

  @Test
  void cancelActionStopsARunByItsTraceId() {
    HttpResponse<InputStream> response =
        client.postStreaming("/api/runAction?stream=true", run("/flow/waitsForCancel", "x"));
    String traceId = response.headers().firstValue("X-Genkit-Trace-Id").orElseThrow();

    HttpResponse<String> cancelled =
        client.post("/api/cancelAction", Json.object().put("traceId", traceId));
    assertThat(cancelled.statusCode()).isEqualTo(200);
    assertThat(client.json(cancelled).path("message").asString()).isEqualTo("Action cancelled");
    JsonNode error = Json.parse(ReflectionClient.readAll(response)).path("error");
    assertThat(error.path("code").asInt()).isEqualTo(1);
    assertThat(error.path("message").asString()).isEqualTo("Action was cancelled");
    assertThat(error.path("details").path("traceId").asString()).isEqualTo(traceId);

    HttpResponse<String> again =
        client.post("/api/cancelAction", Json.object().put("traceId", traceId));
    assertThat(again.statusCode()).isEqualTo(404);
    assertThat(client.post("/api/cancelAction", Json.object()).statusCode()).isEqualTo(400);
  }

  @Test
  void failuresAreGenkitErrorsWithoutInternalDetails() {
    HttpResponse<String> unknown = client.post("/api/runAction", run("/flow/nope", "x"));
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).isEqualTo("action /flow/nope not found");

    JsonNode failed = client.json(client.post("/api/runAction", run("/flow/fails", "public")));
    assertThat(failed.path("error").path("code").asInt()).isEqualTo(9);
    assertThat(failed.path("error").path("message").asString())
        .isEqualTo("FAILED_PRECONDITION: not now");
    assertThat(failed.path("error").path("details").path("traceId").asString()).isNotEmpty();

    HttpResponse<String> streamed =
        client.post("/api/runAction?stream=true", run("/flow/fails", "internal"));
    JsonNode internal = Json.parse(streamed.body()).path("error");
    assertThat(internal.path("code").asInt()).isEqualTo(13);
    assertThat(streamed.body()).doesNotContain("/var/db").doesNotContain("at dev.baton");

    HttpResponse<String> badInput = client.post("/api/runAction", run("/flow/count", "three"));
    assertThat(badInput.statusCode()).isEqualTo(400);
    assertThat(client.json(badInput).path("code").asInt()).isEqualTo(3);
  }

  @Test
  void anAgentTurnRunsWithInitAndASecondTurnResumesItsSnapshot() {
    ObjectNode first =
        run(
            "/agent/serverAgent",
            Json.object().set("message", Json.toTree(dev.baton.ai.Message.user("ping"))));
    first.putObject("init");
    HttpResponse<String> firstTurn = client.post("/api/runAction?stream=true", first);
    String[] lines = firstTurn.body().split("\n");
    assertThat(
            Json.parse(lines[0]).path("modelChunk").path("content").path(0).path("text").asString())
        .isEqualTo("echo: ");
    assertThat(Json.parse(lines[lines.length - 2]).path("turnEnd").path("snapshotId").asString())
        .isNotEmpty();
    JsonNode output = Json.parse(lines[lines.length - 1]).path("result");
    assertThat(output.path("message").path("content").path(0).path("text").asString())
        .isEqualTo("echo: ping (turn 1)");
    String snapshotId = output.path("snapshotId").asString();

    ObjectNode second =
        run(
            "/agent/serverAgent",
            Json.object().set("message", Json.toTree(dev.baton.ai.Message.user("pong"))));
    second.putObject("init").put("snapshotId", snapshotId);
    JsonNode resumed = client.json(client.post("/api/runAction", second)).path("result");
    assertThat(resumed.path("message").path("content").path(0).path("text").asString())
        .isEqualTo("echo: pong (turn 2)");
    assertThat(resumed.path("sessionId")).isEqualTo(output.path("sessionId"));

    ObjectNode wrong =
        run(
            "/agent/serverAgent",
            Json.object().set("message", Json.toTree(dev.baton.ai.Message.user("x"))));
    wrong.putObject("init").putObject("state");
    JsonNode refused = client.json(client.post("/api/runAction", wrong));
    assertThat(refused.path("error").path("code").asInt()).isEqualTo(9);
  }

  @Test
  void theContextsAuthObjectIsTheRunsAuthAndTheTraceShowsTheContextWithSecretsRedacted() {
    // The Dev UI's context is Genkit's action context: actions read context.auth.
    ObjectNode body = run("/flow/whoAmI", "x");
    ObjectNode context = body.putObject("context").put("env", "test");
    context.putObject("auth").put("principal", "alice").put("uid", "u1").putNull("gone");
    context.putObject("secrets").put("apiKey", "k");
    body.putObject("telemetryLabels").put("genkitx:origin", "dev-ui");
    JsonNode answer = client.json(client.post("/api/runAction", body));
    assertThat(answer.path("result").asString()).isEqualTo("{principal=alice, uid=u1} as alice");

    SpanData root = rootSpan("whoAmI");
    assertThat(root.getAttributes().get(AttributeKey.stringKey("genkitx:origin")))
        .isEqualTo("dev-ui");
    assertThat(tracedContext(root))
        .isEqualTo(
            Json.object()
                .put("env", "test")
                .put("auth", "<redacted>")
                .put("secrets", "<redacted>"));
  }

  @Test
  void aContextWithoutAnAuthObjectIsTheAuthItselfAndIsRedactedWhole() {
    ObjectNode flat = run("/flow/whoAmI", "flat");
    flat.putObject("context").put("principal", "bob").put("token", "t0");
    JsonNode flatAnswer = client.json(client.post("/api/runAction", flat));
    assertThat(flatAnswer.path("result").asString()).isEqualTo("{principal=bob, token=t0} as bob");
    assertThat(tracedContext(flatAnswer))
        .isEqualTo(Json.object().put("principal", "<redacted>").put("token", "<redacted>"));

    ObjectNode notAnObject = run("/flow/whoAmI", "string");
    notAnObject.putObject("context").put("auth", "bearer t1");
    JsonNode stringAnswer = client.json(client.post("/api/runAction", notAnObject));
    assertThat(stringAnswer.path("result").asString()).isEqualTo("{auth=bearer t1} as nobody");
    assertThat(tracedContext(stringAnswer)).isEqualTo(Json.object().put("auth", "<redacted>"));
  }

  /** The recorded context of the run that gave this answer. */
  private JsonNode tracedContext(JsonNode answer) {
    String traceId = answer.path("telemetry").path("traceId").asString();
    telemetry.flush(Duration.ofSeconds(10));
    SpanData root =
        spans.getFinishedSpanItems().stream()
            .filter(s -> s.getTraceId().equals(traceId) && !s.getParentSpanContext().isValid())
            .findFirst()
            .orElseThrow();
    return tracedContext(root);
  }

  private static JsonNode tracedContext(SpanData span) {
    return Json.parse(span.getAttributes().get(AttributeKey.stringKey("genkit:metadata:context")));
  }

  @Test
  void notifyAndUnknownRoutes() {
    HttpResponse<String> notified =
        client.post(
            "/api/notify",
            Json.object()
                .put("telemetryServerUrl", "http://127.0.0.1:1")
                .put("reflectionApiSpecVersion", 1));
    assertThat(notified.statusCode()).isEqualTo(200);
    assertThat(notified.body()).isEqualTo("OK");
    assertThat(client.get("/api/nothing").statusCode()).isEqualTo(404);
    assertThat(client.json(client.get("/api/envs")).path(0).asString()).isEqualTo("dev");
  }

  @Test
  void aPostWhoseBodyIsNotJsonIsRefusedAsGenkitJsIgnoresItSoAWebPageCannotRunActions() {
    String body = Json.write(run("/flow/sideEffect", "x"));
    // The content types a web page may POST without a CORS preflight, and none at all.
    List<String> types =
        List.of(
            "text/plain",
            "text/plain;charset=UTF-8",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x");
    for (String type : types) {
      HttpResponse<String> refused = client.post("/api/runAction", type, body);
      assertThat(refused.statusCode()).as(type).isEqualTo(415);
      JsonNode error = client.json(refused);
      assertThat(error.path("code").asInt()).isEqualTo(3);
      assertThat(error.path("message").asString())
          .isEqualTo("INVALID_ARGUMENT: the request body must be sent as application/json");
      assertThat(error.path("details").isObject()).isTrue();
    }
    assertThat(client.post("/api/runAction", null, body).statusCode()).isEqualTo(415);
    String cancel = Json.write(Json.object().put("traceId", "0af7651916cd43dd8448eb211c80319c"));
    assertThat(client.post("/api/cancelAction", "text/plain", cancel).statusCode()).isEqualTo(415);
    String notify = Json.write(Json.object().put("telemetryServerUrl", "http://127.0.0.1:1"));
    assertThat(client.post("/api/notify", "text/plain", notify).statusCode()).isEqualTo(415);
    assertThat(sideEffects).hasValue(0);

    HttpResponse<String> json =
        client.post("/api/runAction", "Application/JSON; charset=utf-8", body);
    assertThat(client.json(json).path("result").asString()).isEqualTo("run 1");
  }

  @Test
  void onlyRequestsAddressedToALoopbackNameAreServedSoDnsRebindingFails() {
    int port = devTools.url().orElseThrow().getPort();
    for (String host :
        List.of("localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "LocalHost", "[::1]")) {
      assertThat(client.raw(get("/api/actions", "Host: " + host))).as(host).isEqualTo(200);
    }
    for (String host :
        List.of(
            "attacker.example:" + port,
            "attacker.example",
            "localhost.attacker.example:" + port,
            "127.0.0.1.nip.io:" + port,
            "localhost:" + port + "@attacker.example",
            "")) {
      assertThat(client.raw(get("/api/actions", "Host: " + host))).as(host).isEqualTo(403);
    }
    // HTTP/1.0 allows leaving Host out; a request without one is refused too.
    assertThat(client.raw("GET /api/actions HTTP/1.0\r\n\r\n")).isEqualTo(403);

    String body = Json.write(run("/flow/sideEffect", "x"));
    String rebound =
        "POST /api/runAction HTTP/1.1\r\nHost: attacker.example:%d\r\nContent-Type:"
            + " application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s";
    assertThat(client.raw(rebound.formatted(port, body.length(), body))).isEqualTo(403);
    assertThat(sideEffects).hasValue(0);
  }

  private static String get(String path, String hostHeader) {
    return "GET " + path + " HTTP/1.1\r\n" + hostHeader + "\r\nConnection: close\r\n\r\n";
  }

  private SpanData rootSpan(String name) {
    telemetry.flush(Duration.ofSeconds(10));
    return spans.getFinishedSpanItems().stream()
        .filter(s -> s.getName().equals(name) && !s.getParentSpanContext().isValid())
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError("no root span " + name + " in " + spans.getFinishedSpanItems()));
  }

  private List<Path> runtimeFiles() throws Exception {
    Path dir = project.resolve(".genkit/runtimes");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var listing = Files.list(dir)) {
      return listing.toList();
    }
  }

  private static ObjectNode run(String key, Object input) {
    ObjectNode body = Json.object().put("key", key);
    body.set("input", Json.toTree(input));
    return body;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
