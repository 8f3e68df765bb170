package dev.baton.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.BatonHandler;
import dev.baton.server.BatonServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class McpServerHttpTest {
  private static final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theEndpointSitsBesideABatonHandlerAndDeclinesOtherPaths() throws Exception {
    try (Baton baton = Baton.builder().build()) {
      baton.defineFlow("shout", String.class, String.class, (ctx, in) -> in.toUpperCase());
      McpServer mcp = Mcp.server(baton).flows("shout").path("/tools/mcp").build();
      try (mcp;
          BatonServer server =
              BatonServer.start(
                  "127.0.0.1",
                  0,
                  mcp.handler(),
                  BatonHandler.builder(baton).flows("shout").build())) {
        RawMcpClient client = new RawMcpClient(server.uri().resolve("/tools/mcp"));

        assertThat(client.initialize().statusCode()).isEqualTo(200);
        assertThat(post(server.uri().resolve("/flows/shout"), "{\"data\":\"hi\"}").body())
            .contains("\"result\":\"HI\"");
        assertThat(post(server.uri().resolve("/mcp"), "{}").statusCode()).isEqualTo(404);
        assertThat(post(server.uri().resolve("/tools/mcp/x"), "{}").statusCode()).isEqualTo(404);
      }
    }
  }

  @Test
  void aPathMustBeAbsoluteWithoutATrailingSlash() {
    try (Baton baton = Baton.builder().build()) {
      for (String bad : new String[] {"mcp", "/mcp/", "/", "/mcp?x=1"}) {
        assertThatThrownBy(() -> Mcp.server(baton).path(bad))
            .isInstanceOfSatisfying(
                BatonException.class,
                e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT));
      }
    }
  }

  private static HttpResponse<String> post(URI uri, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
