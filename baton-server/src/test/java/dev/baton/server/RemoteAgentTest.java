package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentFinishReason;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SnapshotStatus;
import dev.baton.agent.StateManagement;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** One Baton calling another's agent over HTTP: the remote agent against the real server. */
class RemoteAgentTest {
  @AutoClose final ServedBaton served = new ServedBaton();
  final Baton client = Baton.builder().experimental().build();

  private Agent remote(RemoteAgentOptions.Builder options) {
    return client.defineRemoteAgent(
        "researcher",
        served.url("/agents/researcher"),
        options
            .description("Researches.")
            .stateManagement(StateManagement.SERVER)
            .abortable(true)
            .build());
  }

  private void researcher() {
    served.agent(
        "researcher",
        AgentOptions.builder()
            .sessionStore(InMemorySessionStore.create())
            .heartbeat(Duration.ofMillis(100), Duration.ofSeconds(2))
            .build());
  }

  @Test
  void turnsStreamAndChainSnapshotsAcrossTheWire() {
    researcher();
    served.start();
    served
        .model
        .step()
        .chunks(ModelResponseChunk.text("fa"), ModelResponseChunk.text("cts"))
        .respond(ModelResponse.of(Message.model("facts"), FinishReason.STOP));
    served.model.respondText("more facts");
    Agent agent = remote(RemoteAgentOptions.builder());
    List<AgentStreamChunk> chunks = new ArrayList<>();

    AgentOutput first =
        agent.run(client.context(), AgentInput.text("go"), AgentInit.NEW, chunks::add);
    AgentOutput second = agent.runText("more", AgentInit.ofSnapshot(first.snapshotId()));

    assertThat(first.text()).isEqualTo("facts");
    assertThat(chunks).hasSize(3);
    assertThat(chunks.get(2).turnEnd().snapshotId()).isEqualTo(first.snapshotId());
    assertThat(second.sessionId()).isEqualTo(first.sessionId());
    SessionSnapshot latest = agent.snapshots().latest(first.sessionId());
    assertThat(latest.snapshotId()).isEqualTo(second.snapshotId());
    assertThat(latest.parentId()).isEqualTo(first.snapshotId());
    assertThat(agent.snapshots().get(first.snapshotId()).state().messages()).hasSize(2);
  }

  @Test
  void failuresKeepTheirStatusNames() {
    researcher();
    served.start();
    served
        .model
        .step()
        .fail(BatonException.of(Status.RESOURCE_EXHAUSTED, "quota used up for today"));
    Agent agent = remote(RemoteAgentOptions.builder());

    AgentOutput failed = agent.runText("go");
    assertThat(failed.isFailed()).isTrue();
    assertThat(failed.error().statusCode()).isEqualTo(Status.RESOURCE_EXHAUSTED);
    assertThat(failed.error().message()).contains("quota used up");
    assertThatThrownBy(() -> agent.runText("go", AgentInit.ofSnapshot("nope")))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }

  @Test
  void aFailedTurnIsContinuedAndRetriedOverTheWire() {
    researcher();
    served.start();
    served.model.step().fail(BatonException.of(Status.UNAVAILABLE, "model overloaded"));
    served.model.respondText("second try worked");
    Agent agent = remote(RemoteAgentOptions.builder());

    AgentOutput failed = agent.runText("research tides");
    // The failed turn's progress is the session's latest row.
    SessionSnapshot row = agent.snapshots().latest(failed.sessionId());
    assertThat(row.status()).isEqualTo(SnapshotStatus.FAILED);
    AgentOutput retried =
        agent.run(
            client.context(),
            AgentInput.retryTurn(),
            AgentInit.continueFrom(row.snapshotId()),
            StreamCallback.discard());

    assertThat(retried.finishReason()).isEqualTo(AgentFinishReason.STOP);
    assertThat(retried.text()).isEqualTo("second try worked");
    // The retry re-ran the failed turn as it stood: its user message, once.
    assertThat(served.model.lastRequest().messages())
        .extracting(Message::text)
        .containsOnlyOnce("research tides");
  }

  /**
   * Ten turns, failing and succeeding in turn, through Baton's remote client: resumed from the
   * snapshot each output names, and by session ID. A failed turn answers the last good snapshot, so
   * neither way is ever stranded and the failed turns stay out of the conversation.
   */
  @Test
  void theRemoteClientCarriesOnAfterEachFailedTurnBySnapshotAndBySession() {
    researcher();
    served.start();
    served.model.fallback(
        request -> {
          String text = ProgrammableModel.lastUserText(request);
          if (text.startsWith("[fail]")) {
            throw BatonException.of(Status.UNAVAILABLE, "model overloaded");
          }
          return ModelResponse.of(Message.model("re: " + text), FinishReason.STOP);
        });
    Agent agent = remote(RemoteAgentOptions.builder());

    AgentInit bySnapshot = AgentInit.NEW;
    AgentInit bySession = AgentInit.ofSession("alternating");
    AgentOutput lastBySnapshot = null;
    AgentOutput lastBySession = null;
    List<String> conversation = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      String text = (i % 2 == 0 ? "[fail] turn " : "turn ") + i;
      AgentOutput byId = agent.runText(text, bySnapshot);
      lastBySession = agent.runText(text, bySession);
      assertThat(byId.isFailed()).as("turn " + i).isEqualTo(i % 2 == 0);
      assertThat(lastBySession.isFailed()).as("turn " + i).isEqualTo(i % 2 == 0);
      if (byId.isFailed()) {
        assertThat(byId.snapshotId())
            .as("turn %d's failure names the last good snapshot", i)
            .isEqualTo(lastBySnapshot == null ? null : lastBySnapshot.snapshotId());
      } else {
        assertThat(byId.text()).isEqualTo("re: " + text);
        assertThat(lastBySession.text()).isEqualTo("re: " + text);
        lastBySnapshot = byId;
        conversation.addAll(List.of(text, "re: " + text));
      }
      // As Genkit JS's client does: resume from the snapshot the output named, if any.
      if (byId.snapshotId() != null) {
        bySnapshot = AgentInit.ofSnapshot(byId.snapshotId());
      }
    }

    assertThat(agent.snapshots().get(lastBySnapshot.snapshotId()).state().messages())
        .extracting(Message::text)
        .containsExactlyElementsOf(conversation);
    assertThat(agent.snapshots().latest("alternating").state().messages())
        .extracting(Message::text)
        .containsExactlyElementsOf(conversation);
    assertThat(lastBySession.sessionId()).isEqualTo("alternating");
  }

  @Test
  void servingAllAgentsLeavesRemoteOnesOutUnlessNamed() {
    researcher();
    served.start();
    served.model.respondText("facts");
    JsonNode hello = envelope(Map.of("message", Message.user("hi")));
    try (ServedBaton front = new ServedBaton()) {
      front.baton.defineRemoteAgent(
          "researcher",
          served.url("/agents/researcher"),
          RemoteAgentOptions.builder()
              .stateManagement(StateManagement.SERVER)
              .abortable(true)
              .build());

      // Named, the remote agent is served: the front forwards to it.
      front.serve(b -> b.allAgents().agents("researcher"));
      Answer named = post(front.url("/agents/researcher"), hello);
      assertThat(named.status()).isEqualTo(200);
      String snapshotId = named.json().at("/result/snapshotId").stringValue();
      front.close();

      // All agents alone leave it out: it answers as an agent that does not exist, and so do its
      // companions, or any client could call the remote server with the front's credentials.
      front.start();
      Answer turn = post(front.url("/agents/researcher"), hello);
      Answer unknown = post(front.url("/agents/nobody"), hello);
      assertThat(turn.status()).isEqualTo(404);
      assertThat(turn.body()).isEqualTo(unknown.body().replace("nobody", "researcher"));
      for (String companion : List.of("getSnapshot", "waitForSnapshot", "abort")) {
        Answer call =
            post(
                front.url("/agents/researcher/" + companion),
                envelope(Map.of("snapshotId", snapshotId)));
        assertThat(call.status()).as(companion).isEqualTo(404);
      }
    }
    assertThat(served.model.calls()).isEqualTo(1);
  }

  @Test
  void detachWaitAndAbortGoThroughTheCompanions() throws Exception {
    researcher();
    served.start();
    // The second run starts only once the first holds the model, so each run takes its own step.
    CountDownLatch firstEntered = new CountDownLatch(1);
    CountDownLatch secondEntered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served
        .model
        .step()
        .signalOnEntry(firstEntered)
        .blockUntil(release)
        .respond(ModelResponse.of(Message.model("finished"), FinishReason.STOP));
    served
        .model
        .step()
        .signalOnEntry(secondEntered)
        .blockUntil(new CountDownLatch(1))
        .respond(ModelResponse.of(Message.model("never"), FinishReason.STOP));
    Agent agent = remote(RemoteAgentOptions.builder());

    AgentOutput first = agent.run(client.context(), AgentInput.text("a").withDetach(true));
    assertThat(first.finishReason()).isEqualTo(AgentFinishReason.DETACHED);
    assertThat(firstEntered.await(10, TimeUnit.SECONDS)).isTrue();
    AgentOutput second = agent.run(client.context(), AgentInput.text("b").withDetach(true));
    assertThat(secondEntered.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(agent.snapshots().get(first.snapshotId()).status())
        .isEqualTo(SnapshotStatus.PENDING);

    release.countDown();
    assertThat(agent.snapshots().waitFor(first.snapshotId()).status())
        .isEqualTo(SnapshotStatus.COMPLETED);
    assertThat(agent.snapshots().abort(second.snapshotId())).isEqualTo(SnapshotStatus.ABORTED);
    assertThat(agent.snapshots().waitFor(second.snapshotId()).finishReason())
        .isEqualTo(AgentFinishReason.ABORTED);
    assertThat(agent.snapshots().abort("nope")).isNull();
  }

  @Test
  void headersCarryCredentialsComputedPerRequest() {
    researcher();
    served.start(
        b ->
            b.contextProvider(
                ContextProviders.bearerToken(
                    token ->
                        token.startsWith("t-")
                            ? Map.of(ActionContext.PRINCIPAL, token.substring(2))
                            : null)));
    served.model.respondText("hi");
    Agent withToken =
        remote(
            RemoteAgentOptions.builder()
                .headers(ctx -> Map.of("Authorization", "Bearer t-" + ctx.auth().get("user"))));

    AgentOutput output =
        withToken.run(
            client.context().withAuth(Map.of("user", "ada")),
            AgentInput.text("hi"),
            AgentInit.NEW,
            StreamCallback.discard());

    assertThat(output.text()).isEqualTo("hi");
    Baton other = Baton.builder().experimental().build();
    Agent without = other.defineRemoteAgent("researcher", served.url("/agents/researcher"));
    assertThatThrownBy(() -> without.runText("hi"))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.UNAUTHENTICATED));
    // The session is ada's: another principal's token does not find it.
    Agent asBob =
        other.defineRemoteAgent(
            "bobs-view",
            served.url("/agents/researcher"),
            RemoteAgentOptions.builder().header("Authorization", "Bearer t-bob").build());
    assertThatThrownBy(() -> asBob.snapshots().get(output.snapshotId()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND));
  }

  @Test
  void cancellingTheCallerCancelsTheRunOnTheServer() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch cancelled = new CountDownLatch(1);
    served.baton.defineModel(
        "waits",
        new ModelInfo("waits", ModelInfo.Supports.TEXT_ONLY, null),
        (ctx, request, stream) -> {
          entered.countDown();
          CountDownLatch gone = new CountDownLatch(1);
          try (var onCancel = ctx.cancellation().onCancel(gone::countDown)) {
            gone.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          cancelled.countDown();
          ctx.cancellation().throwIfCancelled();
          throw new IllegalStateException("unreachable");
        });
    served.baton.defineAgent(
        "researcher", InlinePrompt.builder().model("waits").build(), AgentOptions.DEFAULTS);
    served.start();
    Agent agent = remote(RemoteAgentOptions.builder());
    ActionContext context = client.context();
    CompletableFuture<AgentOutput> call =
        CompletableFuture.supplyAsync(
            () ->
                agent.run(context, AgentInput.text("go"), AgentInit.NEW, StreamCallback.discard()));
    assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

    context.cancellation().cancel();

    assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the server's run was cancelled").isTrue();
    assertThatThrownBy(call::join)
        .hasCauseInstanceOf(BatonException.class)
        .cause()
        .satisfies(e -> assertThat(((BatonException) e).status()).isEqualTo(Status.CANCELLED));
  }

  @Test
  void aPageThatIsNotJsonFromARemoteAgentReachesNoClientOfTheServer() throws Exception {
    String page = "<html>Sign in to proxy.corp.internal (10.0.0.7)</html>";
    // A proxy in front of the remote server answers its sign-in page, with 200.
    Server upstream = new Server(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    upstream.setHandler(
        new Handler.Abstract.NonBlocking() {
          @Override
          public boolean handle(Request request, Response response, Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
            Content.Sink.write(response, true, page, callback);
            return true;
          }
        });
    upstream.start();
    try {
      Agent researcher =
          served.baton.defineRemoteAgent(
              "researcher",
              upstream.getURI().resolve("/agents/researcher"),
              RemoteAgentOptions.builder()
                  .stateManagement(StateManagement.SERVER)
                  .abortable(true)
                  .build());
      served.baton.defineFlow(
          "status",
          String.class,
          String.class,
          (ctx, id) -> researcher.snapshots(ctx).get(id).toString());
      served.start();

      Answer answer = post(served.url("/flows/status"), envelope("s1"));

      assertThat(answer.status()).isEqualTo(503);
      assertThat(answer.json().path("status").asString()).isEqualTo("UNAVAILABLE");
      assertThat(answer.json().path("message").asString())
          .isEqualTo("remote agent \"researcher\" answered with something that is not JSON");
      assertThat(answer.body()).doesNotContain("proxy.corp.internal").doesNotContain("10.0.0.7");
      // In process, the page is in a non-public cause, for logs and debugging.
      assertThatThrownBy(() -> researcher.snapshots().get("s1"))
          .cause()
          .isInstanceOfSatisfying(
              BatonException.class,
              body -> {
                assertThat(body.isPublic()).isFalse();
                assertThat(body.getMessage()).contains(page);
              });
    } finally {
      upstream.stop();
    }
  }
}
