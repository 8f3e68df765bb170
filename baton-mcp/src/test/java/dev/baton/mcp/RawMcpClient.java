package dev.baton.mcp;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * The streamable HTTP exchanges of an MCP client, written out, for what the SDK's classic Java
 * client cannot send (a cancellation) or must not be trusted to (a refused request).
 */
final class RawMcpClient {
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI endpoint;
  private final String[] headers;
  private @Nullable String session;

  RawMcpClient(URI endpoint, String... headers) {
    this.endpoint = endpoint;
    this.headers = headers;
  }

  /** Opens a session: {@code initialize}, then {@code notifications/initialized}. */
  HttpResponse<String> initialize() throws Exception {
    HttpResponse<String> answer =
        http.send(
            request(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}"),
            HttpResponse.BodyHandlers.ofString());
    session = answer.headers().firstValue("Mcp-Session-Id").orElse(null);
    if (session != null) {
      send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").get();
    }
    return answer;
  }

  /** The session {@link #initialize} opened, if it did. */
  @Nullable String session() {
    return session;
  }

  /** Sends in this session from now on, as if this client had opened it. */
  RawMcpClient inSession(String session) {
    this.session = session;
    return this;
  }

  /** Posts one message and waits for the whole answer. */
  HttpResponse<String> post(String message) throws Exception {
    return http.send(request(message), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts one message; the answer's body once it has all arrived. */
  CompletableFuture<String> send(String message) {
    return http.sendAsync(request(message), HttpResponse.BodyHandlers.ofString())
        .thenApply(HttpResponse::body);
  }

  private HttpRequest request(String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (session != null) {
      request.header("Mcp-Session-Id", session);
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return request.build();
  }
}
