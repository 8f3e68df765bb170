package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.Event;
import dev.baton.a2a.internal.wire.JsonRpcError;
import dev.baton.a2a.internal.wire.JsonRpcResponse;
import dev.baton.core.Json;
import dev.baton.server.internal.protocol.SseStream;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A2A's Server-Sent Events answer: one {@code data: <JSON-RPC response>} frame per event, each
 * response carrying the request's id and an event as its result, or an error that ends the stream;
 * between events, keep-alive comments. Framed by the protocol core's {@link SseStream}. Written by
 * the request's thread only.
 */
final class EventStream {
  private final SseStream sse;
  private final @Nullable JsonNode id;

  private EventStream(SseStream sse, @Nullable JsonNode id) {
    this.sse = sse;
    this.id = id;
  }

  /** Sends the headers at once, so the client sees the stream begin before the first event. */
  static EventStream open(Transport transport, @Nullable JsonNode id) throws IOException {
    return new EventStream(SseStream.open(transport), id);
  }

  void send(Event event) throws IOException {
    sse.data(Json.toTree(JsonRpcResponse.success(id, Json.toTree(event))), false);
  }

  /** Sends the last event and ends the answer. */
  void last(Event event) throws IOException {
    sse.data(Json.toTree(JsonRpcResponse.success(id, Json.toTree(event))), true);
  }

  /** Sends a comment ({@code : keep-alive}) that tells the client the stream is alive. */
  void keepAlive() throws IOException {
    sse.keepAlive();
  }

  /** Sends an error, which ends the answer; a client already gone is not told. */
  void error(JsonRpcError error) {
    try {
      sse.data(Json.toTree(JsonRpcResponse.failure(id, error)), true);
    } catch (IOException gone) {
      // Nobody is left to tell.
    }
  }
}
