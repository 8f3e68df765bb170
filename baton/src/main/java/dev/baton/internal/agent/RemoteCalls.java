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
import dev.baton.internal.http.SseReader;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
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
  private final AgentHttp http;

  RemoteCalls(String agent, RemoteAgentOptions options, Lifecycle lifecycle) {
    this.who = "remote agent \"" + agent + "\"";
    this.http = new AgentHttp(who, options, options.idleTimeout(), lifecycle);
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
        http.post(context, url, envelope)
            .header("Accept", "text/event-stream")
            .header(GenkitHttp.KEEP_ALIVE_HEADER, "true")
            .build();
    return http.exchange(
        context,
        request,
        false,
        body -> {
          SseReader frames = SseReader.genkitFrames(body);
          String data;
          while ((data = frames.next()) != null) {
            JsonNode frame = http.parseJson(data);
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
        http.post(context, url, envelope).header("Accept", "application/json").build();
    JsonNode answer = http.exchange(context, request, waiting, http::json, this::errorOf);
    if (answer.has("error") && !answer.get("error").isNull()) {
      throw GenkitHttp.errorOf(answer.get("error"));
    }
    JsonNode result = answer.get("result");
    return result == null || result.isNull() ? null : result;
  }

  private BatonException errorOf(int httpStatus, HttpHeaders headers, byte[] body) {
    return GenkitHttp.errorOf(who, httpStatus, body);
  }
}
