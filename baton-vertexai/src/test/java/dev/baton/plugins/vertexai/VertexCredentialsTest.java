package dev.baton.plugins.vertexai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Model;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.testing.FakeHttpServer;
import dev.baton.testing.FakeHttpServer.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Google Cloud credentials end to end: a service account key made here signs a JWT that a fake
 * token endpoint checks; the token it issues is cached, refreshed once it is about to expire, and
 * sent to a fake Vertex AI as {@code Authorization: Bearer}.
 */
class VertexCredentialsTest {
  private static final String CALL_PATH =
      VertexFixtures.MODELS + "google/models/gemini-2.5-flash:generateContent";

  private FakeHttpServer tokens;
  private FakeHttpServer vertex;
  private ServiceAccountKey key;

  @BeforeEach
  void start() throws Exception {
    tokens = new FakeHttpServer();
    vertex = new FakeHttpServer();
    key = new ServiceAccountKey(tokens.baseUrl().resolve("/token"));
  }

  @AfterEach
  void stop() {
    tokens.close();
    vertex.close();
  }

  private VertexAI.Builder plugin() {
    return VertexAI.builder()
        .environment(name -> null)
        .location(VertexFixtures.LOCATION)
        .baseUrl(vertex.baseUrl())
        .httpClient(FakeHttpServer.sharedClient());
  }

  private static String hello(Baton baton) {
    return VertexFixtures.call(baton, VertexFixtures.GEMINI, VertexFixtures.HELLO).text();
  }

  @Test
  void aServiceAccountsSignedJwtBuysATokenThatIsCachedAndSentAsBearer() throws Exception {
    tokens.reply(Reply.json(ServiceAccountKey.tokenResponse("ya29.first", 3600)));
    vertex.reply(
        Reply.json(VertexFixtures.geminiText("one")), Reply.json(VertexFixtures.geminiText("two")));
    Baton baton =
        VertexFixtures.baton(
            plugin().project("my-project").credentials(key.credentials("key-project")).build());

    assertThat(hello(baton)).isEqualTo("one");
    assertThat(hello(baton)).isEqualTo("two");

    assertThat(tokens.requests()).hasSize(1);
    assertThat(tokens.request(0).method()).isEqualTo("POST");
    assertThat(tokens.request(0).pathAndQuery()).isEqualTo("/token");
    key.assertValidTokenRequest(tokens.request(0).body());
    for (int i = 0; i < 2; i++) {
      assertThat(vertex.request(i).pathAndQuery()).isEqualTo(CALL_PATH);
      assertThat(vertex.request(i).header("Authorization")).isEqualTo("Bearer ya29.first");
    }
  }

  @Test
  void aTokenAboutToExpireIsRefreshedBeforeTheNextCall() throws Exception {
    // The library refreshes a token within minutes of its expiry, so one that lasts a minute is
    // stale at once: the second call must buy a new one, and the third reuses that.
    tokens.reply(
        Reply.json(ServiceAccountKey.tokenResponse("ya29.short", 60)),
        Reply.json(ServiceAccountKey.tokenResponse("ya29.long", 3600)));
    vertex.reply(
        Reply.json(VertexFixtures.geminiText("a")),
        Reply.json(VertexFixtures.geminiText("b")),
        Reply.json(VertexFixtures.geminiText("c")));
    Baton baton =
        VertexFixtures.baton(
            plugin().project("my-project").credentials(key.credentials("key-project")).build());

    hello(baton);
    hello(baton);
    hello(baton);

    assertThat(tokens.requests()).hasSize(2);
    key.assertValidTokenRequest(tokens.request(1).body());
    assertThat(vertex.request(0).header("Authorization")).isEqualTo("Bearer ya29.short");
    assertThat(vertex.request(1).header("Authorization")).isEqualTo("Bearer ya29.long");
    assertThat(vertex.request(2).header("Authorization")).isEqualTo("Bearer ya29.long");
  }

  @Test
  void theProjectDefaultsToTheKeyFilesOwn() throws Exception {
    tokens.reply(Reply.json(ServiceAccountKey.tokenResponse("ya29.first", 3600)));
    vertex.reply(Reply.json(VertexFixtures.geminiText("hi")));
    Baton baton =
        VertexFixtures.baton(plugin().credentials(key.credentials("key-project")).build());

    hello(baton);

    assertThat(vertex.request(0).pathAndQuery())
        .startsWith("/v1/projects/key-project/locations/us-central1/");
  }

  @Test
  void aProjectIdThatIsNotOneFailsThePreconditionAndSendsNothing() throws Exception {
    Baton fromEnvironment =
        VertexFixtures.baton(
            plugin()
                .environment(name -> name.equals("GOOGLE_CLOUD_PROJECT") ? "../../evil" : null)
                .credentials(VertexFixtures.fixedToken())
                .build());
    Baton fromKeyFile =
        VertexFixtures.baton(plugin().credentials(key.credentials("Key Project?")).build());

    for (Baton baton : new Baton[] {fromEnvironment, fromKeyFile}) {
      BatonException e = catchBaton(() -> hello(baton));
      assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
      assertThat(e.getMessage()).contains("project ID");
      assertThat(e.isPublic()).isFalse();
    }
    assertThat(tokens.requests()).isEmpty();
    assertThat(vertex.requests()).isEmpty();
    assertThatThrownBy(() -> VertexAI.builder().project("my-project/../other"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> VertexAI.builder().project("p"))
        .isInstanceOf(IllegalArgumentException.class);
    VertexAI.builder().project("example.com:my-project").project(" my-project-42 ");
  }

  @Test
  void aPausedClaudeTurnAsksForAFreshTokenForEachRound() throws Exception {
    // The first token lasts a minute, which the library counts as stale at once: the paused
    // turn's second request must carry a new one, not the one the call started with.
    tokens.reply(
        Reply.json(ServiceAccountKey.tokenResponse("ya29.short", 60)),
        Reply.json(ServiceAccountKey.tokenResponse("ya29.long", 3600)));
    vertex.reply(
        Reply.json(
            """
            {"id": "msg_vrtx_p1", "type": "message", "role": "assistant",
             "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Searching. "}],
             "stop_reason": "pause_turn", "usage": {"input_tokens": 10, "output_tokens": 5}}"""),
        Reply.json(VertexFixtures.claudeText("Found it.")));
    Baton baton =
        VertexFixtures.baton(
            plugin().project("my-project").credentials(key.credentials("key-project")).build());

    String text = VertexFixtures.call(baton, VertexFixtures.CLAUDE, VertexFixtures.HELLO).text();

    assertThat(text).isEqualTo("Searching. Found it.");
    assertThat(vertex.requests()).hasSize(2);
    assertThat(vertex.request(0).header("Authorization")).isEqualTo("Bearer ya29.short");
    assertThat(vertex.request(1).header("Authorization")).isEqualTo("Bearer ya29.long");
  }

  @Test
  void applicationDefaultCredentialsAreLoadedOnceAndALoadThatFailedIsTriedAgain() throws Exception {
    AtomicInteger loads = new AtomicInteger();
    tokens.reply(Reply.json(ServiceAccountKey.tokenResponse("ya29.adc", 3600)));
    vertex.reply(
        Reply.json(VertexFixtures.geminiText("a")), Reply.json(VertexFixtures.geminiText("b")));
    Baton baton =
        VertexFixtures.baton(
            plugin()
                .project("my-project")
                .applicationDefaultCredentials(
                    () -> {
                      if (loads.incrementAndGet() == 1) {
                        throw new IOException("Your default credentials were not found.");
                      }
                      return key.credentials("key-project");
                    })
                .build());

    assertThatThrownBy(() -> hello(baton))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
              assertThat(e.getMessage()).contains("GOOGLE_APPLICATION_CREDENTIALS");
              assertThat(e.isPublic()).isFalse();
            });
    assertThat(vertex.requests()).isEmpty();

    hello(baton);
    hello(baton);

    assertThat(loads).hasValue(2);
    assertThat(tokens.requests()).hasSize(1);
    assertThat(vertex.request(1).header("Authorization")).isEqualTo("Bearer ya29.adc");
  }

  @Test
  void aRefusedGrantIsUnauthenticatedNotPublicAndNeverShowsTheKey() throws Exception {
    tokens.reply(
        Reply.json(
            400,
            "{\"error\": \"invalid_grant\", \"error_description\": \"Invalid JWT Signature.\"}"));
    Baton baton =
        VertexFixtures.baton(
            plugin().project("my-project").credentials(key.credentials("key-project")).build());

    BatonException e = catchBaton(() -> hello(baton));

    assertThat(e.status()).isEqualTo(Status.UNAUTHENTICATED);
    assertThat(e.isPublic()).isFalse();
    assertThat(e.getMessage()).contains("invalid_grant");
    assertThat(vertex.requests()).isEmpty();
    String secret = key.privateKeyPem().lines().skip(1).findFirst().orElseThrow();
    for (Throwable t = e; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).doesNotContain(secret);
    }
    assertThat(Json.write(e.toPublicErrorInfo())).doesNotContain("invalid_grant");
  }

  @Test
  void cancellingWhileTheTokenIsFetchedEndsTheCallAtOnce() throws Exception {
    tokens.reply(Reply.hang());
    Baton baton =
        VertexFixtures.baton(
            plugin().project("my-project").credentials(key.credentials("key-project")).build());
    ActionContext context = baton.context();
    CompletableFuture<Object> call =
        CompletableFuture.supplyAsync(
            () ->
                Model.lookup(baton.registry(), VertexFixtures.GEMINI)
                    .run(context, VertexFixtures.HELLO, StreamCallback.discard()));

    tokens.awaitRequest();
    context.cancellation().cancel();

    assertThatThrownBy(call::get)
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(vertex.requests()).isEmpty();
  }

  private static BatonException catchBaton(Runnable call) {
    try {
      call.run();
    } catch (BatonException e) {
      return e;
    }
    throw new AssertionError("the call succeeded");
  }

  @Test
  void aTokenEndpointThatNeverAnswersHitsTheCallsTimeout() throws Exception {
    tokens.reply(Reply.hang());
    Baton baton =
        VertexFixtures.baton(
            plugin()
                .project("my-project")
                .credentials(key.credentials("key-project"))
                // Long enough for the credentials to load on a busy machine; the token never comes.
                .timeout(Duration.ofSeconds(2))
                .build());

    BatonException e = catchBaton(() -> hello(baton));

    assertThat(e.status()).isEqualTo(Status.DEADLINE_EXCEEDED);
    assertThat(e.getMessage()).contains("Vertex AI").contains("access token");
    assertThat(vertex.requests()).isEmpty();
  }

  @Test
  void credentialsWithAQuotaProjectNameItInTheirHeader() throws Exception {
    tokens.reply(Reply.json(ServiceAccountKey.tokenResponse("ya29.quota", 3600)));
    vertex.reply(Reply.json(VertexFixtures.geminiText("hi")));
    Baton baton =
        VertexFixtures.baton(
            plugin()
                .project("my-project")
                .credentials(key.credentials("key-project").createWithQuotaProject("billing"))
                .build());

    hello(baton);

    assertThat(vertex.request(0).header("Authorization")).isEqualTo("Bearer ya29.quota");
    assertThat(vertex.request(0).header("x-goog-user-project")).isEqualTo("billing");
  }
}
