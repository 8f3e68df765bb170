package dev.baton.server.internal;

import dev.baton.server.internal.protocol.Transport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.function.BiConsumer;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/**
 * A request to a Jetty core handler as the wire protocol sees it. The client watch reads the
 * connection for its end while the run goes on ({@link ClientWatch}), so a client that goes away is
 * noticed even while nothing is written to it.
 */
public final class JettyTransport implements Transport {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private @Nullable ClientWatch watch;

  /** The transport of a request a handler took, which {@code callback} completes. */
  public JettyTransport(Request request, Response response, Callback callback) {
    this.request = request;
    this.response = response;
    this.callback = callback;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public @Nullable String remoteAddress() {
    return Request.getRemoteAddr(request);
  }

  @Override
  public @Nullable String query() {
    return request.getHttpURI().getQuery();
  }

  @Override
  public @Nullable String requestHeader(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public void forEachRequestHeader(BiConsumer<String, String> action) {
    for (HttpField field : request.getHeaders()) {
      action.accept(field.getName(), field.getValue());
    }
  }

  @Override
  public long declaredLength() {
    return request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
  }

  @Override
  public InputStream body() {
    return Request.asInputStream(request);
  }

  @Override
  public void watchClient(Runnable onGone) {
    watch = ClientWatch.start(request, onGone);
  }

  @Override
  public boolean stopWatching() {
    ClientWatch current = watch;
    return current != null && current.stop();
  }

  @Override
  public boolean isCommitted() {
    return response.isCommitted();
  }

  @Override
  public void setStatus(int status) {
    response.setStatus(status);
  }

  @Override
  public void setHeader(String name, String value) {
    response.getHeaders().put(name, value);
  }

  @Override
  public void write(byte[] bytes, boolean last) throws IOException {
    try (Blocker.Callback written = Blocker.callback()) {
      response.write(last, ByteBuffer.wrap(bytes), written);
      written.block();
    }
  }

  @Override
  public void finish(byte[] bytes) {
    response.write(
        true,
        ByteBuffer.wrap(bytes),
        Callback.from(callback::succeeded, failure -> callback.failed(failure)));
  }

  @Override
  public void complete(@Nullable Throwable failure, boolean closeConnection) {
    if (failure != null) {
      callback.failed(failure);
    } else {
      callback.succeeded();
    }
    if (closeConnection) {
      request.getConnectionMetaData().getConnection().getEndPoint().close();
    }
  }
}
