package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.jetty.JettyWebServer;

/**
 * The wire-protocol contract, served by the auto-configuration on Spring Boot's Jetty. Tagged
 * {@code jetty}, it runs in a test execution of its own whose class path has Jetty and no Tomcat.
 */
@Tag("jetty")
class WireProtocolOnJettyTest extends SpringBootWireProtocolContract {
  @Test
  void theApplicationRunsOnJetty() {
    assertThat(app.webServer()).isInstanceOf(JettyWebServer.class);
  }

  @Test
  void noConnectionReadsACredentialAsAnotherThatDiffersOnlyInCase() {
    Server server = ((JettyWebServer) app.webServer()).getServer();
    assertThat(server.getConnectors())
        .isNotEmpty()
        .allSatisfy(
            connector ->
                assertThat(
                        connector
                            .getConnectionFactory(HttpConnectionFactory.class)
                            .getHttpConfiguration()
                            .isHeaderCacheCaseSensitive())
                    .isTrue());
  }
}
