package dev.baton.mcp.internal.server;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpServerSession;
import java.io.InputStream;
import java.io.OutputStream;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's stdio transport, which tells the ID of the one session it serves, so that the calls
 * still running in it can be cancelled when its input ends.
 */
public final class StdioTransport extends StdioServerTransportProvider {
  private volatile @Nullable String sessionId;

  public StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out) {
    super(mapper, in, out);
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    super.setSessionFactory(
        transport -> {
          McpServerSession session = factory.create(transport);
          sessionId = session.getId();
          return session;
        });
  }

  /** The session's ID, once the server has opened it. */
  public @Nullable String sessionId() {
    return sessionId;
  }
}
