package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.Tool;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.server.NodeFixture;
import java.net.ServerSocket;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The streamable HTTP transport against the TypeScript SDK's server, with headers and a token. */
class McpClientHttpTest {
  private static NodeFixture.Server server;
  private final Baton baton = Baton.builder().build();

  @BeforeAll
  static void start() {
    NodeFixture.require();
    server = NodeFixture.server("client-http-server.js");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static URI uri() {
    return URI.create("http://127.0.0.1:" + server.port() + "/mcp");
  }

  private JsonNode call(McpClient client, String tool, JsonNode input) {
    Tool<?, ?> found =
        client.tools().stream()
            .filter(t -> t.name().equals(client.name() + "/" + tool))
            .findFirst()
            .orElseThrow();
    return found.runJson(baton.context(), input, null, StreamCallback.discard()).path("output");
  }

  @Test
  void toolsAreListedAndCalledWithTheConfiguredHeaders() {
    try (McpClient client =
        Mcp.client("remote").http(uri()).header("X-Api-Key", "k1").bearerToken("t0k").build()) {
      assertThat(client.tools()).extracting(Tool::name).contains("remote/echo", "remote/add");

      assertThat(call(client, "add", Json.parse("{\"a\":1,\"b\":2}")))
          .isEqualTo(Json.parse("{\"sum\":3}"));
      assertThat(Json.parse(call(client, "headers", Json.object()).asString()))
          .isEqualTo(Json.parse("{\"x-api-key\":\"k1\",\"authorization\":\"Bearer t0k\"}"));
    }
  }

  @Test
  void refusedCredentialsAreUnauthenticated() {
    try (McpClient client = Mcp.client("denied").http(uri()).header("X-Api-Key", "wrong").build()) {
      assertThatThrownBy(client::tools)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAUTHENTICATED);
                assertThat(e.getMessage()).contains("\"denied\"").contains("401");
              });
    }
  }

  @Test
  void aServerThatIsNotThereIsUnavailable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (McpClient client =
        Mcp.client("nowhere").http(URI.create("http://127.0.0.1:" + port + "/mcp")).build()) {
      assertThatThrownBy(client::tools)
          .isInstanceOfSatisfying(
              BatonException.class,
              e -> {
                assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                assertThat(e.getMessage()).contains("\"nowhere\"").doesNotContain("Exception");
              });
    }
  }
}
