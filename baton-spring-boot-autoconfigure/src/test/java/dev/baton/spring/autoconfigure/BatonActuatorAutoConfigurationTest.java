package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.SessionSnapshot;
import dev.baton.agent.SessionStore;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.plugins.openai.OpenAICompatible;
import java.net.URI;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code baton} health's verdicts, read from the indicator. */
class BatonActuatorAutoConfigurationTest {
  private final ApplicationContextRunner contexts =
      Contexts.baton()
          .withConfiguration(AutoConfigurations.of(BatonActuatorAutoConfiguration.class))
          .withUserConfiguration(TestApplication.Agents.class);

  @Test
  void aStoreThatFailsMakesItDownWithTheErrorsClassButNotItsMessage() {
    contexts
        .withBean(SessionStore.class, UnreachableStore::new)
        .run(
            context -> {
              Health health = health(context);
              assertThat(health.getStatus().getCode()).isEqualTo("DOWN");
              assertThat(health.getDetails().get("store"))
                  .isEqualTo(
                      Map.of(
                          "type",
                          UnreachableStore.class.getName(),
                          "status",
                          "unreachable",
                          "error",
                          BatonException.class.getName(),
                          "code",
                          "UNAVAILABLE"));
              assertThat(health.toString()).doesNotContain("hunter2");
            });
  }

  @Test
  void aPluginWithoutItsKeyIsADetailNotDown() {
    contexts.run(
        context -> {
          Health health = health(context);
          assertThat(health.getStatus().getCode()).isEqualTo("UP");
          assertThat(health.getDetails().get("plugins"))
              .isEqualTo(
                  Map.of(
                      "googleai",
                          "no key found: set baton.googleai.api-key, GEMINI_API_KEY or GOOGLE_API_KEY",
                      "openai",
                          "no key found: set baton.openai.api-key, baton.openai.base-url, OPENAI_API_KEY or OPENAI_BASE_URL",
                      "anthropic", "no key found: set baton.anthropic.api-key or ANTHROPIC_API_KEY",
                      "vertexai",
                          "no key found: set baton.vertexai.project or GOOGLE_CLOUD_PROJECT"));
        });
  }

  @Test
  void aPluginWithItsKeyIsConfiguredAndTheKeyIsNeverShown() {
    contexts
        .withPropertyValues("ANTHROPIC_API_KEY=sk-secret-key", "baton.googleai.enabled=true")
        .withPropertyValues("GEMINI_API_KEY=gemini-secret-key")
        .run(
            context -> {
              Health health = health(context);
              assertThat(health.getStatus().getCode()).isEqualTo("UP");
              @SuppressWarnings("unchecked")
              Map<String, String> plugins =
                  (Map<String, String>) health.getDetails().get("plugins");
              assertThat(plugins)
                  .containsEntry("anthropic", "configured")
                  .containsEntry("googleai", "configured");
              assertThat(health.toString()).doesNotContain("secret");
            });
  }

  @Test
  void aPluginAddedByACustomizerIsConfiguredEvenWhenItsPropertiesTurnItOff() {
    contexts
        .withPropertyValues("baton.openai.enabled=false")
        .withBean(
            BatonCustomizer.class,
            () ->
                builder ->
                    builder.plugin(
                        OpenAICompatible.builder()
                            .name("ollama")
                            .baseUrl(URI.create("http://127.0.0.1:11434/v1"))
                            .build()))
        .run(
            context -> {
              Health health = health(context);
              @SuppressWarnings("unchecked")
              Map<String, String> plugins =
                  (Map<String, String>) health.getDetails().get("plugins");
              assertThat(plugins)
                  .containsEntry("openai", "configured")
                  .containsEntry(
                      "anthropic",
                      "no key found: set baton.anthropic.api-key or ANTHROPIC_API_KEY");
            });
  }

  @Test
  void aRequiredPluginWithoutItsKeyFailsTheStartNamingWhereTheKeyGoes() {
    contexts
        .withPropertyValues("baton.anthropic.enabled=true")
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                        "baton.anthropic.enabled is true but no key is found: set"
                            + " baton.anthropic.api-key or ANTHROPIC_API_KEY"));
  }

  @Test
  void twoSessionStoresWithNoPrimaryStartWithoutTheHealth() {
    // No agents here: they would need one store themselves.
    Contexts.baton()
        .withConfiguration(AutoConfigurations.of(BatonActuatorAutoConfiguration.class))
        .withBean("oneStore", SessionStore.class, UnreachableStore::new)
        .withBean("otherStore", SessionStore.class, UnreachableStore::new)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              assertThat(context).doesNotHaveBean("batonHealthIndicator");
              assertThat(context).hasBean("batonInfoContributor");
            });
  }

  @Test
  void pluginsTurnedOffAreNotListed() {
    contexts
        .withPropertyValues(
            "baton.googleai.enabled=false",
            "baton.openai.enabled=false",
            "baton.anthropic.enabled=false",
            "ANTHROPIC_API_KEY=from-the-environment",
            "baton.vertexai.enabled=false")
        .run(
            context -> {
              Health health = health(context);
              assertThat(health.getStatus().getCode()).isEqualTo("UP");
              assertThat(health.getDetails().get("plugins")).isEqualTo(Map.of());
            });
  }

  @Test
  void itCanBeTurnedOff() {
    contexts
        .withPropertyValues("management.health.baton.enabled=false")
        .run(context -> assertThat(context).doesNotHaveBean(HealthIndicator.class));
  }

  private static Health health(AssertableApplicationContext context) {
    assertThat(context).hasNotFailed();
    return context.getBean("batonHealthIndicator", HealthIndicator.class).health();
  }

  /** A store whose database cannot be reached; its message carries a secret. */
  static final class UnreachableStore implements SessionStore {
    private static BatonException unreachable() {
      return BatonException.of(
          Status.UNAVAILABLE, "cannot connect to jdbc:postgresql://db/app?password=hunter2");
    }

    @Override
    public @Nullable SessionSnapshot getSnapshot(ActionContext context, String snapshotId) {
      throw unreachable();
    }

    @Override
    public @Nullable SessionSnapshot getLatestSnapshot(ActionContext context, String sessionId) {
      throw unreachable();
    }

    @Override
    public @Nullable SessionSnapshot saveSnapshot(
        ActionContext context,
        @Nullable String snapshotId,
        UnaryOperator<@Nullable SessionSnapshot> update) {
      throw unreachable();
    }
  }
}
