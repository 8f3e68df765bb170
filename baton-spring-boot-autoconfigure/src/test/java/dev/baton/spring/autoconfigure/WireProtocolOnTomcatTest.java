package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.server.ContextProvider;
import dev.baton.server.WireProtocolContract;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.TomcatWebServer;

/** The wire-protocol contract, served by the auto-configuration on Spring Boot's Tomcat. */
class WireProtocolOnTomcatTest extends WireProtocolContract {
  private final ContractApp.Running app = new ContractApp.Running();

  @Override
  protected URI serve(Baton baton, List<ContextProvider> providers) {
    return app.start(baton, providers, MAX_REQUEST_BYTES);
  }

  @Override
  protected void stopServing() {
    app.stop();
  }

  @Test
  void theApplicationRunsOnTomcat() {
    assertThat(app.webServer()).isInstanceOf(TomcatWebServer.class);
  }
}
