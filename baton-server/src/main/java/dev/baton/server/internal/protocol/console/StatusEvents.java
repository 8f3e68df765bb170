package dev.baton.server.internal.protocol.console;

import dev.baton.core.Cancellation;
import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One request's stream of the console's live events: an SSE stream with an {@code event: status}
 * frame whenever a task the principal can see changes status while it runs ({@code pending} or
 * {@code aborting}), as the console's {@link LiveTasks} finds them.
 *
 * <p>The stream ends when the client goes away or the server shuts down (it looks each second). Not
 * thread-safe: one per request, except that frames arrive from the poller's thread.
 */
final class StatusEvents {
  private static final Duration TICK = Duration.ofSeconds(1);
  private static final long KEEP_ALIVE_TICKS = 15;
  private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

  private final LiveTasks live;
  private final @Nullable String principal;
  private final Transport transport;
  private final Cancellation cancellation;
  private final BooleanSupplier draining;
  private final LinkedBlockingQueue<byte[]> frames = new LinkedBlockingQueue<>();

  StatusEvents(
      LiveTasks live,
      @Nullable String principal,
      Transport transport,
      Cancellation cancellation,
      BooleanSupplier draining) {
    this.live = live;
    this.principal = principal;
    this.transport = transport;
    this.cancellation = cancellation;
    this.draining = draining;
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
      LiveTasks.Subscription subscription = live.subscribe(principal, frames::offer);
      try {
        stream();
      } finally {
        subscription.close();
        wake.close();
      }
      transport.write(new byte[0], true);
    } catch (IOException | InterruptedException gone) {
      failure = gone;
      if (gone instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
    } finally {
      transport.complete(failure, transport.stopWatching());
    }
  }

  private void stream() throws IOException, InterruptedException {
    long idle = 0;
    while (!cancellation.isCancelled() && !draining.getAsBoolean()) {
      byte[] frame = frames.poll(TICK.toMillis(), TimeUnit.MILLISECONDS);
      // An empty frame is the wake-up of a client that went.
      if (frame != null && frame.length > 0) {
        transport.write(frame, false);
        idle = 0;
      } else if (++idle % KEEP_ALIVE_TICKS == 0) {
        transport.write(KEEP_ALIVE, false);
      }
    }
  }
}
