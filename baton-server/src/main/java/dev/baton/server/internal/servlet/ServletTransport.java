package dev.baton.server.internal.servlet;

import dev.baton.server.internal.protocol.Transport;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A servlet request in async mode as the wire protocol sees it. Writes block and flush; a client
 * that goes away is noticed by a write that fails and by the container's {@link
 * AsyncListener#onError}, after which the request is completed here, so that the container does not
 * dispatch an error page, and what the exchange still writes fails as for a gone client.
 *
 * <p>Thread-safe: the request's thread, a keep-alive's thread and the container's listener calls
 * may race; the async context is completed once.
 */
final class ServletTransport implements Transport, AsyncListener {
  private static final Logger log = LoggerFactory.getLogger(ServletTransport.class);

  private final HttpServletRequest request;
  private final HttpServletResponse response;
  private final AsyncContext async;
  private final AtomicBoolean ended = new AtomicBoolean();
  private final AtomicBoolean gone = new AtomicBoolean();
  private final AtomicBoolean told = new AtomicBoolean();
  private volatile @Nullable Runnable onGone;

  /** Takes over a request that was put in async mode, and listens to its async context. */
  ServletTransport(HttpServletRequest request, HttpServletResponse response, AsyncContext async) {
    this.request = request;
    this.response = response;
    this.async = async;
    async.addListener(this);
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public @Nullable String remoteAddress() {
    return request.getRemoteAddr();
  }

  @Override
  public @Nullable String query() {
    return request.getQueryString();
  }

  @Override
  public @Nullable String requestHeader(String name) {
    return request.getHeader(name);
  }

  @Override
  public void forEachRequestHeader(BiConsumer<String, String> action) {
    for (Enumeration<String> names = request.getHeaderNames(); names.hasMoreElements(); ) {
      String name = names.nextElement();
      for (Enumeration<String> values = request.getHeaders(name); values.hasMoreElements(); ) {
        action.accept(name, values.nextElement());
      }
    }
  }

  @Override
  public long declaredLength() {
    return request.getContentLengthLong();
  }

  @Override
  public InputStream body() throws IOException {
    return request.getInputStream();
  }

  @Override
  public void watchClient(Runnable onGone) {
    this.onGone = onGone;
    // The container may have reported the error while the body was read.
    if (gone.get()) {
      tell(onGone);
    }
  }

  @Override
  public boolean stopWatching() {
    onGone = null;
    // A servlet cannot close its connection; it has read nothing past the request either.
    return false;
  }

  // Once the request has ended, the container may have recycled the response (Tomcat's facade
  // throws on any call): an ended request counts as committed, and what is set on it goes nowhere.

  @Override
  public boolean isCommitted() {
    if (ended.get()) {
      return true;
    }
    try {
      return response.isCommitted();
    } catch (RuntimeException recycled) {
      return true;
    }
  }

  @Override
  public void setStatus(int status) {
    if (!ended.get()) {
      try {
        response.setStatus(status);
      } catch (RuntimeException recycled) {
        log.debug("could not set the status of an ended request", recycled);
      }
    }
  }

  @Override
  public void setHeader(String name, String value) {
    if (!ended.get()) {
      try {
        response.setHeader(name, value);
      } catch (RuntimeException recycled) {
        log.debug("could not set a header of an ended request", recycled);
      }
    }
  }

  @Override
  public void write(byte[] bytes, boolean last) throws IOException {
    if (ended.get()) {
      throw new IOException("the request has ended: the client went away");
    }
    try {
      ServletOutputStream out = response.getOutputStream();
      out.write(bytes);
      out.flush();
    } catch (RuntimeException over) {
      // A container may throw so once it completed the request on an error of its own.
      throw new IOException("the request can no longer be answered", over);
    }
  }

  @Override
  public void finish(byte[] bytes) {
    Throwable failure = null;
    try {
      response.setContentLength(bytes.length);
      write(bytes, true);
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    complete(failure, false);
  }

  @Override
  public void complete(@Nullable Throwable failure, boolean closeConnection) {
    if (failure != null) {
      log.debug("could not finish an answer", failure);
    }
    if (ended.compareAndSet(false, true)) {
      try {
        async.complete();
      } catch (IllegalStateException alreadyOver) {
        // The container ended the request first.
      }
    }
  }

  @Override
  public void onError(AsyncEvent event) {
    gone.set(true);
    Runnable listener = onGone;
    if (listener != null) {
      tell(listener);
    }
    complete(event.getThrowable(), false);
  }

  /** Runs the exchange's listener once, off the container's thread. */
  private void tell(Runnable listener) {
    if (told.compareAndSet(false, true)) {
      Thread.ofVirtual().name("baton-client-gone").start(listener);
    }
  }

  @Override
  public void onComplete(AsyncEvent event) {
    ended.set(true);
  }

  @Override
  public void onTimeout(AsyncEvent event) {
    // The async context has no timeout: a long run is not an idle client.
  }

  @Override
  public void onStartAsync(AsyncEvent event) {
    // Not restarted.
  }
}
