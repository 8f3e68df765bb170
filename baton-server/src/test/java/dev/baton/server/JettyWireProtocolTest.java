package dev.baton.server;

import dev.baton.Baton;
import java.net.URI;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The wire-protocol contract on Jetty's core handler, {@link BatonHandler} on {@link BatonServer}.
 */
class JettyWireProtocolTest extends WireProtocolContract {
  private @Nullable BatonServer server;

  @Override
  protected URI serve(Baton baton, List<ContextProvider> providers) {
    BatonHandler.Builder handler =
        BatonHandler.builder(baton)
            .allAgents()
            .allFlows()
            .maxRequestBytes(MAX_REQUEST_BYTES)
            .keepAliveInterval(KEEP_ALIVE_INTERVAL);
    providers.forEach(handler::contextProvider);
    BatonServer started = BatonServer.start(handler.build(), "127.0.0.1", 0);
    server = started;
    return started.uri();
  }

  @Override
  protected void stopServing() {
    if (server != null) {
      server.close();
    }
  }
}
