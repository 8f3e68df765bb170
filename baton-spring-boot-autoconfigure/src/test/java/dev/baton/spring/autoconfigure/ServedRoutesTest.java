package dev.baton.spring.autoconfigure;

import static dev.baton.server.TestHttp.envelope;
import static dev.baton.server.TestHttp.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.Message;
import dev.baton.core.Json;
import dev.baton.server.ConsoleHttp;
import dev.baton.server.TestHttp.Answer;
import dev.baton.testing.ProgrammableModel;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Which routes {@code baton.server.agents} and {@code baton.server.flows} serve, each list on its
 * own, that they serve from the moment the web server takes requests, and the task console under
 * the base path when {@code baton.console.enabled}.
 */
@Timeout(120)
class ServedRoutesTest {
  private static final Map<String, Object> HELLO = Map.of("message", Message.user("hello"));

  @Test
  void theRoutesServeAsSoonAsTheWebServerTakesRequests() {
    AtomicInteger statusAtStart = new AtomicInteger();
    ApplicationListener<WebServerInitializedEvent> atStart =
        event ->
            statusAtStart.set(
                post(url(event.getWebServer().getPort(), "/baton/flows/whoami"), envelope("?"))
                    .status());

    try (ConfigurableApplicationContext context = start(atStart)) {
      assertThat(statusAtStart.get())
          .as("the first request, as the connector opens")
          .isEqualTo(200);
    }
  }

  @Test
  void namedAgentsServeOnlyThoseAndEveryFlowStillByDefault() {
    try (ConfigurableApplicationContext context = start(null, "baton.server.agents=stateless")) {
      context.getBean(ProgrammableModel.class).respondText("hi");

      assertThat(turn(context, "/baton/agents/stateless").status()).isEqualTo(200);
      assertThat(turn(context, "/baton/agents/chat").status()).isEqualTo(404);
      assertThat(post(url(context, "/baton/flows/whoami"), envelope("?")).status()).isEqualTo(200);
    }
  }

  @Test
  void namedFlowsServeOnlyThoseAndAnEmptyAgentListServesNoAgent() {
    try (ConfigurableApplicationContext context =
        start(null, "baton.server.flows=whoami", "baton.server.agents=")) {
      assertThat(post(url(context, "/baton/flows/whoami"), envelope("?")).status()).isEqualTo(200);
      assertThat(turn(context, "/baton/agents/chat").status()).isEqualTo(404);
      assertThat(turn(context, "/baton/agents/stateless").status()).isEqualTo(404);
    }
  }

  @Test
  void emptyListsServeNothing() {
    try (ConfigurableApplicationContext context =
        start(null, "baton.server.flows=", "baton.server.agents=")) {
      assertThat(post(url(context, "/baton/flows/whoami"), envelope("?")).status()).isEqualTo(404);
      assertThat(turn(context, "/baton/agents/chat").status()).isEqualTo(404);
      assertThat(context.getBean(ProgrammableModel.class).calls()).isZero();
    }
  }

  @Test
  void theConsoleIsServedUnderTheBasePathWhenEnabled() {
    try (ConfigurableApplicationContext context = start(null, "baton.console.enabled=true")) {
      context.getBean(ProgrammableModel.class).respondText("hi");
      String sessionId = turn(context, "/baton/agents/chat").result().get("sessionId").asString();

      JsonNode info = ConsoleHttp.get(url(context, "/baton/console/api/info")).json();
      assertThat(info.get("agents")).isEqualTo(Json.toTree(List.of("chat")));
      assertThat(info.get("loopbackOnly").asBoolean()).isTrue();
      JsonNode sessions = ConsoleHttp.get(url(context, "/baton/console/api/sessions")).json();
      assertThat(sessions.at("/sessions/0/sessionId").asString()).isEqualTo(sessionId);
      assertThat(
              ConsoleHttp.get(url(context, "/baton/console/api/none"))
                  .json()
                  .at("/error/status")
                  .asString())
          .isEqualTo("NOT_FOUND");
    }
  }

  @Test
  void theConsoleIsOffByDefault() {
    BatonProperties properties =
        new Binder(new MapConfigurationPropertySource(Map.of()))
            .bindOrCreate("baton", BatonProperties.class);

    assertThat(properties.console().enabled()).isFalse();
    assertThat(properties.console().path()).isEqualTo("/console");
  }

  private static ConfigurableApplicationContext start(
      ApplicationListener<WebServerInitializedEvent> listener, String... properties) {
    SpringApplication application = new SpringApplication(ChatApp.class);
    if (listener != null) {
      application.addListeners(listener);
    }
    String[] args = new String[properties.length + 3];
    args[0] = "--server.address=127.0.0.1";
    args[1] = "--server.port=0";
    args[2] = "--spring.main.banner-mode=off";
    for (int i = 0; i < properties.length; i++) {
      args[i + 3] = "--" + properties[i];
    }
    return application.run(args);
  }

  private static Answer turn(ConfigurableApplicationContext context, String path) {
    return post(url(context, path), envelope(HELLO));
  }

  private static URI url(ConfigurableApplicationContext context, String path) {
    return url(
        Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port")), path);
  }

  private static URI url(int port, String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }
}
