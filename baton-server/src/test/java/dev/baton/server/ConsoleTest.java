package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentUsage;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SessionPage;
import dev.baton.agent.SessionQuery;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionState;
import dev.baton.agent.SessionStore;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRequest;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.middleware.agents.Agents;
import dev.baton.server.ConsoleHttp.Answer;
import dev.baton.server.ConsoleHttp.Events;
import dev.baton.testing.ForwardingSessionStore;
import dev.baton.testing.ProgrammableModel;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The task console's HTTP API on the Jetty binding: each route's answer, the principal rules of the
 * agent routes, the loopback rule without a context provider, the cross-site checks of the abort,
 * live status events, and clear errors that leak nothing internal.
 */
class ConsoleTest {
  private static final Duration HEARTBEAT_TIMEOUT = Duration.ofMillis(500);

  @AutoClose final ServedBaton served = new ServedBaton();
  final InMemorySessionStore store = InMemorySessionStore.create();

  private Agent helper() {
    return served.agent(
        "helper",
        AgentOptions.builder()
            .sessionStore(store)
            .heartbeat(Duration.ofMillis(100), HEARTBEAT_TIMEOUT)
            .build());
  }

  private ServedBaton serve() {
    return served.start(b -> b.console("/console"));
  }

  private URI url(String path) {
    return served.url("/console" + path);
  }

  private static ModelResponse say(String text, int inputTokens) {
    return ModelResponse.of(Message.model(text), FinishReason.STOP)
        .withUsage(GenerationUsage.builder().inputTokens(inputTokens).outputTokens(2).build());
  }

  private static ModelResponse call(String tool, JsonNode input) {
    return ModelResponse.of(
        new Message(Role.MODEL, List.of(Part.toolRequest(tool, "r1", input))), FinishReason.STOP);
  }

  /** The outputs of the tool responses a model request carries, oldest first. */
  private static List<JsonNode> toolOutputs(ModelRequest request) {
    return request.messages().stream()
        .flatMap(message -> message.toolResponses().stream())
        .map(part -> part.toolResponse().output())
        .filter(java.util.Objects::nonNull)
        .toList();
  }

  private ActionContext as(String principal) {
    return ActionContext.root(served.baton.registry())
        .withAuth(Map.of(ActionContext.PRINCIPAL, principal));
  }

  /** Starts a detached run whose model call waits for {@code release}: its row stays pending. */
  private AgentOutput detachBlocked(Agent agent, ActionContext context, CountDownLatch release) {
    served.model.step().blockUntil(release).respondText("done at last");
    AgentOutput pending =
        agent.run(
            context,
            AgentInput.text("take your time").withDetach(true),
            AgentInit.NEW,
            StreamCallback.discard());
    assertThat(pending.snapshotId()).isNotNull();
    return pending;
  }

  private String csrfToken() {
    return ConsoleHttp.get(url("/api/info")).json().get("csrfToken").asString();
  }

  @Test
  void infoNamesTheAgentsWithSessionsAndSaysTheConsoleIsLoopbackOnly() {
    helper();
    served.agent("stateless", AgentOptions.DEFAULTS);
    serve();

    Answer info = ConsoleHttp.get(url("/api/info"));

    assertThat(info.status()).isEqualTo(200);
    assertThat(info.header("Content-Type")).startsWith("application/json");
    assertThat(info.header("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(info.header("Cache-Control")).isEqualTo("no-store");
    assertThat(info.json().get("principal").isNull()).isTrue();
    assertThat(info.json().get("loopbackOnly").asBoolean()).isTrue();
    assertThat(info.json().get("csrfToken").asString()).hasSizeGreaterThan(20);
    assertThat(info.json().get("agents")).isEqualTo(Json.toTree(List.of("helper")));
  }

  @Test
  void theSessionsListIsNewestFirstWithStatusTurnsAndSpendInPages() {
    Agent helper = helper();
    serve();
    served.model.respond(say("one", 10), say("two", 20), say("two again", 30));
    AgentOutput first = helper.runText("first");
    AgentOutput second = helper.runText("second");
    helper.runText("again", AgentInit.ofSnapshot(second.snapshotId()));
    served.model.step().fail(BatonException.of(Status.UNAVAILABLE, "the model is down"));
    AgentOutput failed = helper.runText("third");
    assertThat(failed.isFailed()).isTrue();

    JsonNode page = ConsoleHttp.get(url("/api/sessions?limit=2")).json();

    assertThat(page.get("sessions")).hasSize(2);
    JsonNode newest = page.at("/sessions/0");
    assertThat(newest.get("agent").asString()).isEqualTo("helper");
    assertThat(newest.get("sessionId").asString()).isEqualTo(failed.sessionId());
    assertThat(newest.get("status").asString()).isEqualTo("failed");
    assertThat(newest.at("/error/status").asString()).isEqualTo("UNAVAILABLE");
    JsonNode continued = page.at("/sessions/1");
    assertThat(continued.get("sessionId").asString()).isEqualTo(second.sessionId());
    assertThat(continued.get("status").asString()).isEqualTo("completed");
    assertThat(continued.get("turns").asInt()).isEqualTo(2);
    assertThat(continued.at("/spend/inputTokens").asInt()).isEqualTo(50);
    assertThat(continued.at("/spend/totalTokens").asInt()).isEqualTo(54);
    assertThat(Instant.parse(continued.get("updatedAt").asString()))
        .isAfterOrEqualTo(Instant.parse(continued.get("createdAt").asString()));

    String token = page.get("nextPageToken").asString();
    JsonNode last = ConsoleHttp.get(url("/api/sessions?limit=2&pageToken=" + token)).json();
    assertThat(last.get("sessions")).hasSize(1);
    assertThat(last.at("/sessions/0/sessionId").asString()).isEqualTo(first.sessionId());
    assertThat(last.get("nextPageToken").isNull()).isTrue();

    JsonNode failedOnly = ConsoleHttp.get(url("/api/sessions?status=failed&agent=helper")).json();
    assertThat(failedOnly.get("sessions")).hasSize(1);
    assertThat(failedOnly.at("/sessions/0/sessionId").asString()).isEqualTo(failed.sessionId());
  }

  @Test
  void aSessionIsItsChainOfSnapshotsAndASnapshotHasItsConversation() {
    Agent helper = helper();
    serve();
    served.model.respond(say("hello", 10), say("<script>alert(1)</script>", 20));
    AgentOutput first = helper.runText("hi");
    AgentOutput second = helper.runText("more", AgentInit.ofSnapshot(first.snapshotId()));

    JsonNode chain =
        ConsoleHttp.get(url("/api/agents/helper/sessions/" + second.sessionId())).json();

    assertThat(chain.get("agent").asString()).isEqualTo("helper");
    assertThat(chain.get("snapshots")).hasSize(2);
    assertThat(chain.at("/snapshots/0/snapshotId").asString()).isEqualTo(first.snapshotId());
    assertThat(chain.at("/snapshots/0/parentId").isNull()).isTrue();
    assertThat(chain.at("/snapshots/1/parentId").asString()).isEqualTo(first.snapshotId());
    assertThat(chain.at("/snapshots/1/status").asString()).isEqualTo("completed");
    assertThat(chain.at("/snapshots/1/expired").asBoolean()).isFalse();
    assertThat(chain.at("/snapshots/1/spend/inputTokens").asInt()).isEqualTo(30);
    assertThat(chain.at("/snapshots/1").has("messages")).isFalse();

    JsonNode snapshot =
        ConsoleHttp.get(url("/api/agents/helper/snapshots/" + second.snapshotId())).json();

    assertThat(snapshot.get("snapshotId").asString()).isEqualTo(second.snapshotId());
    assertThat(snapshot.get("sessionId").asString()).isEqualTo(second.sessionId());
    assertThat(snapshot.get("messages")).hasSize(4);
    assertThat(snapshot.at("/messages/3/content/0/text").asString())
        .isEqualTo("<script>alert(1)</script>");
    assertThat(snapshot.get("artifacts")).isEmpty();
    assertThat(snapshot.get("custom").isNull()).isTrue();
  }

  @Test
  void aSessionWithABranchShowsBothBranchesFromOneReadOfItsRowsWithoutConversations() {
    AtomicInteger rowReads = new AtomicInteger();
    SessionStore counting =
        new ForwardingSessionStore(store) {
          @Override
          public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
            rowReads.incrementAndGet();
            return super.getSnapshot(context, snapshotId);
          }
        };
    Agent helper = served.agent("helper", AgentOptions.builder().sessionStore(counting).build());
    serve();
    served.model.respond(say("root", 10), say("left", 20), say("right", 30));
    AgentOutput root = helper.runText("hi");
    AgentOutput left = helper.runText("go left", AgentInit.ofSnapshot(root.snapshotId()));
    AgentOutput right = helper.runText("go right", AgentInit.ofSnapshot(root.snapshotId()));
    rowReads.set(0);

    JsonNode session =
        ConsoleHttp.get(url("/api/agents/helper/sessions/" + root.sessionId())).json();

    assertThat(session.get("snapshots"))
        .extracting(row -> row.get("snapshotId").asString())
        .containsExactly(root.snapshotId(), left.snapshotId(), right.snapshotId());
    assertThat(session.at("/snapshots/1/parentId").asString()).isEqualTo(root.snapshotId());
    assertThat(session.at("/snapshots/2/parentId").asString()).isEqualTo(root.snapshotId());
    assertThat(session.at("/snapshots/2/spend/inputTokens").asInt())
        .as("each row keeps its usage")
        .isEqualTo(40);
    assertThat(rowReads.get()).as("no row is read whole").isZero();
    JsonNode listed = ConsoleHttp.get(url("/api/sessions")).json();
    assertThat(listed.at("/sessions/0/turns").asInt())
        .as("the list counts the rows the session view shows")
        .isEqualTo(session.get("snapshots").size());
  }

  @Test
  void theDelegationTreeOfACoordinatorShowsItsTwoBackgroundTasks() {
    Agent worker = helper();
    Agent coordinator =
        served.baton.defineAgent(
            "coordinator",
            InlinePrompt.builder()
                .model("model")
                .use(Agents.builder().agents(worker.ref()).async(true).build())
                .maxTurns(10)
                .build(),
            AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
    serve();
    List<String> taskIds = new java.util.concurrent.CopyOnWriteArrayList<>();
    // One model for both agents: the coordinator's calls offer its tools, the worker's none.
    served.model.fallback(
        request -> {
          if (request.tools().isEmpty()) {
            return say("worked on " + ProgrammableModel.lastUserText(request), 5);
          }
          List<JsonNode> outputs = toolOutputs(request);
          outputs.forEach(
              output -> {
                if (output.has("taskId") && !taskIds.contains(output.get("taskId").asString())) {
                  taskIds.add(output.get("taskId").asString());
                }
              });
          return switch (outputs.size()) {
            case 0 ->
                call(
                    "delegate_to_helper",
                    Json.object().put("task", "left").put("background", true));
            case 1 ->
                call(
                    "delegate_to_helper",
                    Json.object().put("task", "right").put("background", true));
            case 2 ->
                call(
                    "wait_for_background_tasks",
                    Json.object().set("taskIds", Json.toTree(taskIds)));
            default -> say("both done", 1);
          };
        });
    AgentOutput turn = coordinator.runText("split the work");

    JsonNode tree =
        ConsoleHttp.get(
                url("/api/agents/coordinator/snapshots/" + turn.snapshotId() + "/delegations"))
            .json();

    assertThat(tree.get("taskId").asString()).isEqualTo("coordinator:" + turn.snapshotId());
    assertThat(tree.get("agent").asString()).isEqualTo("coordinator");
    assertThat(tree.get("children")).hasSize(2);
    for (int i = 0; i < 2; i++) {
      JsonNode task = tree.get("children").get(i);
      assertThat(task.get("taskId").asString()).isEqualTo(taskIds.get(i));
      assertThat(task.get("agent").asString()).isEqualTo("helper");
      assertThat(task.get("background").asBoolean()).isTrue();
      assertThat(task.get("status").asString()).isEqualTo("completed");
      assertThat(task.at("/spend/inputTokens").asInt()).isEqualTo(5);
      assertThat(task.get("durationMs").asLong()).isNotNegative();
      assertThat(task.get("remoteUrl").isNull()).isTrue();
      assertThat(task.get("children")).isEmpty();
    }
  }

  /** A coordinator that delegates to {@code helper} on the programmable model. */
  private Agent coordinator(Agent helper, boolean async, boolean usageTree) {
    return served.baton.defineAgent(
        "coordinator",
        InlinePrompt.builder()
            .model("model")
            .use(Agents.builder().agents(helper.ref()).async(async).build())
            .maxTurns(10)
            .build(),
        AgentOptions.builder()
            .sessionStore(InMemorySessionStore.create())
            .usageTree(usageTree)
            .build());
  }

  private JsonNode snapshotView(String agent, String snapshotId) {
    return ConsoleHttp.get(url("/api/agents/" + agent + "/snapshots/" + snapshotId)).json();
  }

  private JsonNode delegations(String agent, String snapshotId) {
    return ConsoleHttp.get(
            url("/api/agents/" + agent + "/snapshots/" + snapshotId + "/delegations"))
        .json();
  }

  private static GenerationUsage tokens(int input, int output) {
    return GenerationUsage.builder().inputTokens(input).outputTokens(output).build();
  }

  @Test
  void aSessionsSpendAddsUpTheTurnsOfItsOwnLineByAgentAndATurnsRootSpendsWhatItsTreeSays() {
    Agent helper = helper();
    Agent coordinator = coordinator(helper, false, true);
    serve();
    // Each turn: the coordinator calls the helper (7 in, 2 out), the helper answers (5 in, 2
    // out), the coordinator answers (3 in, 2 out): 21 tokens, 14 of them the coordinator's.
    served.model.fallback(
        request -> {
          if (request.tools().isEmpty()) {
            return say("helped", 5);
          }
          if (request.messages().getLast().role() == Role.TOOL) {
            return say("done", 3);
          }
          return ModelResponse.of(
                  new Message(
                      Role.MODEL,
                      List.of(
                          Part.toolRequest(
                              "delegate_to_helper", "d1", Json.object().put("task", "help")))),
                  FinishReason.STOP)
              .withUsage(tokens(7, 2));
        });
    AgentOutput first = coordinator.runText("one");
    AgentOutput second = coordinator.runText("two", AgentInit.ofSnapshot(first.snapshotId()));
    AgentOutput branch = coordinator.runText("again", AgentInit.ofSnapshot(first.snapshotId()));

    JsonNode view = snapshotView("coordinator", second.snapshotId());

    JsonNode session = view.get("sessionSpend");
    assertThat(session.get("turns").asInt()).isEqualTo(2);
    assertThat(session.at("/total/totalTokens").asInt()).isEqualTo(42);
    assertThat(session.at("/byAgent/0/agent").asString()).isEqualTo("coordinator");
    assertThat(session.at("/byAgent/0/calls").asInt()).isEqualTo(4);
    assertThat(session.at("/byAgent/0/inputTokens").asInt()).isEqualTo(20);
    assertThat(session.at("/byAgent/0/totalTokens").asInt()).isEqualTo(28);
    assertThat(session.at("/byAgent/1/agent").asString()).isEqualTo("helper");
    assertThat(session.at("/byAgent/1/calls").asInt()).isEqualTo(2);
    assertThat(session.at("/byAgent/1/totalTokens").asInt()).isEqualTo(14);
    assertThat(session.at("/byAgent/0/totalTokens"))
        .as("the agent's own row is the session spend of its row, its own calls")
        .isEqualTo(view.at("/spend/totalTokens"));
    assertThat(session.get("byModel"))
        .as("the same calls by agent and the model that made them")
        .isEqualTo(
            Json.parse(
                """
                [{"agent": "coordinator", "model": "model",
                  "inputTokens": 20, "outputTokens": 8, "totalTokens": 28},
                 {"agent": "helper", "model": "model",
                  "inputTokens": 10, "outputTokens": 4, "totalTokens": 14}]
                """));
    assertThat(view.at("/turnSpend/byModel"))
        .extracting(row -> row.get("agent").asString() + "/" + row.get("model").asString())
        .containsExactly("coordinator/model", "helper/model");
    assertThat(view.at("/turnSpend/byModel/0/totalTokens").asInt()).isEqualTo(14);
    assertThat(view.at("/turnSpend/total/totalTokens").asInt()).isEqualTo(21);
    assertThat(view.at("/usage/total/inputTokens").asInt()).isEqualTo(15);
    assertThat(snapshotView("coordinator", branch.snapshotId()).at("/sessionSpend/turns").asInt())
        .as("a branch counts its own line, not the turn beside it")
        .isEqualTo(2);

    JsonNode tree = delegations("coordinator", second.snapshotId());

    assertThat(tree.get("spend"))
        .as("the root spends this turn")
        .isEqualTo(view.at("/turnSpend/total"));
    assertThat(tree.get("durationMs").isNull())
        .as("a row written once, at the turn's end, does not say how long the turn took")
        .isTrue();
    assertThat(tree.at("/children/0/spend/totalTokens").asInt()).isEqualTo(7);
  }

  @Test
  void aTreeRecordedBeforeTreesNamedTheirModelsShowsItsCallsWithNoModel() {
    helper();
    serve();
    // A row an older Baton wrote: its tree has calls but no models.
    JsonNode tree =
        Json.parse(
            """
            {"agent": "helper", "sessionId": "old", "finishReason": "stop",
             "calls": [{"inputTokens": 5, "outputTokens": 2}], "children": []}
            """);
    Message answer =
        Message.model("done").withMetadata(Json.object().set(AgentUsage.METADATA_KEY, tree));
    SessionState state =
        SessionState.empty()
            .withSessionId("old")
            .withMessages(List.of(Message.user("hi"), answer))
            .withUsage(tokens(5, 2));
    store.saveSnapshot(
        ActionContext.root(served.baton.registry()),
        "before",
        existing ->
            SessionSnapshot.completed(
                "before", "old", null, Instant.now(), AgentFinishReason.STOP, state));

    JsonNode view = snapshotView("helper", "before");

    assertThat(view.at("/usage/models")).isEqualTo(Json.object());
    assertThat(view.at("/sessionSpend/byAgent/0/totalTokens").asInt()).isEqualTo(7);
    assertThat(view.at("/sessionSpend/byModel"))
        .as("its calls still count, with no model named")
        .isEqualTo(
            Json.parse(
                """
                [{"agent": "helper", "model": null,
                  "inputTokens": 5, "outputTokens": 2, "totalTokens": 7}]
                """));
  }

  @Test
  void aTaskTheTurnsTreeRecordedRunningShowsItsStatusNow() {
    ProgrammableModel helperModel =
        ProgrammableModel.define(served.baton.registry(), "helper-model");
    Agent helper =
        served.baton.defineAgent(
            "helper",
            InlinePrompt.builder().model("helper-model").build(),
            AgentOptions.builder().sessionStore(store).build());
    Agent coordinator = coordinator(helper, true, true);
    serve();
    CountDownLatch turnEnded = new CountDownLatch(1);
    helperModel.step().blockUntil(turnEnded).respond(say("found it", 40));
    served.model.respond(
        call("delegate_to_helper", Json.object().put("task", "look").put("background", true)),
        say("it runs", 3));
    AgentOutput turn = coordinator.runText("start it");
    turnEnded.countDown();
    String taskId =
        delegations("coordinator", turn.snapshotId()).at("/children/0/taskId").asString();
    helper.snapshots().waitFor(taskId.substring("helper:".length()));

    JsonNode task = snapshotView("coordinator", turn.snapshotId()).at("/usage/children/0");

    assertThat(task.get("agent").asString()).isEqualTo("helper");
    assertThat(task.has("finishReason")).as("recorded while it ran").isFalse();
    assertThat(task.get("status").asString()).isEqualTo("completed");
    assertThat(
            delegations("coordinator", turn.snapshotId()).at("/children/0/durationMs").isNumber())
        .as("a detached run's row was written at its start and its end")
        .isTrue();
  }

  @Test
  void aContinuationOfABackgroundTaskShowsUnderTheTask() {
    Agent helper = helper();
    Agent coordinator = coordinator(helper, true, false);
    serve();
    List<String> taskIds = new java.util.concurrent.CopyOnWriteArrayList<>();
    served.model.fallback(
        request -> {
          if (request.tools().isEmpty()) {
            return say("worked on " + ProgrammableModel.lastUserText(request), 5);
          }
          List<JsonNode> outputs = toolOutputs(request);
          outputs.forEach(
              output -> {
                if (output.has("taskId") && !taskIds.contains(output.get("taskId").asString())) {
                  taskIds.add(output.get("taskId").asString());
                }
              });
          return switch (outputs.size()) {
            case 0 ->
                call(
                    "delegate_to_helper",
                    Json.object().put("task", "draft").put("background", true));
            case 1 ->
                call(
                    "wait_for_background_tasks",
                    Json.object().set("taskIds", Json.toTree(taskIds)));
            case 2 ->
                call(
                    "continue_task",
                    Json.object().put("taskId", taskIds.getFirst()).put("instructions", "polish"));
            default -> say("polished", 1);
          };
        });
    AgentOutput turn = coordinator.runText("draft and polish");

    JsonNode tree = delegations("coordinator", turn.snapshotId());

    assertThat(taskIds).hasSize(2);
    assertThat(tree.get("children")).hasSize(1);
    JsonNode task = tree.at("/children/0");
    assertThat(task.get("taskId").asString()).isEqualTo(taskIds.get(0));
    assertThat(task.get("background").asBoolean()).isTrue();
    assertThat(task.get("children")).hasSize(1);
    JsonNode continuation = task.at("/children/0");
    assertThat(continuation.get("taskId").asString()).isEqualTo(taskIds.get(1));
    assertThat(continuation.get("status").asString()).isEqualTo("completed");
    assertThat(continuation.get("background").asBoolean()).isFalse();
    assertThat(continuation.at("/spend/inputTokens").asInt())
        .as("the continuation's own turn, not the task's session")
        .isEqualTo(5);
  }

  @Test
  void aRemoteSubAgentIsALeafWithItsServersUrlWithoutUserInfoOrQuery() {
    try (ServedBaton remote = new ServedBaton()) {
      remote.agent("researcher", AgentOptions.builder().sessionStore(store).build());
      remote.start();
      remote.model.respond(say("remote answer", 9));
      URI researcherUrl = remote.url("/agents/researcher");
      Agent researcher =
          served.baton.defineRemoteAgent(
              "researcher",
              URI.create(
                  "http://user:secret@"
                      + researcherUrl.getAuthority()
                      + researcherUrl.getPath()
                      + "?key=secret"),
              RemoteAgentOptions.builder().stateManagement(StateManagement.SERVER).build());
      Agent coordinator = coordinator(researcher, false, false);
      serve();
      served.model.respond(
          call("delegate_to_researcher", Json.object().put("task", "look it up")),
          say("it answered", 3));
      AgentOutput turn = coordinator.runText("ask the researcher");

      JsonNode tree = delegations("coordinator", turn.snapshotId());

      assertThat(tree.get("children")).hasSize(1);
      JsonNode leaf = tree.at("/children/0");
      assertThat(leaf.get("agent").asString()).isEqualTo("researcher");
      assertThat(leaf.get("taskId").asString()).startsWith("researcher:");
      assertThat(leaf.get("status").asString()).isEqualTo("completed");
      assertThat(leaf.get("remoteUrl").asString())
          .isEqualTo("http://" + researcherUrl.getAuthority() + "/agents/researcher");
      assertThat(leaf.get("spend").isNull()).isTrue();
      assertThat(leaf.get("children")).isEmpty();
    }
  }

  @Test
  void theEventStreamSendsADetachedRunPendingAndThenCompleted() {
    Agent helper = helper();
    serve();
    CountDownLatch release = new CountDownLatch(1);
    try (Events events = new Events(url("/api/events"))) {
      AgentOutput pending =
          detachBlocked(helper, ActionContext.root(served.baton.registry()), release);

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> events.sent(pending.snapshotId(), "pending"));
      release.countDown();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> events.sent(pending.snapshotId(), "completed"));
    }
  }

  @Test
  void theEventStreamSendsATaskExpiredWhenItsHeartbeatLapses() {
    helper();
    serve();
    // A pending row no worker beats for: its worker died.
    ActionContext root = ActionContext.root(served.baton.registry());
    store.saveSnapshot(
        root, "orphan", existing -> SessionSnapshot.pending("orphan", "lost", null, Instant.now()));
    try (Events events = new Events(url("/api/events"))) {
      await().atMost(Duration.ofSeconds(10)).until(() -> events.sent("orphan", "expired"));
    }
    JsonNode chain = ConsoleHttp.get(url("/api/agents/helper/sessions/lost")).json();
    assertThat(chain.at("/snapshots/0/status").asString()).isEqualTo("expired");
    assertThat(chain.at("/snapshots/0/expired").asBoolean()).isTrue();
  }

  @Test
  void theAbortStopsAPendingTaskWhichSettlesAborted() {
    Agent helper = helper();
    serve();
    AgentOutput pending =
        detachBlocked(helper, ActionContext.root(served.baton.registry()), new CountDownLatch(1));
    URI abort = url("/api/agents/helper/snapshots/" + pending.snapshotId() + "/abort");

    Answer answer =
        ConsoleHttp.post(
            abort,
            "",
            "X-Baton-Console-Token",
            csrfToken(),
            "Origin",
            "http://" + served.server().uri().getAuthority(),
            "Sec-Fetch-Site",
            "same-origin");

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().get("snapshotId").asString()).isEqualTo(pending.snapshotId());
    // The worker may not have saved yet: the row is shaped as the other routes shape it.
    assertThat(answer.json().get("status").asString()).isIn("aborting", "aborted");
    URI snapshot = url("/api/agents/helper/snapshots/" + pending.snapshotId());
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> ConsoleHttp.get(snapshot).json().get("status").asString().equals("aborted"));
  }

  @Test
  void anAbortThatMayComeFromAnotherSiteIsRefused() {
    Agent helper = helper();
    serve();
    CountDownLatch release = new CountDownLatch(1);
    AgentOutput pending =
        detachBlocked(helper, ActionContext.root(served.baton.registry()), release);
    URI abort = url("/api/agents/helper/snapshots/" + pending.snapshotId() + "/abort");
    String token = csrfToken();

    List<Answer> refused =
        List.of(
            // A cross-site form post: no token.
            ConsoleHttp.post(
                abort,
                "confirm=yes",
                "Content-Type",
                "application/x-www-form-urlencoded",
                "Origin",
                "https://evil.example",
                "Sec-Fetch-Site",
                "cross-site"),
            ConsoleHttp.post(abort, "", "X-Baton-Console-Token", "forged"),
            ConsoleHttp.post(
                abort, "", "X-Baton-Console-Token", token, "Origin", "https://evil.example"),
            ConsoleHttp.post(
                abort, "", "X-Baton-Console-Token", token, "Sec-Fetch-Site", "cross-site"));

    assertThat(refused)
        .allSatisfy(
            answer -> {
              assertThat(answer.status()).isEqualTo(403);
              assertThat(answer.errorStatus()).isEqualTo("PERMISSION_DENIED");
            });
    assertThat(helper.snapshots().get(pending.snapshotId()).status().wireName())
        .isEqualTo("pending");
    release.countDown();
  }

  /** Signs a caller in by {@code Authorization: Bearer token-<name>}, or else by a cookie. */
  private static final ContextProvider BEARER_OR_COOKIE =
      request -> {
        String authorization = request.headers().get("authorization");
        if (authorization != null && authorization.startsWith("Bearer token-")) {
          return Map.of(ActionContext.PRINCIPAL, authorization.substring(13));
        }
        String cookie = request.headers().get("cookie");
        if (cookie != null && cookie.startsWith("user=")) {
          return Map.of(ActionContext.PRINCIPAL, cookie.substring(5));
        }
        throw BatonException.of(Status.UNAUTHENTICATED, "sign in");
      };

  @Test
  void anAbortNeedsTheTokenOfItsOwnPrincipalAndABearerSkipsOnlyTheToken() {
    Agent helper = helper();
    served.start(b -> b.console("/console").contextProvider(BEARER_OR_COOKIE));
    AgentOutput pending = detachBlocked(helper, as("alice"), new CountDownLatch(1));
    URI abort = url("/api/agents/helper/snapshots/" + pending.snapshotId() + "/abort");
    String alicesToken =
        ConsoleHttp.get(url("/api/info"), "Cookie", "user=alice")
            .json()
            .get("csrfToken")
            .asString();

    List<Answer> refused =
        List.of(
            // Alice's token is not Bob's.
            ConsoleHttp.post(abort, "", "Cookie", "user=bob", "X-Baton-Console-Token", alicesToken),
            // A bearer credential still comes from the console's own origin only.
            ConsoleHttp.post(
                abort, "", "Authorization", "Bearer token-alice", "Origin", "https://evil.example"),
            ConsoleHttp.post(
                abort, "", "Authorization", "Bearer token-alice", "Sec-Fetch-Site", "cross-site"),
            // A bearer header the principal does not come from stands in for nothing.
            ConsoleHttp.post(
                abort, "", "Cookie", "user=alice", "Authorization", "Bearer not-a-token"));
    assertThat(refused)
        .allSatisfy(
            answer -> {
              assertThat(answer.status()).isEqualTo(403);
              assertThat(answer.errorStatus()).isEqualTo("PERMISSION_DENIED");
            });
    assertThat(helper.snapshots(as("alice")).get(pending.snapshotId()).status().wireName())
        .isEqualTo("pending");

    Answer byBearer =
        ConsoleHttp.post(
            abort, "", "Authorization", "Bearer token-alice", "Sec-Fetch-Site", "same-origin");
    assertThat(byBearer.status()).isEqualTo(200);
    assertThat(byBearer.json().get("status").asString()).isIn("aborting", "aborted");
  }

  @Test
  void eachEventStreamSendsOnlyTheTasksOfItsOwnPrincipal() {
    Agent helper = helper();
    served.start(b -> b.console("/console").contextProvider(BEARER_OR_COOKIE));
    CountDownLatch release = new CountDownLatch(1);
    try (Events alices = new Events(url("/api/events"), "Authorization", "Bearer token-alice");
        Events alicesOtherTab = new Events(url("/api/events"), "Cookie", "user=alice");
        Events bobs = new Events(url("/api/events"), "Authorization", "Bearer token-bob")) {
      AgentOutput alicesTask = detachBlocked(helper, as("alice"), release);
      AgentOutput bobsTask = detachBlocked(helper, as("bob"), release);

      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> alices.snapshotIds().contains(alicesTask.snapshotId()));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> alicesOtherTab.snapshotIds().contains(alicesTask.snapshotId()));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> bobs.snapshotIds().contains(bobsTask.snapshotId()));
      release.countDown();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> bobs.sent(bobsTask.snapshotId(), "completed"));
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> alices.sent(alicesTask.snapshotId(), "completed"));

      assertThat(alices.snapshotIds()).doesNotContain(bobsTask.snapshotId());
      assertThat(alicesOtherTab.snapshotIds()).doesNotContain(bobsTask.snapshotId());
      assertThat(bobs.snapshotIds()).doesNotContain(alicesTask.snapshotId());
    }
  }

  @Test
  void aPrincipalSeesOnlyItsOwnSessionsAndAnothersAnswerNotFound() {
    Agent helper = helper();
    served.start(
        b ->
            b.console("/console")
                .contextProvider(
                    ContextProviders.bearerToken(
                        token -> Map.of(ActionContext.PRINCIPAL, token.replace("token-", "")))));
    served.model.respond(say("for alice", 1), say("for bob", 1));
    AgentOutput alices =
        helper.run(as("alice"), AgentInput.text("mine"), AgentInit.NEW, StreamCallback.discard());
    AgentOutput bobs =
        helper.run(as("bob"), AgentInput.text("mine"), AgentInit.NEW, StreamCallback.discard());
    String[] alice = {"Authorization", "Bearer token-alice"};

    JsonNode info = ConsoleHttp.get(url("/api/info"), alice).json();
    assertThat(info.get("principal").asString()).isEqualTo("alice");
    assertThat(info.get("loopbackOnly").asBoolean()).isFalse();
    JsonNode listed = ConsoleHttp.get(url("/api/sessions"), alice).json();
    assertThat(listed.get("sessions")).hasSize(1);
    assertThat(listed.at("/sessions/0/sessionId").asString()).isEqualTo(alices.sessionId());
    assertThat(
            ConsoleHttp.get(url("/api/agents/helper/snapshots/" + alices.snapshotId()), alice)
                .status())
        .isEqualTo(200);

    for (String path :
        List.of(
            "/api/agents/helper/sessions/" + bobs.sessionId(),
            "/api/agents/helper/snapshots/" + bobs.snapshotId(),
            "/api/agents/helper/snapshots/" + bobs.snapshotId() + "/delegations")) {
      Answer answer = ConsoleHttp.get(url(path), alice);
      assertThat(answer.status()).as(path).isEqualTo(404);
      assertThat(answer.errorStatus()).isEqualTo("NOT_FOUND");
    }
    // A bearer credential needs no console token: a browser never sends one by itself.
    Answer abort =
        ConsoleHttp.post(
            url("/api/agents/helper/snapshots/" + bobs.snapshotId() + "/abort"), "", alice);
    assertThat(abort.status()).isEqualTo(404);
    assertThat(ConsoleHttp.get(url("/api/sessions")).status()).isEqualTo(401);
  }

  @Test
  void withoutAContextProviderAClientOffTheLoopbackInterfaceIsRefused() throws SocketException {
    InetAddress external = externalAddress();
    assumeThat(external).as("a non-loopback interface").isNotNull();
    helper();
    BatonServer onAll =
        BatonServer.start(
            BatonHandler.builder(served.baton).allAgents().console("/console").build(),
            "0.0.0.0",
            0);
    try {
      URI base = URI.create("http://" + external.getHostAddress() + ":" + onAll.uri().getPort());
      for (String path :
          List.of("/console/api/info", "/console/", "/console/assets/test-fixture.css")) {
        Answer answer = ConsoleHttp.get(base.resolve(path));
        assertThat(answer.status()).as(path).isEqualTo(403);
        assertThat(answer.errorStatus()).isEqualTo("PERMISSION_DENIED");
      }
    } finally {
      onAll.close();
    }
  }

  @Test
  void withoutAContextProviderARequestToAnotherHostIsRefusedEvenFromLoopback() throws IOException {
    helper();
    serve();
    URI base = served.server().uri();

    for (String path :
        List.of("/console/api/info", "/console/", "/console/assets/test-fixture.css")) {
      // A rebound name: the browser is on loopback, but sends the attacker's site as the host.
      String refused = rawGet(base, path, "evil.example:" + base.getPort());
      assertThat(refused).as(path).startsWith("HTTP/1.1 403").contains("\"PERMISSION_DENIED\"");
      for (String host : List.of("localhost", "127.0.0.1:" + base.getPort(), "[::1]:8080")) {
        assertThat(rawGet(base, path, host)).as(path + " to " + host).startsWith("HTTP/1.1 200");
      }
    }
  }

  /** A GET with a Host header of the test's choosing, which the JDK's client does not send. */
  private static String rawGet(URI base, String path, String host) throws IOException {
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      socket
          .getOutputStream()
          .write(
              ("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static InetAddress externalAddress() throws SocketException {
    return NetworkInterface.networkInterfaces()
        .flatMap(NetworkInterface::inetAddresses)
        .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
        .findFirst()
        .orElse(null);
  }

  @Test
  void badRequestsAnswerClearGenkitErrors() {
    helper();
    serve();

    Map<String, String> expected =
        Map.of(
            "/api/sessions?limit=lots", "INVALID_ARGUMENT",
            "/api/sessions?limit=-1", "INVALID_ARGUMENT",
            "/api/sessions?status=sleeping", "INVALID_ARGUMENT",
            "/api/sessions?pageToken=not-a-token", "INVALID_ARGUMENT",
            "/api/sessions?agent=nobody", "NOT_FOUND",
            "/api/agents/helper/sessions/none", "NOT_FOUND",
            "/api/agents/helper/snapshots/none", "NOT_FOUND",
            "/api/agents/nobody/snapshots/x/delegations", "NOT_FOUND",
            "/api/nothing", "NOT_FOUND",
            "/assets/../console.js", "NOT_FOUND");
    expected.forEach(
        (path, status) -> {
          Answer answer = ConsoleHttp.get(url(path));
          assertThat(answer.status()).as(path).isEqualTo(status.equals("NOT_FOUND") ? 404 : 400);
          assertThat(answer.errorStatus()).as(path).isEqualTo(status);
          assertThat(answer.json().at("/error/message").asString()).as(path).isNotBlank();
        });
    Answer get = ConsoleHttp.get(url("/api/agents/helper/snapshots/x/abort"));
    assertThat(get.status()).isEqualTo(405);
    assertThat(get.header("Allow")).isEqualTo("POST");
    assertThat(ConsoleHttp.post(url("/api/info"), "{}").status()).isEqualTo(405);
  }

  @Test
  void anAgentWhoseStoreCannotListIsNamedUnlistedAndTheOthersAreListed() {
    SessionStore unlisting =
        new ForwardingSessionStore(InMemorySessionStore.create()) {
          @Override
          public SessionPage listSessions(ActionContext context, SessionQuery query) {
            throw BatonException.of(
                Status.UNIMPLEMENTED, "this session store cannot list its sessions");
          }
        };
    Agent helper = helper();
    served.agent("archive", AgentOptions.builder().sessionStore(unlisting).build());
    serve();
    served.model.respond(say("one", 1));
    AgentOutput listed = helper.runText("first");

    JsonNode all = ConsoleHttp.get(url("/api/sessions")).json();

    assertThat(all.get("sessions")).hasSize(1);
    assertThat(all.at("/sessions/0/sessionId").asString()).isEqualTo(listed.sessionId());
    assertThat(all.get("unlisted")).hasSize(1);
    assertThat(all.at("/unlisted/0").asString()).isEqualTo("archive");
    Answer alone = ConsoleHttp.get(url("/api/sessions?agent=archive"));
    assertThat(alone.status()).isEqualTo(501);
    assertThat(alone.errorStatus()).isEqualTo("UNIMPLEMENTED");
  }

  @Test
  void theDefaultListingsOfAStoreFailWithoutNamingItsClass() {
    SessionStore bare =
        new SessionStore() {
          @Override
          public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
            return null;
          }

          @Override
          public @Nullable SessionSnapshot getLatestSnapshot(
              ActionContext context, String sessionId) {
            return null;
          }

          @Override
          public @Nullable SessionSnapshot saveSnapshot(
              ActionContext context,
              @Nullable String snapshotId,
              UnaryOperator<@Nullable SessionSnapshot> update) {
            return null;
          }
        };
    ActionContext context = ActionContext.root(served.baton.registry());
    for (ThrowingCallable listing :
        List.<ThrowingCallable>of(
            () -> bare.listSessions(context, SessionQuery.firstPage()),
            () -> bare.listSnapshots(context, "s1"))) {
      assertThatThrownBy(listing)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNIMPLEMENTED);
                assertThat(e.getMessage()).doesNotContain("ConsoleTest", "dev.baton");
              });
    }
  }

  @Test
  void pagesAcrossAgentsListEachSessionOnceThoughOneIsSavedBetweenPages() {
    InMemorySessionStore shared = InMemorySessionStore.create();
    Agent alpha = helper();
    Agent beta = served.agent("beta", AgentOptions.builder().sessionStore(shared).build());
    served.agent("gamma", AgentOptions.builder().sessionStore(shared).build());
    serve();
    List<AgentOutput> alphas = new java.util.ArrayList<>();
    List<AgentOutput> betas = new java.util.ArrayList<>();
    for (int i = 0; i < 4; i++) {
      served.model.respond(say("a" + i, 1), say("b" + i, 1));
      alphas.add(alpha.runText("alpha " + i));
      betas.add(beta.runText("beta " + i));
    }
    // Each alpha session once under alpha, each beta session once under beta and once under gamma.
    List<String> expected = new java.util.ArrayList<>();
    alphas.forEach(out -> expected.add("helper/" + out.sessionId()));
    betas.forEach(out -> expected.add("beta/" + out.sessionId()));
    betas.forEach(out -> expected.add("gamma/" + out.sessionId()));

    List<String> seen = new java.util.ArrayList<>();
    JsonNode page = ConsoleHttp.get(url("/api/sessions?limit=5")).json();
    page.get("sessions")
        .forEach(
            row -> seen.add(row.get("agent").asString() + "/" + row.get("sessionId").asString()));
    // A listed session moves to the top between pages: it must not come back.
    served.model.respond(say("again", 1));
    alpha.runText("again", AgentInit.ofSnapshot(alphas.get(3).snapshotId()));
    int pages = 1;
    while (!page.get("nextPageToken").isNull()) {
      page =
          ConsoleHttp.get(
                  url("/api/sessions?limit=5&pageToken=" + page.get("nextPageToken").asString()))
              .json();
      page.get("sessions")
          .forEach(
              row -> seen.add(row.get("agent").asString() + "/" + row.get("sessionId").asString()));
      assertThat(++pages).isLessThan(10);
    }

    assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void anAbortOfAFinishedTaskIsAFailedPrecondition() {
    Agent helper = helper();
    serve();
    served.model.respond(say("done", 1));
    AgentOutput done = helper.runText("quick");

    Answer answer =
        ConsoleHttp.post(
            url("/api/agents/helper/snapshots/" + done.snapshotId() + "/abort"),
            "",
            "X-Baton-Console-Token",
            csrfToken());

    assertThat(answer.status()).isEqualTo(400);
    assertThat(answer.errorStatus()).isEqualTo("FAILED_PRECONDITION");
    assertThat(answer.body()).contains("already finished (completed)");
  }

  @Test
  void handlersGivenTheSameTokenKeyAcceptEachOthersTokens() {
    String key = "k".repeat(32);
    helper();
    served.start(b -> b.console("/console").consoleTokenKey(key));
    String token = csrfToken();
    try (ServedBaton other = new ServedBaton()) {
      other.agent("helper", AgentOptions.builder().sessionStore(store).build());
      other.start(b -> b.console("/console").consoleTokenKey(key));
      assertThat(ConsoleHttp.get(other.url("/console/api/info")).json().get("csrfToken").asString())
          .isEqualTo(token);
    }
    assertThatThrownBy(() -> BatonHandler.builder(served.baton).consoleTokenKey("short"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aStoreFailureReachesTheClientAsItsStatusAlone() {
    SessionStore failing =
        new ForwardingSessionStore(store) {
          @Override
          public SessionPage listSessions(ActionContext context, SessionQuery query) {
            throw new IllegalStateException("connection to db-7.internal:5432 refused");
          }
        };
    served.agent("helper", AgentOptions.builder().sessionStore(failing).build());
    serve();

    Answer answer = ConsoleHttp.get(url("/api/sessions"));

    assertThat(answer.status()).isEqualTo(500);
    assertThat(answer.errorStatus()).isEqualTo("INTERNAL");
    assertThat(answer.body()).doesNotContain("db-7", "IllegalStateException", "at dev.");
  }

  @Test
  void theFilesOfThePageComeFromTheJarWithTheirTypeAndAStrictPolicy() {
    helper();
    serve();

    Answer file = ConsoleHttp.get(url("/assets/test-fixture.css"));

    assertThat(file.status()).isEqualTo(200);
    assertThat(file.header("Content-Type")).isEqualTo("text/css; charset=utf-8");
    assertThat(file.header("X-Content-Type-Options")).isEqualTo("nosniff");
    assertThat(file.header("Content-Security-Policy")).startsWith("default-src 'self'");
    assertThat(file.body()).contains("body { margin: 0; }");
    Answer head = ConsoleHttp.head(url("/assets/test-fixture.css"));
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.header("Content-Type")).isEqualTo("text/css; charset=utf-8");
    assertThat(head.header("Content-Length")).isEqualTo(String.valueOf(file.body().length()));
    assertThat(head.body()).isEmpty();
    Answer bare = ConsoleHttp.get(url(""));
    assertThat(bare.status()).isEqualTo(308);
    assertThat(bare.header("Location")).isEqualTo("console/");
    assertThat(ConsoleHttp.get(url("/assets/module-info.class")).status()).isEqualTo(404);
  }

  @Test
  void aHandlerWithoutAConsoleLeavesItsPathToTheNextHandler() {
    helper();
    served.start();

    assertThat(ConsoleHttp.get(served.url("/console/api/info")).status()).isEqualTo(404);
  }
}
