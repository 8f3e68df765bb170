package dev.baton.a2a.internal.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.a2a.internal.wire.AgentCard;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** Which JSON-RPC interface Baton follows from an agent card, and which cards it refuses. */
class CardEndpointTest {
  static final URI CARD = URI.create("https://agents.example/.well-known/agent-card.json");

  static AgentCard card(String json) {
    return Json.convert(Json.parse(json), AgentCard.class);
  }

  static void assertRefused(String json, String why) {
    assertThatThrownBy(() -> CardEndpoint.of(CARD, card(json)))
        .isInstanceOfSatisfying(
            BatonException.class,
            e -> {
              assertThat(e.status()).isEqualTo(Status.FAILED_PRECONDITION);
              assertThat(e.getMessage()).contains(CARD.toString()).contains(why);
            });
  }

  @Test
  void theCardsUrlIsTheInterfaceWhenJsonRpcIsPreferredOrNoTransportIsNamed() {
    assertThat(
            CardEndpoint.of(
                CARD,
                card("{\"url\": \"https://agents.example:443/a2a\", \"description\": \"Finds.\"}")))
        .isEqualTo(new CardEndpoint(URI.create("https://agents.example:443/a2a"), "Finds.", false));
  }

  @Test
  void aCardThatSaysItStreamsLetsWaitsFollowTasks() {
    String url = "\"url\": \"https://agents.example/a2a\"";

    assertThat(
            CardEndpoint.of(CARD, card("{" + url + ", \"capabilities\": {\"streaming\": true}}"))
                .streaming())
        .isTrue();
    assertThat(
            CardEndpoint.of(CARD, card("{" + url + ", \"capabilities\": {\"streaming\": false}}"))
                .streaming())
        .isFalse();
    assertThat(CardEndpoint.of(CARD, card("{" + url + ", \"capabilities\": {}}")).streaming())
        .isFalse();
  }

  @Test
  void anotherPreferredTransportLeavesTheJsonRpcEntryOfTheAdditionalInterfaces() {
    CardEndpoint endpoint =
        CardEndpoint.of(
            CARD,
            card(
                """
                {"url": "https://agents.example/grpc", "preferredTransport": "GRPC",
                 "additionalInterfaces": [
                   {"url": "https://agents.example/grpc", "transport": "GRPC"},
                   {"url": "https://agents.example/rpc", "transport": "JSONRPC"}]}
                """));

    assertThat(endpoint.endpoint()).isEqualTo(URI.create("https://agents.example/rpc"));
    assertThat(endpoint.description()).isNull();
  }

  @Test
  void aCardWithoutAJsonRpcInterfaceIsRefused() {
    assertRefused(
        "{\"url\": \"https://agents.example/v1\", \"preferredTransport\": \"HTTP+JSON\"}",
        "names no JSON-RPC interface");
  }

  @Test
  void aCardThatNamesAnotherSchemeHostOrPortIsRefused() {
    for (String elsewhere :
        new String[] {
          "http://agents.example/a2a", "https://evil.example/a2a", "https://agents.example:8443/a"
        }) {
      assertRefused("{\"url\": \"" + elsewhere + "\"}", "on another origin (" + elsewhere + ")");
    }
  }

  @Test
  void aUrlThatIsNotAbsoluteHttpIsRefused() {
    assertRefused("{\"url\": \"/a2a\"}", "which is not an absolute HTTP URL");
    assertRefused("{\"url\": \"file:///etc/passwd\"}", "which is not an absolute HTTP URL");
  }
}
