package dev.baton.server;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.Hooks;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.server.TestHttp.Answer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Context providers: what they see, how they refuse, that their context reaches the agent, its
 * tools and its middleware, and that a principal they bind owns its sessions.
 */
class AuthTest {
  @AutoClose final ServedBaton served = new ServedBaton();

  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  /** Tokens of the tests' bearer provider: alice and bob are principals, "viewer" may not run. */
  private static ContextProvider bearer() {
    return ContextProviders.bearerToken(
        token ->
            switch (token) {
              case "t-alice" -> Map.of(ActionContext.PRINCIPAL, "alice", "plan", "pro");
              case "t-bob" -> Map.of(ActionContext.PRINCIPAL, "bob", "plan", "free");
              case "t-viewer" ->
                  throw BatonException.of(Status.PERMISSION_DENIED, "viewers may not run agents");
              default -> null;
            });
  }

  private void chat() {
    served.agent(
        "chat", AgentOptions.builder().sessionStore(InMemorySessionStore.create()).build());
  }

  @Test
  void aBearerTokenIsRequiredValidAndAllowed() {
    chat();
    served.start(b -> b.contextProvider(bearer()));
    served.model.respondText("hi alice");

    Answer none = post(served.url("/agents/chat"), envelope(HELLO));
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.json().get("status").stringValue()).isEqualTo("UNAUTHENTICATED");
    Answer invalid =
        post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "Bearer t-mallory");
    assertThat(invalid.status()).isEqualTo(401);
    Answer notBearer =
        post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "Basic dDp0");
    assertThat(notBearer.status()).isEqualTo(401);
    Answer denied =
        post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "Bearer t-viewer");
    assertThat(denied.status()).isEqualTo(403);
    assertThat(denied.json().get("status").stringValue()).isEqualTo("PERMISSION_DENIED");
    assertThat(denied.json().get("message").stringValue()).isEqualTo("viewers may not run agents");
    // Refusals happen before the agent runs, streaming or not.
    Answer streamed =
        post(served.url("/agents/chat?stream=true"), envelope(HELLO), "Authorization", "Bearer x");
    assertThat(streamed.status()).isEqualTo(401);
    assertThat(served.model.calls()).isZero();

    Answer ok =
        post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "bearer t-alice");
    assertThat(ok.status()).isEqualTo(200);
    assertThat(served.model.calls()).isEqualTo(1);
  }

  @Test
  void anApiKeyIsComparedAsGenkitJsDoes() {
    chat();
    served.start(b -> b.contextProvider(ContextProviders.apiKey("k-123")));
    served.model.respondText("ok");

    assertThat(post(served.url("/agents/chat"), envelope(HELLO)).status()).isEqualTo(401);
    assertThat(post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "k-999").status())
        .isEqualTo(403);
    assertThat(post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "k-123").status())
        .isEqualTo(200);
  }

  @Test
  void providersSeeTheRequestAndTheirContextReachesAgentToolsAndMiddleware() {
    List<RequestData> seen = new CopyOnWriteArrayList<>();
    List<Map<String, Object>> reached = new CopyOnWriteArrayList<>();
    Tool<JsonNode, JsonNode> whoami =
        served.baton.defineJsonTool(
            "whoami",
            "Says who asks.",
            null,
            null,
            (ctx, in) -> {
              reached.add(ctx.context().auth());
              return Json.nodes().stringNode(String.valueOf(ctx.context().auth().get("user")));
            });
    served.baton.defineAgent(
        "helper",
        InlinePrompt.builder()
            .model("model")
            .tools(whoami)
            .use(
                Middleware.of(
                    "spy",
                    context ->
                        Hooks.builder()
                            .wrapGenerate(
                                (ctx, params, next) -> {
                                  reached.add(ctx.auth());
                                  return next.apply(ctx, params);
                                })
                            .build()))
            .build());
    served.start(
        b ->
            b.contextProvider(
                    request -> {
                      seen.add(request);
                      return Map.of("user", request.header("X-User"), "plan", "free");
                    })
                .contextProvider(request -> Map.of("plan", "pro")));
    served.model.respond(
        ModelResponse.of(
            new Message(Role.MODEL, List.of(Part.toolRequest("whoami", "r1", Json.object()))),
            FinishReason.STOP));
    served.model.respondText("you are ada");

    Answer answer =
        post(served.url("/agents/helper"), envelope(HELLO), "X-User", "ada", "X-Tag", "a");

    assertThat(answer.status()).isEqualTo(200);
    RequestData request = seen.get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.headers()).containsEntry("x-user", "ada").containsKey("content-type");
    assertThat(request.headers().keySet()).allMatch(name -> name.equals(name.toLowerCase()));
    assertThat(request.input().at("/message/content/0/text").stringValue()).isEqualTo("hello");
    // Providers merge in order: the later one's "plan" wins.
    assertThat(reached)
        .hasSizeGreaterThanOrEqualTo(2)
        .allSatisfy(
            auth -> assertThat(auth).containsEntry("user", "ada").containsEntry("plan", "pro"));
  }

  @Test
  void aPrincipalThatIsNotANonEmptyStringIsRefusedAsAServerFault() {
    chat();
    // A provider that binds a user ID as a number, an empty name or a user object: none of them
    // binds the session to anyone, so running the request would put it among everyone's. A name
    // with a lone surrogate (from a token's JSON claims, say) would share the sessions of the name
    // with "?" in its place.
    List<Object> principals = List.of(42L, "", new StringBuilder("alice"), "carol-\ud800");
    served.start(
        b ->
            b.contextProvider(
                request ->
                    Map.of(
                        ActionContext.PRINCIPAL,
                        principals.get(Integer.parseInt(request.header("X-Case"))))));

    for (int i = 0; i < principals.size(); i++) {
      for (String route : List.of("/agents/chat", "/agents/chat?stream=true")) {
        Answer refused = post(served.url(route), envelope(HELLO), "X-Case", String.valueOf(i));
        assertThat(refused.status()).as(route + " " + i).isEqualTo(500);
        assertThat(refused.json().get("status").stringValue()).isEqualTo("INTERNAL");
        assertThat(refused.json().get("message").stringValue())
            .isEqualTo(BatonException.genericMessage(Status.INTERNAL));
      }
    }
    assertThat(served.model.calls()).isZero();
  }

  @Test
  void tokensThatDifferOnlyInCaseAreNotConfusedOnOneConnection() throws Exception {
    chat();
    served.start(
        b ->
            b.contextProvider(
                ContextProviders.bearerToken(
                    token ->
                        switch (token) {
                          case "Case-Key-7f" -> Map.of(ActionContext.PRINCIPAL, "alice");
                          case "case-key-7f" -> Map.of(ActionContext.PRINCIPAL, "mallory");
                          default -> null;
                        })));
    served.model.respondText("alice's answer");
    String snapshot =
        post(served.url("/agents/chat"), envelope(HELLO), "Authorization", "Bearer Case-Key-7f")
            .json()
            .at("/result/snapshotId")
            .stringValue();
    String read = Json.write(envelope(Map.of("snapshotId", snapshot)));

    // A proxy forwards three users' requests over one kept-alive connection.
    try (KeepAliveConnection proxy = new KeepAliveConnection(served.server().uri())) {
      Answer alices =
          proxy.post("/agents/chat/getSnapshot", read, "Authorization: Bearer Case-Key-7f");
      Answer mallorys =
          proxy.post("/agents/chat/getSnapshot", read, "Authorization: Bearer case-key-7f");
      Answer invalid =
          proxy.post("/agents/chat/getSnapshot", read, "Authorization: Bearer CASE-KEY-7F");

      assertThat(alices.status()).isEqualTo(200);
      assertThat(alices.json().at("/result/snapshotId").stringValue()).isEqualTo(snapshot);
      assertThat(mallorys.status()).as(mallorys.body()).isEqualTo(404);
      assertThat(invalid.status()).as(invalid.body()).isEqualTo(401);
    }
  }

  @Test
  void aHandlerWithContextProvidersRefusesAServerWhoseHeaderCacheIgnoresCase() throws Exception {
    chat();
    HttpConfiguration caseSensitive = new HttpConfiguration();
    caseSensitive.setHeaderCacheCaseSensitive(true);

    // Jetty's default configuration matches cached header values without regard to case.
    assertThatThrownBy(() -> startAndStop(new HttpConfiguration(), bearer()))
        .hasStackTraceContaining("setHeaderCacheCaseSensitive(true)");
    startAndStop(caseSensitive, bearer());
    // Without context providers the handler reads no credentials, and starts anywhere.
    startAndStop(new HttpConfiguration(), null);
  }

  /** Mounts a handler of every agent in a server of one's own, starts it, and stops it. */
  private void startAndStop(HttpConfiguration config, @Nullable ContextProvider provider)
      throws Exception {
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config));
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    BatonHandler.Builder handler = BatonHandler.builder(served.baton).allAgents();
    if (provider != null) {
      handler.contextProvider(provider);
    }
    server.setHandler(handler.build());
    try {
      server.start();
    } finally {
      server.stop();
    }
  }

  @Test
  void anotherPrincipalsSessionAndSnapshotsAnswerExactlyAsUnknownOnes() throws Exception {
    chat();
    served.start(b -> b.contextProvider(bearer()));
    CountDownLatch backgroundStarted = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    served.model.respondText("alice's answer");
    served
        .model
        .step()
        .signalOnEntry(backgroundStarted)
        .blockUntil(release)
        .respond(ModelResponse.of(Message.model("done"), FinishReason.STOP));
    served.model.respondText("bob's answer");
    String[] alice = {"Authorization", "Bearer t-alice"};
    String[] bob = {"Authorization", "Bearer t-bob"};

    JsonNode alices = post(served.url("/agents/chat"), envelope(HELLO), alice).json().get("result");
    String snapshot = alices.get("snapshotId").stringValue();
    String session = alices.get("sessionId").stringValue();
    JsonNode pending =
        post(
                served.url("/agents/chat"),
                envelope(Json.toTree(AgentInput.text("bg").withDetach(true))),
                alice)
            .json()
            .get("result");
    assertThat(backgroundStarted.await(10, TimeUnit.SECONDS))
        .as("the background turn reached the model")
        .isTrue();

    for (String route : List.of("getSnapshot", "waitForSnapshot", "abort")) {
      for (String id : List.of(snapshot, pending.get("snapshotId").stringValue())) {
        Answer foreign =
            post(served.url("/agents/chat/" + route), envelope(Map.of("snapshotId", id)), bob);
        Answer unknown =
            post(
                served.url("/agents/chat/" + route),
                envelope(Map.of("snapshotId", "no-such-id")),
                bob);
        assertThat(foreign.status()).as(route).isEqualTo(404).isEqualTo(unknown.status());
        assertThat(foreign.json().get("message").stringValue())
            .isEqualTo(unknown.json().get("message").stringValue().replace("no-such-id", id));
      }
    }
    Answer bySession =
        post(served.url("/agents/chat/getSnapshot"), envelope(Map.of("sessionId", session)), bob);
    assertThat(bySession.status()).isEqualTo(404);
    Answer turn =
        post(served.url("/agents/chat"), envelope(HELLO, Map.of("snapshotId", snapshot)), bob);
    assertThat(turn.status()).isEqualTo(404);
    assertThat(turn.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    // Bob's session ID that happens to be alice's starts a session of his own.
    post(served.url("/agents/chat"), envelope(HELLO, Map.of("sessionId", session)), bob);
    assertThat(served.model.lastRequest().messages())
        .extracting(Message::text)
        .doesNotContain("alice's answer");
    // Alice's own reads still work, and her pending run was not aborted by bob.
    assertThat(
            post(
                    served.url("/agents/chat/getSnapshot"),
                    envelope(Map.of("snapshotId", pending.get("snapshotId").stringValue())),
                    alice)
                .json()
                .at("/result/status")
                .stringValue())
        .isEqualTo("pending");
    release.countDown();
  }
}
