package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.sun.net.httpserver.HttpServer;
import dev.baton.Baton;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.Model;
import dev.baton.ai.ModelRequest;
import dev.baton.core.StreamCallback;
import dev.baton.plugins.anthropic.Anthropic;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What {@code baton.<plugin>.*} and the providers' variables do to the model plugins: a required
 * plugin, the OpenAI key kept from a configured server, a malformed base URL, and a {@code
 * Middleware} bean that is not registered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class ModelPluginPropertiesTest {
  private final ApplicationContextRunner contexts = Contexts.baton();

  @Test
  void aRequiredPluginWithItsKeyIsAddedAndOneOfTheApplicationNeedsNoKey() {
    contexts
        .withPropertyValues("baton.anthropic.enabled=true", "ANTHROPIC_API_KEY=a-key")
        .run(context -> assertThat(context).hasNotFailed().hasSingleBean(Anthropic.class));
    contexts
        .withPropertyValues("baton.anthropic.enabled=true")
        .withUserConfiguration(OwnAnthropic.class)
        .run(context -> assertThat(context.getBean(Anthropic.class)).isSameAs(OwnAnthropic.PLUGIN));
  }

  @Test
  void theOpenAiKeyVariableNeverReachesAServerTheBaseUrlPropertyNames() throws Exception {
    ConcurrentLinkedQueue<String> authorizations = new ConcurrentLinkedQueue<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          authorizations.add(
              String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
          exchange.sendResponseHeaders(400, -1);
          exchange.close();
        });
    server.start();
    try {
      contexts
          .withPropertyValues(
              "OPENAI_API_KEY=sk-openai-secret",
              "baton.openai.base-url=http://127.0.0.1:" + server.getAddress().getPort() + "/v1")
          .run(
              context -> {
                Baton baton = context.getBean(Baton.class);
                Throwable failure =
                    catchThrowable(
                        () ->
                            Model.lookup(baton.registry(), "openai/local-model")
                                .run(
                                    baton.context(),
                                    ModelRequest.of(List.of(Message.user("Hi"))),
                                    StreamCallback.discard()));
                assertThat(failure).as("the server answers 400").isNotNull();
              });
    } finally {
      server.stop(0);
    }
    assertThat(authorizations).isNotEmpty().noneMatch(header -> header.contains("sk-openai"));
  }

  @Test
  void aMalformedOpenAiBaseUrlVariableFailsTheStartNamingIt() {
    contexts
        .withPropertyValues("OPENAI_BASE_URL=http://bad host/v1")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining(
                        "IllegalStateException: OPENAI_BASE_URL is not a valid URL (Illegal"
                            + " character in authority): fix it or unset it"));
  }

  @Test
  void aMiddlewareBeanIsNotRegisteredAndIsNamedInAWarning(CapturedOutput output) {
    contexts
        .withUserConfiguration(BareMiddleware.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(output)
                  .contains("the bean 'bareMiddleware' is a Middleware")
                  .contains("MiddlewareDescriptor");
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnAnthropic {
    static final Anthropic PLUGIN = Anthropic.builder().apiKey("own").build();

    @Bean
    Anthropic ownAnthropic() {
      return PLUGIN;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class BareMiddleware {
    @Bean
    Middleware bareMiddleware() {
      return Middleware.of("app/bare", context -> Hooks.NONE);
    }
  }
}
