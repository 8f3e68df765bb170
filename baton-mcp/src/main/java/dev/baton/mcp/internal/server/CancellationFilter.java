package dev.baton.mcp.internal.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Gives a client's {@code notifications/cancelled} its effect, which the SDK's classic server
 * leaves unhandled: a {@code tools/call} request is tagged with its {@link CallKey} (the MCP
 * session and the JSON-RPC ID) for the tool's run to register under, and a cancellation naming that
 * key cancels the run. The body is parsed with the SDK's own JSON-RPC reader and then passed on
 * unchanged; a body it cannot read is left to the SDK to answer.
 */
public final class CancellationFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;

  private final transient ToolCalls calls;
  private final transient McpJsonMapper mapper;
  private final int maxBodyBytes;

  public CancellationFilter(ToolCalls calls, McpJsonMapper mapper, int maxBodyBytes) {
    this.calls = calls;
    this.mapper = mapper;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String session = request.getHeader(HttpHeaders.MCP_SESSION_ID);
    if (!"POST".equals(request.getMethod()) || session == null) {
      chain.doFilter(request, response);
      return;
    }
    byte[] body;
    try (InputStream in = request.getInputStream()) {
      // One byte over the limit is enough for the SDK to refuse the body as too large.
      body = in.readNBytes(maxBodyBytes + 1);
    }
    JSONRPCMessage message = read(mapper, body);
    if (message instanceof JSONRPCRequest call
        && McpSchema.METHOD_TOOLS_CALL.equals(call.method())) {
      request.setAttribute(RequestScope.CALL, CallKey.of(session, call.id()));
    } else if (message instanceof JSONRPCNotification notification
        && "notifications/cancelled".equals(notification.method())
        && notification.params() instanceof Map<?, ?> params
        && params.get("requestId") != null) {
      calls.cancel(CallKey.of(session, params.get("requestId")));
    }
    chain.doFilter(new ReadBody(request, body), response);
  }

  private static @Nullable JSONRPCMessage read(McpJsonMapper mapper, byte[] body) {
    try {
      return McpSchema.deserializeJsonRpcMessage(mapper, new String(body, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException unreadable) {
      return null;
    }
  }

  /** The request with the body this filter already read. */
  private static final class ReadBody extends HttpServletRequestWrapper {
    private final byte[] body;

    ReadBody(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() {
          return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) {
          return in.read(buffer, offset, length);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("the body is already read");
        }
      };
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }

    @Override
    public int getContentLength() {
      return body.length;
    }
  }
}
