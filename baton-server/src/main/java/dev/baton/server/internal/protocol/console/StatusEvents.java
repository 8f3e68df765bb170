package dev.baton.server.internal.protocol.console;

import dev.baton.core.Cancellation;
import dev.baton.core.Json;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One request's stream of the console's live events: an SSE stream with an {@code event: status}
 * frame whenever a task the caller can see changes status while it runs ({@code pending} or {@code
 * aborting}), as the console's {@link LiveTasks} finds them.
 *
 * <p>The stream ends when the client goes away or the server shuts down (it looks each second). It
 * also ends, with an {@code event: end} frame saying why, when the client reads too slowly to take
 * {@link #MAX_QUEUED} frames (they are dropped rather than held without end), and after {@link
 * #MAX_LIFETIME}, so that the reconnect the browser's {@code EventSource} makes runs the context
 * providers again on fresh credentials. Not thread-safe: one per request, except that frames arrive
 * from the poller's thread.
 */
final class StatusEvents {
  private static final Duration TICK = Duration.ofSeconds(1);
  private static final long KEEP_ALIVE_TICKS = 15;
  private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

  /** How many frames wait for a slow client before its stream ends. */
  static final int MAX_QUEUED = 1_000;

  /** How long a stream lasts before it ends, for the client to reconnect as its caller now. */
  static final Duration MAX_LIFETIME = Duration.ofMinutes(30);

  private final LiveTasks live;
  private final Map<String, ?> auth;
  private final Transport transport;
  private final Cancellation cancellation;
  private final BooleanSupplier draining;
  private final Duration lifetime;
  private final LinkedBlockingQueue<byte[]> frames;
  // Set on the poller's thread when a frame found the queue full.
  private volatile boolean behind;

  /**
   * @param auth the caller's auth context, which says what tasks it sees
   */
  StatusEvents(
      LiveTasks live,
      Map<String, ?> auth,
      Transport transport,
      Cancellation cancellation,
      BooleanSupplier draining) {
    this(live, auth, transport, cancellation, draining, MAX_QUEUED, MAX_LIFETIME);
  }

  StatusEvents(
      LiveTasks live,
      Map<String, ?> auth,
      Transport transport,
      Cancellation cancellation,
      BooleanSupplier draining,
      int maxQueued,
      Duration lifetime) {
    this.live = live;
    this.auth = auth;
    this.transport = transport;
    this.cancellation = cancellation;
    this.draining = draining;
    this.lifetime = lifetime;
    this.frames = new LinkedBlockingQueue<>(maxQueued);
  }

  /** Streams until the client goes or the server drains, then ends the answer. */
  void run() {
    Throwable failure = null;
    try {
      transport.setStatus(200);
      transport.setHeader("Content-Type", "text/event-stream");
      transport.setHeader("Cache-Control", "no-store");
      transport.setHeader("X-Accel-Buffering", "no");
      Answers.secure(transport);
      transport.write(new byte[0], false);
      transport.watchClient(cancellation::cancel);
      Cancellation.Registration wake = cancellation.onCancel(() -> frames.offer(new byte[0]));
      LiveTasks.Subscription subscription = live.subscribe(auth, this::queue);
      String end;
      try {
        end = stream();
      } finally {
        subscription.close();
        wake.close();
      }
      transport.write(end == null ? new byte[0] : endFrame(end), true);
    } catch (IOException | InterruptedException gone) {
      failure = gone;
      if (gone instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    } finally {
      transport.complete(failure, transport.stopWatching());
    }
  }

  /** Queues a frame from the poller, which must not wait for a slow client. */
  private void queue(byte[] frame) {
    if (!frames.offer(frame)) {
      behind = true;
    }
  }

  /**
   * Writes the frames until the stream ends.
   *
   * @return why the client should reconnect ({@code behind} or {@code lifetime}), or null when it
   *     went or the server is shutting down
   */
  private @Nullable String stream() throws IOException, InterruptedException {
    long idle = 0;
    long deadline = System.nanoTime() + lifetime.toNanos();
    while (!cancellation.isCancelled() && !draining.getAsBoolean()) {
      if (behind) {
        return "behind";
      }
      if (System.nanoTime() - deadline >= 0) {
        return "lifetime";
      }
      byte[] frame = frames.poll(TICK.toMillis(), TimeUnit.MILLISECONDS);
      // An empty frame is the wake-up of a client that went.
      if (frame != null && frame.length > 0) {
        transport.write(frame, false);
        idle = 0;
      } else if (++idle % KEEP_ALIVE_TICKS == 0) {
        transport.write(KEEP_ALIVE, false);
      }
    }
    return null;
  }

  private static byte[] endFrame(String reason) {
    ObjectNode data = Json.object();
    data.put("reason", reason);
    return ("event: end\ndata: " + Json.write(data) + "\n\n").getBytes(StandardCharsets.UTF_8);
  }
}
