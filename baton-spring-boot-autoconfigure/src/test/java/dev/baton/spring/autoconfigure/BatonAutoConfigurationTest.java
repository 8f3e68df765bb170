package dev.baton.spring.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.Baton;
import dev.baton.ai.MiddlewareDescriptor;
import dev.baton.ai.Model;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Tool;
import dev.baton.core.ActionType;
import dev.baton.core.Plugin;
import dev.baton.core.Registry;
import dev.baton.middleware.Retry;
import dev.baton.plugins.anthropic.Anthropic;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.openai.OpenAICompatible;
import dev.baton.plugins.vertexai.VertexAI;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/**
 * The {@link Baton} bean: built from the {@code baton.*} properties, with the model plugins whose
 * keys are found, the application's plugins and customizers, and the action beans registered with
 * it; each part replaceable by a bean of the application's.
 */
class BatonAutoConfigurationTest {
  private final ApplicationContextRunner contexts = Contexts.baton();

  private static boolean resolves(Registry registry, String model) {
    return registry.lookup(ActionType.MODEL, model).isPresent();
  }

  @Test
  void experimentalFeaturesAreOnByDefaultAndOffByProperty() {
    contexts.run(
        context -> assertThat(context.getBean(Baton.class).registry().isExperimental()).isTrue());
    contexts
        .withPropertyValues("baton.experimental=false")
        .run(
            context ->
                assertThat(context.getBean(Baton.class).registry().isExperimental()).isFalse());
  }

  @Test
  void withoutAKeyNoModelPluginIsAdded() {
    contexts.run(
        context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(Plugin.class);
          Registry registry = context.getBean(Baton.class).registry();
          assertThat(resolves(registry, "googleai/gemini-flash-latest")).isFalse();
          assertThat(resolves(registry, "openai/gpt-5")).isFalse();
        });
  }

  @Test
  void eachPluginIsAddedWhenItsEnvironmentVariableIsFound() {
    contexts
        .withPropertyValues(
            "GOOGLE_API_KEY=google-key",
            "OPENAI_BASE_URL=http://127.0.0.1:1/v1",
            "ANTHROPIC_API_KEY=anthropic-key",
            "GOOGLE_CLOUD_PROJECT=a-project")
        .run(
            context -> {
              assertThat(context)
                  .hasSingleBean(GoogleAI.class)
                  .hasSingleBean(OpenAICompatible.class)
                  .hasSingleBean(Anthropic.class)
                  .hasSingleBean(VertexAI.class);
              assertThat(context.getBean(OpenAICompatible.class).baseUrl())
                  .isEqualTo(URI.create("http://127.0.0.1:1/v1"));
              Registry registry = context.getBean(Baton.class).registry();
              assertThat(resolves(registry, "googleai/gemini-flash-latest")).isTrue();
              assertThat(resolves(registry, "openai/llama")).isTrue();
              assertThat(resolves(registry, "anthropic/claude-sonnet-4-5")).isTrue();
              assertThat(resolves(registry, "vertexai/gemini-2.5-flash")).isTrue();
            });
  }

  @Test
  void aKeyFromThePropertiesAddsThePluginAndEnabledFalseKeepsItOut() {
    contexts
        .withPropertyValues("baton.googleai.api-key=from-properties")
        .run(context -> assertThat(context).hasSingleBean(GoogleAI.class));
    contexts
        .withPropertyValues("GEMINI_API_KEY=a-key", "baton.googleai.enabled=false")
        .run(
            context -> {
              assertThat(context).doesNotHaveBean(GoogleAI.class);
              Registry registry = context.getBean(Baton.class).registry();
              assertThat(resolves(registry, "googleai/gemini-flash-latest")).isFalse();
            });
  }

  @Test
  void theOpenAiKeyVariableAloneAddsThePluginForOpenAi() {
    contexts
        .withPropertyValues("OPENAI_API_KEY=openai-key")
        .run(
            context ->
                assertThat(context.getBean(OpenAICompatible.class).baseUrl())
                    .isEqualTo(OpenAICompatible.DEFAULT_BASE_URL));
  }

  @Test
  void aPluginBeanOfTheApplicationReplacesTheAutoConfiguredOne() {
    contexts
        .withPropertyValues("GEMINI_API_KEY=a-key")
        .withUserConfiguration(OwnGoogleAi.class)
        .run(
            context -> {
              assertThat(context).hasSingleBean(GoogleAI.class);
              assertThat(context.getBean(GoogleAI.class)).isSameAs(OwnGoogleAi.PLUGIN);
            });
  }

  @Test
  void everyPluginBeanIsAddedAndCustomizersRunLastInTheirOrder() {
    contexts
        .withUserConfiguration(PluginAndCustomizers.class)
        .run(
            context -> {
              PluginAndCustomizers config = context.getBean(PluginAndCustomizers.class);
              assertThat(config.calls).containsExactly("plugin", "first", "second");
              Registry registry = context.getBean(Baton.class).registry();
              assertThat(resolves(registry, "custom/model")).isTrue();
              assertThat(resolves(registry, "customized/model")).isTrue();
            });
  }

  @Test
  void toolModelAndMiddlewareBeansAreRegisteredOnceEach() {
    contexts
        .withUserConfiguration(ActionBeansConfig.class)
        .run(
            context -> {
              assertThat(context).hasNotFailed();
              Registry registry = context.getBean(Baton.class).registry();
              assertThat(registry.lookup(ActionType.TOOL, "standalone"))
                  .containsSame(context.getBean("standaloneTool", Tool.class));
              assertThat(registry.lookup(ActionType.TOOL, "defined"))
                  .containsSame(context.getBean("definedTool", Tool.class));
              assertThat(registry.lookup(ActionType.MODEL, "bean/model"))
                  .containsSame(context.getBean(Model.class));
              assertThat(registry.lookupValue(MiddlewareDescriptor.VALUE_TYPE, "app/retry-twice"))
                  .containsSame(context.getBean(MiddlewareDescriptor.class));
            });
  }

  @Test
  void twoToolBeansOfOneNameFailTheStartNamingTheBean() {
    contexts
        .withUserConfiguration(ConflictingTools.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .rootCause()
                    .hasMessageContaining("already registered")
                    .hasMessageContaining("/tool/twice"));
    contexts
        .withUserConfiguration(ConflictingTools.class)
        .run(
            context ->
                assertThat(context)
                    .getFailure()
                    .hasStackTraceContaining(
                        "the bean 'secondTool' cannot be registered with Baton"));
  }

  @Test
  void aBatonBeanOfTheApplicationReplacesOursAndStillGetsTheActionBeans() {
    contexts
        .withUserConfiguration(OwnBaton.class, ActionBeansConfig.class)
        .run(
            context -> {
              Baton baton = context.getBean(Baton.class);
              assertThat(baton.registry().isExperimental())
                  .as("the application's, built without experimental()")
                  .isFalse();
              assertThat(baton.registry().lookup(ActionType.TOOL, "standalone")).isPresent();
            });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnGoogleAi {
    static final GoogleAI PLUGIN = GoogleAI.builder().apiKey("own").build();

    @Bean
    GoogleAI ownGoogleAi() {
      return PLUGIN;
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class PluginAndCustomizers {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Bean
    Plugin customPlugin() {
      return new ModelPlugin("custom", calls);
    }

    @Bean
    @Order(2)
    BatonCustomizer second() {
      return builder -> calls.add("second");
    }

    @Bean
    @Order(1)
    BatonCustomizer first() {
      return builder -> {
        calls.add("first");
        builder.plugin(new ModelPlugin("customized", new CopyOnWriteArrayList<>()));
      };
    }
  }

  /** A plugin that registers {@code <name>/model}, recording that the builder took it. */
  private record ModelPlugin(String name, List<String> calls) implements Plugin {
    ModelPlugin {
      calls.add("plugin");
    }

    @Override
    public void init(Registry registry) {
      registry.register(model(name + "/model"));
    }
  }

  private static Model model(String name) {
    return Model.create(
        name,
        ModelInfo.of(name, ModelInfo.Supports.ALL),
        (ctx, request, stream) -> ModelResponse.of(dev.baton.ai.Message.model("hi"), null));
  }

  private static Tool<String, String> tool(String name) {
    return Tool.create(name, "Echoes.", String.class, String.class, (ctx, in) -> in);
  }

  @Configuration(proxyBeanMethods = false)
  static class ActionBeansConfig {
    @Bean
    Tool<String, String> standaloneTool() {
      return tool("standalone");
    }

    @Bean
    Tool<String, String> definedTool(Baton baton) {
      return baton.defineTool("defined", "Echoes.", String.class, String.class, (ctx, in) -> in);
    }

    @Bean
    Model beanModel() {
      return model("bean/model");
    }

    @Bean
    MiddlewareDescriptor retryTwice() {
      return MiddlewareDescriptor.of(
          "app/retry-twice",
          "Retries twice.",
          Retry.class,
          Retry.builder().maxRetries(2).build(),
          config -> config);
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class ConflictingTools {
    @Bean
    Tool<String, String> firstTool() {
      return tool("twice");
    }

    @Bean
    Tool<String, String> secondTool() {
      return tool("twice");
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnBaton {
    @Bean
    Baton ownBaton() {
      return Baton.builder().build();
    }
  }
}
