package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.server.ContextProvider;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.PropertySource;

/**
 * A Spring Boot application that serves the wire-protocol contract's fixture: its Baton instance
 * and context providers become the application's beans, served by the auto-configuration under
 * {@code /baton}. One application per test, since the contract gives each test a fresh instance.
 */
@WithoutSecurityOrJdbc
// No OTLP export: the test machine has no collector on localhost.
@PropertySource("classpath:dev/baton/spring/autoconfigure/test-application.properties")
class ContractApp {
  /** The running application of one test, and where it serves. */
  static final class Running {
    private @Nullable ConfigurableApplicationContext context;

    /**
     * Starts an application that serves {@code baton} with a body limit of {@code maxRequestBytes}
     * and keep-alives every {@code keepAliveInterval}, and answers the routes' base URI.
     */
    URI start(
        Baton baton,
        List<ContextProvider> providers,
        long maxRequestBytes,
        Duration keepAliveInterval) {
      SpringApplication application = new SpringApplication(ContractApp.class);
      application.setDefaultProperties(
          Map.of(
              "server.address", "127.0.0.1",
              "server.port", "0",
              "baton.server.max-request-size", maxRequestBytes + "B",
              "baton.server.keep-alive-interval", keepAliveInterval.toMillis() + "ms",
              "baton.shutdown-grace", "5s",
              "spring.main.banner-mode", "off"));
      application.addInitializers(
          context -> {
            // The contract closes the instance itself, after the application.
            context.getBeanFactory().registerSingleton("baton", baton);
            for (int i = 0; i < providers.size(); i++) {
              context.getBeanFactory().registerSingleton("contextProvider" + i, providers.get(i));
            }
          });
      ConfigurableApplicationContext started = application.run();
      context = started;
      return URI.create("http://127.0.0.1:" + webServer().getPort() + "/baton");
    }

    /** The server the application runs on. */
    WebServer webServer() {
      if (!(context instanceof WebServerApplicationContext web)) {
        throw new IllegalStateException("not running");
      }
      return web.getWebServer();
    }

    void stop() {
      if (context != null) {
        context.close();
        context = null;
      }
    }
  }
}
