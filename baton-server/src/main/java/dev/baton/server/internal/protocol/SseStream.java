package dev.baton.server.internal.protocol;

import dev.baton.core.ErrorInfo;
import dev.baton.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Server-Sent Events answer of a streaming request, as Genkit's clients read it: HTTP 200 with
 * {@code Content-Type: text/event-stream}, then one {@code data: <json>} line per frame, each
 * followed by a blank line: {@code {"message": <chunk>}} per chunk, and exactly one closing {@code
 * {"result": <output>}} or {@code {"error": {"status", "message"}}}. Keep-alive comments ({@code :
 * keep-alive}) go only to clients that asked for them, since Genkit JS fails on them.
 *
 * <p>Writes block until the bytes are handed to the connection. Thread-safe: the request's thread
 * writes frames while a timer writes keep-alives; a keep-alive is skipped while a frame is being
 * written, and nothing is written after the closing frame.
 */
public final class SseStream {
  private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

  private final Transport transport;
  private final ReentrantLock lock = new ReentrantLock();
  private boolean closed;

  private SseStream(Transport transport) {
    this.transport = transport;
  }

  /** Sends the headers at once, so the client sees the stream begin before the first frame. */
  public static SseStream open(Transport transport) throws IOException {
    transport.setStatus(200);
    transport.setHeader("Content-Type", "text/event-stream");
    transport.setHeader("Cache-Control", "no-cache");
    transport.setHeader("Connection", "keep-alive");
    // Proxies such as nginx would otherwise hold frames back.
    transport.setHeader("X-Accel-Buffering", "no");
    SseStream stream = new SseStream(transport);
    stream.write(false, new byte[0]);
    return stream;
  }

  /** Writes a {@code {"message": <chunk>}} frame. */
  public void message(JsonNode chunk) throws IOException {
    ObjectNode frame = Json.object();
    frame.set("message", chunk);
    write(false, frame(frame));
  }

  /** Writes the closing {@code {"result": <output>}} frame and ends the answer. */
  public void result(JsonNode output) throws IOException {
    ObjectNode frame = Json.object();
    frame.set("result", output);
    write(true, frame(frame));
  }

  /** Writes the closing {@code {"error": ...}} frame and ends the answer. */
  public void error(ErrorInfo error) throws IOException {
    ObjectNode frame = Json.object();
    frame.set("error", Json.toTree(error));
    write(true, frame(frame));
  }

  /**
   * Writes a frame of another protocol's shape ({@code data: <json>}), as A2A's streams send a
   * JSON-RPC response per event; {@code last} ends the answer.
   */
  public void data(JsonNode json, boolean last) throws IOException {
    write(last, frame(json));
  }

  /**
   * Writes a keep-alive comment unless a frame is being written or the stream has ended.
   *
   * @throws IOException when the client is gone
   */
  public void keepAlive() throws IOException {
    if (!lock.tryLock()) {
      return;
    }
    try {
      if (!closed) {
        transport.write(KEEP_ALIVE, false);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether the closing frame has been written. */
  public boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }

  private static byte[] frame(JsonNode frame) {
    // Jackson writes a tree on one line and escapes line breaks inside strings.
    byte[] json = Json.writeBytes(frame);
    byte[] bytes = new byte[json.length + 8];
    System.arraycopy("data: ".getBytes(StandardCharsets.US_ASCII), 0, bytes, 0, 6);
    System.arraycopy(json, 0, bytes, 6, json.length);
    bytes[bytes.length - 2] = '\n';
    bytes[bytes.length - 1] = '\n';
    return bytes;
  }

  private void write(boolean last, byte[] bytes) throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = last;
      transport.write(bytes, last);
    } finally {
      lock.unlock();
    }
  }
}
