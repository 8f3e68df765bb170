package dev.baton.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

class BatonServerHandlersTest {
  private static final HttpClient http = HttpClient.newHttpClient();

  /** Answers {@code /other} only, declining every other path as an MCP handler does. */
  private static final class OtherHandler extends Handler.Abstract.NonBlocking {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
      if (!"/other".equals(Request.getPathInContext(request))) {
        return false;
      }
      response.setStatus(200);
      response.write(true, ByteBuffer.wrap("other".getBytes(StandardCharsets.UTF_8)), callback);
      return true;
    }
  }

  @Test
  void requestsGoToTheFirstHandlerThatTakesThem() throws Exception {
    try (Baton baton = Baton.builder().build()) {
      baton.defineFlow("echo", String.class, String.class, (ctx, in) -> in);
      BatonHandler batonHandler = BatonHandler.builder(baton).flows("echo").build();
      try (BatonServer server =
          BatonServer.start("127.0.0.1", 0, batonHandler, new OtherHandler())) {
        HttpResponse<String> flow = post(server.uri().resolve("/flows/echo"), "{\"data\":\"hi\"}");
        HttpResponse<String> other = post(server.uri().resolve("/other"), "");
        HttpResponse<String> none = post(server.uri().resolve("/nowhere"), "");

        assertThat(flow.statusCode()).isEqualTo(200);
        assertThat(flow.body()).contains("\"result\":\"hi\"");
        assertThat(other.body()).isEqualTo("other");
        assertThat(none.statusCode()).isEqualTo(404);
      }
      // close() drained the Baton handler and stopped the server: the handler is shut down.
      assertThat(batonHandler.isShutdown()).isTrue();
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
