package dev.baton.spring.autoconfigure.internal;

import dev.baton.server.internal.protocol.WireProtocol;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the served wire protocol when it is created and drains it on the context's stop, in a
 * phase that stops before Spring Boot's web server begins its own graceful shutdown (phase {@code
 * DEFAULT_PHASE - 1024}): new Baton requests are refused with 503 while running ones, and the
 * detached runs they started, get what the {@link ShutdownDeadline} has left to finish, and the
 * requests still running then are cancelled before the web server stops taking requests. The {@code
 * Baton} bean closes later still, after the web server has stopped, within what then remains of the
 * same deadline.
 *
 * <p>The protocol serves from the moment this bean exists, which is before the web server opens its
 * connectors (phase {@code DEFAULT_PHASE - 2048}, lower than this lifecycle's, so earlier):
 * starting it in this lifecycle's own phase would answer the first requests 503. After a stop, a
 * restart of the context starts it again.
 *
 * <p>Thread-safe: Spring calls it from the thread that refreshes or closes the context.
 */
public final class WireProtocolLifecycle implements SmartLifecycle {
  /** The phase of this lifecycle: higher phases stop first. */
  public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

  private final WireProtocol protocol;
  private final ShutdownDeadline deadline;
  private volatile boolean running;

  /**
   * A lifecycle for {@code protocol}, which it starts at once, and drains and stops within {@code
   * deadline}.
   */
  public WireProtocolLifecycle(WireProtocol protocol, ShutdownDeadline deadline) {
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    this.deadline = Objects.requireNonNull(deadline, "deadline");
    protocol.start();
    running = true;
  }

  /** The protocol this lifecycle starts and drains. */
  public WireProtocol protocol() {
    return protocol;
  }

  @Override
  public void start() {
    protocol.start();
    running = true;
  }

  @Override
  public void stop() {
    throw new UnsupportedOperationException("stopped only through stop(Runnable)");
  }

  /**
   * Drains the protocol, then stops it and tells Spring; the drain runs off the calling thread, so
   * other lifecycles of this phase stop alongside it.
   */
  @Override
  // What the drain's future completes with reaches Spring through the callback.
  @SuppressWarnings("FutureReturnValueIgnored")
  public void stop(Runnable callback) {
    running = false;
    protocol
        .shutdown(deadline.remaining())
        .whenComplete(
            (ignored, failure) -> {
              try {
                protocol.stop();
              } finally {
                callback.run();
              }
            });
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
