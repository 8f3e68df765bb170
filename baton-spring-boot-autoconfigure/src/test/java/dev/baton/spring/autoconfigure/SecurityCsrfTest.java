package dev.baton.spring.autoconfigure;

import static dev.baton.server.TestHttp.envelope;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.Baton;
import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.ai.Message;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.server.ConsoleHttp;
import dev.baton.server.TestHttp;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Under an application's Spring Security with CSRF protection on, the task console's abort and
 * Genkit's JSON calls reach Baton without Spring's CSRF token, while what a page of another site
 * can send is still refused: by the console's own checks, or by Spring's.
 */
@SpringBootTest(
    classes = CsrfProtectedApp.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "baton.console.enabled=true")
class SecurityCsrfTest {
  private static final String ALICE =
      "Basic "
          + Base64.getEncoder()
              .encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
  private static final String HELLO = Json.write(envelope(Map.of("message", Message.user("hi"))));

  @LocalServerPort int port;
  @Autowired ProgrammableModel model;
  @Autowired Agent chat;
  @Autowired Baton baton;

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private ActionContext alice() {
    return ActionContext.root(baton.registry()).withAuth(Map.of(ActionContext.PRINCIPAL, "alice"));
  }

  /** A turn of alice's that runs detached until {@code release}. */
  private AgentOutput pendingTurnOfAlice(CountDownLatch release) {
    model.step().blockUntil(release).respondText("done at last");
    return chat.run(
        alice(),
        AgentInput.text("take your time").withDetach(true),
        AgentInit.NEW,
        StreamCallback.discard());
  }

  private URI abortOf(AgentOutput pending) {
    return url("/baton/console/api/agents/chat/snapshots/" + pending.snapshotId() + "/abort");
  }

  @Test
  void theConsolesAbortWithItsTokenPassesTheApplicationsSecurity() {
    AgentOutput pending = pendingTurnOfAlice(new CountDownLatch(1));
    String token =
        ConsoleHttp.get(url("/baton/console/api/info"), "Authorization", ALICE)
            .json()
            .get("csrfToken")
            .asString();

    ConsoleHttp.Answer abort =
        ConsoleHttp.post(
            abortOf(pending),
            "",
            "Authorization",
            ALICE,
            "X-Baton-Console-Token",
            token,
            "Origin",
            "http://127.0.0.1:" + port,
            "Sec-Fetch-Site",
            "same-origin");

    assertThat(abort.status()).as(abort.body()).isEqualTo(200);
    // The abort answers the row as it stands: aborting until the worker saves it aborted.
    assertThat(abort.json().get("status").asString()).isIn("aborting", "aborted");
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                chat.snapshots(alice())
                    .get(pending.snapshotId())
                    .status()
                    .wireName()
                    .equals("aborted"));
  }

  @Test
  void anAbortFromAnotherSiteIsStillRefusedByTheConsole() {
    CountDownLatch release = new CountDownLatch(1);
    AgentOutput pending = pendingTurnOfAlice(release);

    ConsoleHttp.Answer formPost =
        ConsoleHttp.post(
            abortOf(pending),
            "confirm=yes",
            "Authorization",
            ALICE,
            "Content-Type",
            "application/x-www-form-urlencoded",
            "Origin",
            "https://evil.example",
            "Sec-Fetch-Site",
            "cross-site");

    assertThat(formPost.status()).as(formPost.body()).isEqualTo(403);
    assertThat(formPost.errorStatus()).as("the console's answer").isEqualTo("PERMISSION_DENIED");
    assertThat(chat.snapshots(alice()).get(pending.snapshotId()).status().wireName())
        .isEqualTo("pending");
    release.countDown();
  }

  @Test
  void aJsonCallReachesTheAgentButWhatAFormCanSendKeepsSpringsCheck() {
    model.respondText("hello alice");
    int calls = model.calls();

    TestHttp.Answer json = TestHttp.post(url("/baton/agents/chat"), HELLO, "Authorization", ALICE);
    assertThat(json.status()).as(json.body()).isEqualTo(200);
    assertThat(model.calls()).isEqualTo(calls + 1);

    List<ConsoleHttp.Answer> refused =
        List.of(
            // A cross-site form's body: text/plain carries JSON without a CORS preflight.
            ConsoleHttp.post(
                url("/baton/agents/chat"),
                HELLO,
                "Authorization",
                ALICE,
                "Content-Type",
                "text/plain"),
            // A JSON body that the browser says comes from another site.
            ConsoleHttp.post(
                url("/baton/agents/chat"),
                HELLO,
                "Authorization",
                ALICE,
                "Content-Type",
                "application/json",
                "Sec-Fetch-Site",
                "cross-site"));
    assertThat(refused).allSatisfy(answer -> assertThat(answer.status()).isEqualTo(403));
    assertThat(model.calls()).as("no refused call reached the model").isEqualTo(calls + 1);
  }
}
