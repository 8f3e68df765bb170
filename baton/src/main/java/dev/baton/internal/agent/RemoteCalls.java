package dev.baton.internal.agent;

import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentInput;
import dev.baton.agent.AgentOutput;
import dev.baton.agent.AgentStreamChunk;
import dev.baton.agent.RemoteAgentOptions;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.Lifecycle;
import dev.baton.internal.http.GenkitHttp;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.SseReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The HTTP exchanges of a remote agent, in Genkit's wire format: a turn is a POST of {@code
 * {"data": <input>, "init": <init>}} answered with an SSE stream of {@code {"message": <chunk>}}
 * frames ending in a {@code {"result": <output>}} or an {@code {"error": ...}} frame (on a {@code
 * data:} line, as Go and Baton write it, or an {@code error:} line, as JS does); a companion call
 * is a POST of {@code {"data": <request>}} answered with {@code {"result": <response>}}.
 *
 * <p>Every request carries the options' headers, {@code init} is always sent ({@code {}} for a
 * fresh session, since Genkit JS rejects a turn without one), and a turn asks for keep-alive
 * comments, which Baton servers send and others ignore. Errors keep the status the server gave,
 * whether in a frame or as an HTTP answer ({@link GenkitHttp#errorOf(String, int, byte[])}).
 *
 * <p>Thread-safe.
 */
final class RemoteCalls {
  private final String who;
  private final RemoteAgentOptions options;
  private final HttpCalls calls;
  private final HttpCalls waits;

  RemoteCalls(String agent, RemoteAgentOptions options, Lifecycle lifecycle) {
    this.who = "remote agent \"" + agent + "\"";
    this.options = options;
    HttpClient given = options.httpClient();
    HttpClient client = given != null ? given : ownClient(lifecycle);
    this.calls = new HttpCalls(client, options.timeout(), options.idleTimeout(), who);
    // A wait is silent until its snapshot settles: only the whole call's timeout bounds it.
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

  /** Runs one turn, streaming its chunks, and returns its output. */
  AgentOutput turn(
      ActionContext context,
      URI url,
      AgentInput input,
      AgentInit init,
      StreamCallback<AgentStreamChunk> stream) {
    ObjectNode envelope = Json.object();
    envelope.set("data", Json.toTree(input));
    envelope.set("init", Json.toTree(init));
    HttpRequest request =
        request(context, url, envelope)
            .header("Accept", "text/event-stream")
            .header(GenkitHttp.KEEP_ALIVE_HEADER, "true")
            .build();
    return calls.exchange(
        context,
        request,
        body -> {
          SseReader frames = SseReader.genkitFrames(body);
          String data;
          while ((data = frames.next()) != null) {
            JsonNode frame = calls.parseJson(data);
            if (frame.has("message")) {
              stream.onChunk(Json.convert(frame.get("message"), AgentStreamChunk.class));
            } else if (frame.has("result")) {
              return Json.convert(frame.get("result"), AgentOutput.class);
            } else if (frame.has("error")) {
              throw GenkitHttp.errorOf(frame.get("error"));
            }
            // Any other frame is from a newer protocol; what matters still follows.
          }
          throw new BatonException(
              Status.UNAVAILABLE, who + " ended its answer without a result", null, true, null);
        },
        this::errorOf);
  }

  /**
   * Calls a companion route and returns its {@code result}, or null when the answer has none.
   *
   * @param waiting whether the call may stay silent until the whole call's timeout
   */
  @Nullable JsonNode companion(
      ActionContext context, URI url, Map<String, String> data, boolean waiting) {
    ObjectNode envelope = Json.object();
    envelope.set("data", Json.toTree(data));
    HttpRequest request =
        request(context, url, envelope).header("Accept", "application/json").build();
    JsonNode answer =
        (waiting ? waits : calls)
            .exchange(
                context,
                request,
                body -> calls.parseJson(new String(body.readAllBytes(), StandardCharsets.UTF_8)),
                this::errorOf);
    if (answer.has("error") && !answer.get("error").isNull()) {
      throw GenkitHttp.errorOf(answer.get("error"));
    }
    JsonNode result = answer.get("result");
    return result == null || result.isNull() ? null : result;
  }

  private HttpRequest.Builder request(ActionContext context, URI url, JsonNode envelope) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(url)
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.writeBytes(envelope)))
            .header("Content-Type", "application/json");
    options.headers(context).forEach(builder::header);
    return builder;
  }

  private BatonException errorOf(int httpStatus, HttpHeaders headers, byte[] body) {
    return GenkitHttp.errorOf(who, httpStatus, body);
  }
}
