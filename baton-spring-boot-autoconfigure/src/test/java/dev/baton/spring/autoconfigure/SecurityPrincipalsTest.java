package dev.baton.spring.autoconfigure;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.Message;
import dev.baton.core.Json;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Spring Security's authenticated user is Baton's principal: sessions belong to the user who
 * started them, and the filter chain refuses unauthenticated requests before Baton sees them.
 */
@SpringBootTest(
    classes = SecuredChatApp.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SecurityPrincipalsTest {
  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  @LocalServerPort int port;
  @Autowired ProgrammableModel model;

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Test
  void aSessionBelongsToTheUserWhoStartedItAndIsUnknownToAnother() {
    model.respondText("for alice");
    int calls = model.calls();
    Answer turn = post(url("/baton/agents/chat"), envelope(HELLO), basic("alice", "alice-secret"));
    assertThat(turn.status()).as(turn.body()).isEqualTo(200);
    String snapshotId = turn.result().get("snapshotId").stringValue();
    String sessionId = turn.result().get("sessionId").stringValue();
    Map<String, String> id = Map.of("snapshotId", snapshotId);

    Answer own =
        post(url("/baton/agents/chat/getSnapshot"), envelope(id), basic("alice", "alice-secret"));
    assertThat(own.status()).as(own.body()).isEqualTo(200);
    assertThat(own.result().get("snapshotId").stringValue()).isEqualTo(snapshotId);

    Answer foreign =
        post(url("/baton/agents/chat/getSnapshot"), envelope(id), basic("bob", "bob-secret"));
    assertThat(foreign.status()).as(foreign.body()).isEqualTo(404);
    assertThat(foreign.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    Answer foreignSession =
        post(
            url("/baton/agents/chat/getSnapshot"),
            envelope(Map.of("sessionId", sessionId)),
            basic("bob", "bob-secret"));
    assertThat(foreignSession.status()).as(foreignSession.body()).isEqualTo(404);
    Answer foreignTurn =
        post(
            url("/baton/agents/chat"),
            envelope(HELLO, Map.of("snapshotId", snapshotId)),
            basic("bob", "bob-secret"));
    assertThat(foreignTurn.status()).as(foreignTurn.body()).isEqualTo(404);
    assertThat(foreignTurn.json().get("status").stringValue()).isEqualTo("NOT_FOUND");
    assertThat(model.calls()).as("bob's turn never reached the model").isEqualTo(calls + 1);
  }

  @Test
  void theRunSeesTheUserAsPrincipalWithTheirAuthorities() {
    Answer whoami = post(url("/baton/flows/whoami"), envelope("?"), basic("bob", "bob-secret"));

    assertThat(whoami.status()).as(whoami.body()).isEqualTo(200);
    assertThat(whoami.result().get("principal").stringValue()).isEqualTo("bob");
    assertThat(
            Json.convert(
                whoami.result().get(BatonServerAutoConfiguration.AUTHORITIES), String[].class))
        .contains("ROLE_USER", "ROLE_AUDITOR");
  }

  @Test
  void aContextProviderAddsToTheUsersContextButCannotReplaceTheUser() {
    Answer planned =
        post(
            url("/baton/flows/whoami"),
            envelope("?"),
            "X-Plan",
            "gold",
            "Authorization",
            basic("alice", "alice-secret")[1]);
    assertThat(planned.status()).as(planned.body()).isEqualTo(200);
    assertThat(planned.result().get("principal").stringValue()).isEqualTo("alice");
    assertThat(planned.result().get("plan").stringValue()).isEqualTo("gold");

    Answer impostor =
        post(
            url("/baton/flows/whoami"),
            envelope("?"),
            "X-Act-As",
            "bob",
            "Authorization",
            basic("alice", "alice-secret")[1]);
    assertThat(impostor.status()).as(impostor.body()).isEqualTo(403);
    assertThat(impostor.json().get("status").stringValue()).isEqualTo("PERMISSION_DENIED");
  }

  @Test
  void anUnauthenticatedRequestIsRefusedByTheFilterChain() {
    assertThat(post(url("/baton/agents/chat"), envelope(HELLO)).status()).isEqualTo(401);
    assertThat(post(url("/baton/agents/chat"), envelope(HELLO), basic("alice", "wrong")).status())
        .isEqualTo(401);
  }

  /** The header pair of HTTP Basic credentials. */
  private static String[] basic(String user, String password) {
    String token =
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return new String[] {"Authorization", "Basic " + token};
  }
}
