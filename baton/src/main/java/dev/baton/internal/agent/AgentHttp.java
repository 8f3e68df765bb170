package dev.baton.internal.agent;

import dev.baton.agent.HttpAgentOptions;
import dev.baton.core.ActionContext;
import dev.baton.core.Json;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.http.HttpCalls;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.databind.JsonNode;

/**
 * The HTTP side of a client of an agent served by another process, whatever protocol it speaks
 * (Genkit's, A2A's): the client to send with (the application's, or one of Baton's own that stops
 * with the instance), requests that carry the options' headers, and exchanges bounded by the
 * options' timeout. What an answer means, errors included, is the protocol's.
 *
 * <p>Thread-safe.
 */
public final class AgentHttp {
  private final HttpAgentOptions options;
  private final HttpCalls calls;
  private final HttpCalls waits;

  /**
   * @param who how messages name the agent, such as {@code remote agent "researcher"}
   * @param idleTimeout how long one read of an answer that is not a wait may stay silent
   */
  public AgentHttp(
      String who, HttpAgentOptions options, Duration idleTimeout, Lifecycle lifecycle) {
    this.options = options;
    HttpClient given = options.httpClient();
    HttpClient client = given != null ? given : ownClient(lifecycle);
    this.calls = new HttpCalls(client, options.timeout(), idleTimeout, who);
    // A wait is silent until what it waits for settles: only the whole call's timeout bounds it.
    this.waits = new HttpCalls(client, options.timeout(), options.timeout(), who);
  }

  /**
   * A client of Baton's own, whose selector thread stops when the instance closes; the
   * application's client is the application's to close.
   */
  private static HttpClient ownClient(Lifecycle lifecycle) {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    lifecycle.onClose(client::shutdownNow);
    return client;
  }

  /** A POST of {@code body} as JSON, with the headers of a request made under {@code context}. */
  public HttpRequest.Builder post(ActionContext context, URI url, Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.writeBytes(body)))
            .header("Content-Type", "application/json");
    options.headers(context).forEach(request::header);
    return request;
  }

  /** A GET of JSON, with the headers of a request made under {@code context}. */
  public HttpRequest.Builder get(ActionContext context, URI url) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url).GET().header("Accept", "application/json");
    options.headers(context).forEach(request::header);
    return request;
  }

  /**
   * Sends the request and reads its answer, as {@link HttpCalls#exchange(ActionContext,
   * HttpRequest, HttpCalls.BodyReader, HttpCalls.ErrorReader)} does.
   *
   * @param waiting whether the answer may stay silent until the whole call's timeout (a wait)
   */
  public <T> T exchange(
      ActionContext context,
      HttpRequest request,
      boolean waiting,
      HttpCalls.BodyReader<T> reader,
      HttpCalls.ErrorReader errors) {
    return (waiting ? waits : calls).exchange(context, request, reader, errors);
  }

  /** A whole answer's body as JSON; see {@link HttpCalls#parseJson}. */
  public JsonNode json(InputStream body) throws IOException {
    return parseJson(new String(body.readAllBytes(), StandardCharsets.UTF_8));
  }

  /** JSON that a successful answer carried; see {@link HttpCalls#parseJson}. */
  public JsonNode parseJson(String text) {
    return calls.parseJson(text);
  }
}
