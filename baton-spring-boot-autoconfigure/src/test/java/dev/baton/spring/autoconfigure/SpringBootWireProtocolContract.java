package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.server.ContextProvider;
import dev.baton.server.WireProtocolContract;
import java.net.URI;
import java.util.List;

/**
 * The wire-protocol contract, served by the auto-configuration in a {@link ContractApp} per test; a
 * subclass per servlet container adds that container's own checks.
 */
abstract class SpringBootWireProtocolContract extends WireProtocolContract {
  /** The application serving the current test. */
  final ContractApp.Running app = new ContractApp.Running();

  @Override
  protected URI serve(Baton baton, List<ContextProvider> providers) {
    return app.start(baton, providers, MAX_REQUEST_BYTES, KEEP_ALIVE_INTERVAL);
  }

  @Override
  protected void stopServing() {
    app.stop();
  }
}
