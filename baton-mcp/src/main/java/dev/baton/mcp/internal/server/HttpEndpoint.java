package dev.baton.mcp.internal.server;

import dev.baton.server.internal.HeaderCaches;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;

/**
 * The SDK's streamable HTTP servlet in Jetty's ee10 servlet container, behind the filters, at one
 * path: a request for any other path is declined, so the handler sits beside others (a {@code
 * BatonHandler}) in one server. With context providers it refuses to start in a server whose header
 * cache ignores case, as a {@code BatonHandler} does.
 *
 * <p>It drains as a {@code BatonHandler} does: a graceful shutdown ({@code BatonServer.close()})
 * answers new POSTs 503 and waits for the running ones (every call is one), for as long as the
 * server gives it; when the server stops, the calls left are cancelled. A client's listening stream
 * (a GET) is not waited for: it never ends by itself.
 */
public final class HttpEndpoint extends Handler.Wrapper implements Graceful {
  private final String path;
  private final boolean readsCredentials;
  private final ToolCalls calls;
  private final AtomicInteger posts = new AtomicInteger();
  private final CompletableFuture<Void> drained = new CompletableFuture<>();
  private volatile boolean shuttingDown;

  /**
   * @param readsCredentials whether the filters run context providers, which read credentials from
   *     headers
   */
  public HttpEndpoint(
      String path,
      HttpServlet transport,
      List<Filter> filters,
      boolean readsCredentials,
      ToolCalls calls) {
    this.path = path;
    this.readsCredentials = readsCredentials;
    this.calls = calls;
    ServletContextHandler context = new ServletContextHandler("/");
    for (Filter filter : filters) {
      FilterHolder holder = new FilterHolder(filter);
      holder.setAsyncSupported(true);
      context.addFilter(holder, path, EnumSet.of(DispatcherType.REQUEST));
    }
    ServletHolder servlet = new ServletHolder(transport);
    servlet.setAsyncSupported(true);
    context.addServlet(servlet, path);
    setHandler(context);
  }

  @Override
  protected void doStart() throws Exception {
    if (readsCredentials) {
      HeaderCaches.requireCaseSensitive(getServer(), "The MCP handler");
    }
    super.doStart();
  }

  @Override
  protected void doStop() throws Exception {
    calls.cancelAll();
    super.doStop();
  }

  @Override
  public CompletableFuture<Void> shutdown() {
    shuttingDown = true;
    if (posts.get() == 0) {
      drained.complete(null);
    }
    return drained;
  }

  @Override
  public boolean isShutdown() {
    return shuttingDown;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!path.equals(Request.getPathInContext(request))) {
      return false;
    }
    if (!"POST".equals(request.getMethod())) {
      return super.handle(request, response, callback);
    }
    // Counted before the check, so that a shutdown either sees this request or is seen by it.
    posts.incrementAndGet();
    if (shuttingDown) {
      ended();
      Response.writeError(request, response, callback, 503, "the MCP server is shutting down");
      return true;
    }
    boolean handled = false;
    try {
      handled = super.handle(request, response, Callback.from(callback, this::ended));
      return handled;
    } finally {
      if (!handled) {
        ended();
      }
    }
  }

  private void ended() {
    if (posts.decrementAndGet() == 0 && shuttingDown) {
      drained.complete(null);
    }
  }
}
