package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.spring.autoconfigure.internal.DevToolsLifecycle;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/** Genkit's reflection API for the Baton bean: off unless asked for, served once ready. */
class BatonDevToolsAutoConfigurationTest {
  private final ApplicationContextRunner contexts =
      Contexts.baton()
          .withConfiguration(AutoConfigurations.of(BatonDevToolsAutoConfiguration.class));

  @Test
  void offByDefault() {
    contexts.run(context -> assertThat(context).doesNotHaveBean(DevToolsLifecycle.class));
  }

  @Test
  void onWhenGenkitEnvIsDevUnlessTurnedOff() {
    contexts
        .withPropertyValues("GENKIT_ENV=dev")
        .run(context -> assertThat(context).hasSingleBean(DevToolsLifecycle.class));
    contexts
        .withPropertyValues("GENKIT_ENV=dev", "baton.devtools.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(DevToolsLifecycle.class));
  }

  @Test
  void whenEnabledTheReflectionApiAnswersOnceTheApplicationIsReadyAndStopsWithIt()
      throws Exception {
    DevToolsLifecycle devTools;
    URI url;
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(TestApplication.class)
            .web(WebApplicationType.NONE)
            .properties(Contexts.NO_PROVIDER_VARIABLES)
            .properties("baton.devtools.enabled=true", "GENKIT_REFLECTION_PORT=0")
            .run()) {
      devTools = context.getBean(DevToolsLifecycle.class);
      url = devTools.url().orElseThrow();
      HttpResponse<String> health =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(url.resolve("/api/__health")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      HttpResponse<String> actions =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(url.resolve("/api/actions")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(actions.body()).contains("/agent/" + TestApplication.ASSISTANT);
    }
    assertThat(devTools.url()).isEmpty();
  }
}
