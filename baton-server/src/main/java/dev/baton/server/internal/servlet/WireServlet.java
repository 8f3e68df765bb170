package dev.baton.server.internal.servlet;

import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.server.internal.protocol.Route;
import dev.baton.server.internal.protocol.WireProtocol;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Serves a {@link WireProtocol} on a Servlet 6 container, mapped at {@code <base-path>/*}: the path
 * info is the route's path, so {@code <base-path>/agents/<name>} runs a turn. The wire is the Jetty
 * binding's: the same routes, envelope, size limit (413), keep-alives, error tiers and principals.
 * A path no route takes answers 404 with Genkit's JSON error body, and a non-POST request on a
 * route 405.
 *
 * <p>Register it with async support ({@code setAsyncSupported(true)}): each request goes async (no
 * timeout: a long run is not an idle client) and runs on a virtual thread of its own; writes block,
 * and each SSE frame is flushed. {@link RequestAuth} runs first, on the container's thread, and its
 * auth context is merged before the context providers'.
 *
 * <p><b>Clients that go away</b> are noticed by a write that fails (a stream's chunk, a keep-alive
 * comment) and by the container's {@code AsyncListener.onError}. A servlet cannot read its
 * connection while it handles a request, as the Jetty binding does, so a silent client on a request
 * that is not streamed, and a stream between chunks without keep-alives, are noticed only when the
 * answer is written: until then their run goes on. Clients that need a run cancelled as soon as
 * they go should stream with keep-alives.
 *
 * <p>The task console, when the protocol serves one, answers at its path under the same base path.
 *
 * <p>The servlet neither starts nor stops the protocol: its owner does, starting it before the
 * container serves and shutting it down (gracefully) before the container stops. A request that
 * arrives while the protocol is not started answers 503. Thread-safe.
 */
public final class WireServlet extends HttpServlet {
  private static final long serialVersionUID = 1L;

  private final transient WireProtocol protocol;
  private final transient RequestAuth requestAuth;

  /**
   * A servlet for {@code protocol}, taking each request's auth context from the container through
   * {@code requestAuth} ({@link RequestAuth#NONE} for none).
   */
  public WireServlet(WireProtocol protocol, RequestAuth requestAuth) {
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    this.requestAuth = Objects.requireNonNull(requestAuth, "requestAuth");
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) {
    String path = request.getPathInfo();
    if (path != null && protocol.isConsole(path)) {
      serveConsole(path, request, response);
      return;
    }
    Route route = path == null ? null : protocol.route(path);
    @Nullable Map<String, ?> auth = null;
    Throwable refused = null;
    if (route != null) {
      try {
        auth = requestAuth.of(request);
      } catch (RuntimeException e) {
        refused = e;
      }
    }
    AsyncContext async = request.startAsync();
    async.setTimeout(0);
    ServletTransport transport = new ServletTransport(request, response, async);
    if (route == null) {
      protocol.refuse(
          transport, BatonException.notFound("nothing is served at %s", path == null ? "/" : path));
    } else if (refused != null) {
      protocol.refuse(transport, refused);
    } else if (!protocol.serve(route, transport, auth)) {
      protocol.refuse(
          transport, BatonException.of(Status.UNAVAILABLE, "the server is not serving yet"));
    }
  }

  /** Serves the task console, with the same auth context as the agent routes. */
  private void serveConsole(String path, HttpServletRequest request, HttpServletResponse response) {
    @Nullable Map<String, ?> auth = null;
    Throwable refused = null;
    try {
      auth = requestAuth.of(request);
    } catch (RuntimeException e) {
      refused = e;
    }
    AsyncContext async = request.startAsync();
    async.setTimeout(0);
    ServletTransport transport = new ServletTransport(request, response, async);
    if (refused != null) {
      protocol.refuseConsole(transport, refused);
    } else if (!protocol.serveConsole(path, transport, auth)) {
      protocol.refuseConsole(
          transport, BatonException.of(Status.UNAVAILABLE, "the server is not serving yet"));
    }
  }
}
