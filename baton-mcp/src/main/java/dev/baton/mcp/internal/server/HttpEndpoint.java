package dev.baton.mcp.internal.server;

import dev.baton.server.internal.HeaderCaches;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import java.util.EnumSet;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The SDK's streamable HTTP servlet in Jetty's ee10 servlet container, behind the filters, at one
 * path: a request for any other path is declined, so the handler sits beside others (a {@code
 * BatonHandler}) in one server. With context providers it refuses to start in a server whose header
 * cache ignores case, as a {@code BatonHandler} does.
 */
public final class HttpEndpoint extends Handler.Wrapper {
  private final String path;
  private final boolean readsCredentials;

  /**
   * @param readsCredentials whether the filters run context providers, which read credentials from
   *     headers
   */
  public HttpEndpoint(
      String path, HttpServlet transport, List<Filter> filters, boolean readsCredentials) {
    this.path = path;
    this.readsCredentials = readsCredentials;
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
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    return path.equals(Request.getPathInContext(request))
        && super.handle(request, response, callback);
  }
}
