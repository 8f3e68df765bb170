package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.ModelResponseChunk;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.core.StreamCallback;
import dev.baton.internal.http.HttpCalls;
import dev.baton.internal.http.ModelEndpoint;
import dev.baton.internal.http.SseReader;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One model call through the Messages API: posts a body, reads the answer whole or as a stream, and
 * continues a paused turn.
 *
 * <p>The call streams when the caller's callback is not {@linkplain StreamCallback#isDiscarding()
 * discarding}: the body gets {@code stream: true}, and the parts each event adds (text, thinking,
 * and each tool request once its input is whole) are passed on as chunks, in order, on the calling
 * thread. A stream that ends before {@code message_stop} fails the call with {@code UNAVAILABLE}:
 * what was streamed has been passed on, but the answer is not whole.
 *
 * <p>An answer that stops with {@code pause_turn} (a server tool's long turn, paused by the API) is
 * continued as the API documents: the request is sent again with the content so far as a last
 * {@code assistant} turn, up to {@value #MAX_CONTINUATIONS} times. The response holds the content
 * of every round and the usage of every call; a turn still paused after that finishes with {@link
 * FinishReason#OTHER}.
 *
 * <p>Stateless and thread-safe.
 */
public final class MessagesCall {
  /** How many times a paused turn is continued before the call returns what it has. */
  public static final int MAX_CONTINUATIONS = 8;

  private MessagesCall() {}

  /** Posts {@code body} (which this method may change) and reads the answer. */
  public static ModelResponse run(
      ActionContext context,
      ObjectNode body,
      StreamCallback<ModelResponseChunk> stream,
      HttpCalls http,
      String provider,
      ModelEndpoint endpoint) {
    boolean streaming = !stream.isDiscarding();
    if (streaming) {
      body.put("stream", true);
    }
    ArrayNode messages = (ArrayNode) body.get("messages");
    int asked = messages.size();
    ArrayNode content = Json.nodes().arrayNode();
    GenerationUsage usage = null;
    String stopReason = null;
    long start = System.nanoTime();
    for (int round = 0; ; round++) {
      HttpRequest request = endpoint.post(streaming, Json.writeBytes(body));
      MessagesAnswer answer =
          http.exchange(context, request, in -> read(in, streaming, stream, http, provider));
      content.addAll(answer.content());
      GenerationUsage more = answer.usage();
      usage = usage == null ? more : usage.plus(more);
      stopReason = answer.stopReason();
      if (!"pause_turn".equals(stopReason) || round == MAX_CONTINUATIONS) {
        break;
      }
      while (messages.size() > asked) {
        messages.remove(messages.size() - 1);
      }
      messages.addObject().put("role", "assistant").set("content", content.deepCopy());
    }
    return response(content, stopReason, usage, (System.nanoTime() - start) / 1_000_000.0);
  }

  private static MessagesAnswer read(
      InputStream in,
      boolean streaming,
      StreamCallback<ModelResponseChunk> stream,
      HttpCalls http,
      String provider)
      throws IOException {
    MessagesAnswer answer = new MessagesAnswer(provider);
    if (!streaming) {
      answer.addMessage(http.parseJson(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
      return answer;
    }
    SseReader events = new SseReader(in);
    while (!answer.stopped()) {
      String data = events.next();
      if (data == null) {
        throw new BatonException(
            Status.UNAVAILABLE, provider + " ended the stream before the message was complete");
      }
      List<Part> parts = answer.addEvent(http.parseJson(data));
      if (!parts.isEmpty()) {
        stream.onChunk(ModelResponseChunk.of(Role.MODEL, parts));
      }
    }
    return answer;
  }

  private static ModelResponse response(
      JsonNode content,
      @Nullable String stopReason,
      @Nullable GenerationUsage usage,
      double latencyMs) {
    List<Part> parts = new ArrayList<>();
    content.forEach(block -> parts.add(MessagesAnswer.part(block)));
    FinishReason reason = MessagesAnswer.finishReason(stopReason);
    String message =
        "pause_turn".equals(stopReason)
            ? "the turn was still paused after " + MAX_CONTINUATIONS + " continuations"
            : null;
    return ModelResponse.of(new Message(Role.MODEL, parts), reason)
        .withFinish(reason, message)
        .withLatencyMs(latencyMs)
        .withUsage(usage);
  }
}
