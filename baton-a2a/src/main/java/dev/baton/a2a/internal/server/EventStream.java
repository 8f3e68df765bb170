package dev.baton.a2a.internal.server;

import dev.baton.a2a.internal.wire.Event;
import dev.baton.a2a.internal.wire.JsonRpcError;
import dev.baton.a2a.internal.wire.JsonRpcResponse;
import dev.baton.core.Json;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A2A's Server-Sent Events answer: one {@code data: <JSON-RPC response>} frame per event, each
 * response carrying the request's id and an event as its result, or an error that ends the stream.
 * Written by the request's thread only.
 */
final class EventStream {
  private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);

  private final Transport transport;
  private final @Nullable JsonNode id;

  private EventStream(Transport transport, @Nullable JsonNode id) {
    this.transport = transport;
    this.id = id;
  }

  /** Sends the headers at once, so the client sees the stream begin before the first event. */
  static EventStream open(Transport transport, @Nullable JsonNode id) throws IOException {
    transport.setStatus(200);
    transport.setHeader("Content-Type", "text/event-stream");
    transport.setHeader("Cache-Control", "no-cache");
    transport.setHeader("X-Accel-Buffering", "no");
    transport.write(new byte[0], false);
    return new EventStream(transport, id);
  }

  void send(Event event) throws IOException {
    write(JsonRpcResponse.success(id, Json.toTree(event)), false);
  }

  /** Sends the last event and ends the answer. */
  void last(Event event) throws IOException {
    write(JsonRpcResponse.success(id, Json.toTree(event)), true);
  }

  /** Sends an error, which ends the answer; a client already gone is not told. */
  void error(JsonRpcError error) {
    try {
      write(JsonRpcResponse.failure(id, error), true);
    } catch (IOException gone) {
      // Nobody is left to tell.
    }
  }

  private void write(JsonRpcResponse response, boolean last) throws IOException {
    // Jackson writes on one line and escapes line breaks inside strings.
    byte[] json = Json.writeBytes(response);
    byte[] frame = new byte[DATA.length + json.length + 2];
    System.arraycopy(DATA, 0, frame, 0, DATA.length);
    System.arraycopy(json, 0, frame, DATA.length, json.length);
    frame[frame.length - 2] = '\n';
    frame[frame.length - 1] = '\n';
    transport.write(frame, last);
  }
}
