package dev.baton.server.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a client that closes its connection while its request is being handled, so the run it
 * started can be cancelled even while nothing is being written to it.
 *
 * <p>Jetty reads nothing from an HTTP/1 connection while a request is handled, so a client that
 * goes away is noticed only at the next write. Once the request body has been read, this watch asks
 * the connection to report readable data; for a client that does not pipeline (neither the JDK's
 * client nor Node's does), the only thing that can arrive is the end of the stream, and it calls
 * {@code onGone}. A byte that does arrive (a pipelined request) cannot be given back, so the
 * connection is closed after the answer instead. Idle timeouts are ignored while the request is
 * handled: a long run is not an idle client. On HTTP/2 and other protocols Jetty reports a reset
 * stream through the request's failure listener, which the watch also uses.
 *
 * <p>Thread-safe: the connection's callback, the request's thread and {@link #stop} may race.
 */
public final class ClientWatch {
  private static final Logger log = LoggerFactory.getLogger(ClientWatch.class);

  // A marker told apart by identity, without a stack trace or suppressed exceptions to change.
  @SuppressWarnings("StaticAssignmentOfThrowable")
  private static final Throwable STOPPED = new StoppedWatching();

  private final Runnable onGone;
  private final AtomicBoolean gone = new AtomicBoolean();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final AtomicBoolean pipelined = new AtomicBoolean();
  private final @Nullable AbstractEndPoint endPoint;

  private ClientWatch(@Nullable AbstractEndPoint endPoint, Runnable onGone) {
    this.endPoint = endPoint;
    this.onGone = onGone;
  }

  /**
   * Starts watching a request whose body has been read; {@code onGone} runs at most once, on a
   * virtual thread.
   */
  public static ClientWatch start(Request request, Runnable onGone) {
    request.addIdleTimeoutListener(timeout -> false);
    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
    HttpVersion version = request.getConnectionMetaData().getHttpVersion();
    boolean http1 = version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0;
    ClientWatch watch =
        new ClientWatch(
            http1 && endPoint instanceof AbstractEndPoint abstractEndPoint
                ? abstractEndPoint
                : null,
            onGone);
    request.addFailureListener(failure -> watch.gone());
    watch.arm();
    return watch;
  }

  /**
   * Stops watching, before the answer completes, so the connection can read its next request.
   *
   * @return whether the connection must be closed after the answer (a byte arrived meanwhile)
   */
  public boolean stop() {
    AbstractEndPoint connection = endPoint;
    if (stopped.compareAndSet(false, true) && connection != null) {
      connection.getFillInterest().onFail(STOPPED);
    }
    return pipelined.get();
  }

  /** Whether the client went away. */
  public boolean isGone() {
    return gone.get();
  }

  private void arm() {
    AbstractEndPoint connection = endPoint;
    if (connection == null || stopped.get()) {
      return;
    }
    if (!connection.tryFillInterested(
        new Callback() {
          @Override
          public void succeeded() {
            readable(connection);
          }

          @Override
          public void failed(Throwable x) {
            if (x == STOPPED || stopped.get()) {
              return;
            }
            if (connection.isOpen()) {
              arm(); // an idle timeout, say: keep watching
            } else {
              gone();
            }
          }

          @Override
          public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
          }
        })) {
      log.debug("the connection is already being read; not watching it");
    }
  }

  private void readable(AbstractEndPoint connection) {
    if (stopped.get()) {
      return;
    }
    ByteBuffer one = BufferUtil.allocate(1);
    try {
      int read = connection.fill(one);
      if (read < 0) {
        gone();
      } else if (read > 0) {
        pipelined.set(true);
      } else {
        arm();
      }
    } catch (IOException e) {
      gone();
    }
  }

  private void gone() {
    if (gone.compareAndSet(false, true)) {
      Thread.ofVirtual().name("baton-client-gone").start(onGone);
    }
  }

  /** The reason the watch's read interest is withdrawn. */
  private static final class StoppedWatching extends Exception {
    private static final long serialVersionUID = 1L;

    StoppedWatching() {
      super("stopped watching the client", null, false, false);
    }
  }
}
