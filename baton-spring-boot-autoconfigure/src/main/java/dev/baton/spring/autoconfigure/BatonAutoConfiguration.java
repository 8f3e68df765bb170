package dev.baton.spring.autoconfigure;

import dev.baton.Baton;
import dev.baton.core.Plugin;
import dev.baton.plugins.anthropic.Anthropic;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.openai.OpenAICompatible;
import dev.baton.plugins.vertexai.VertexAI;
import dev.baton.spring.autoconfigure.internal.ActionBeans;
import dev.baton.spring.autoconfigure.internal.BatonLifecycle;
import dev.baton.spring.autoconfigure.internal.ConditionalOnProvider;
import dev.baton.spring.autoconfigure.internal.ModelProvider;
import dev.baton.spring.autoconfigure.internal.ProviderSettings;
import dev.baton.spring.autoconfigure.internal.ShutdownGrace;
import java.net.URI;
import java.util.Objects;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The {@link Baton} bean, built from the {@code baton.*} properties ({@link BatonProperties}) with
 * every {@link Plugin} bean of the context and adjusted last by the {@link BatonCustomizer} beans,
 * in their order. A {@code Baton} bean of the application's replaces it.
 *
 * <p>Each model plugin on the class path ({@code baton-googleai}, {@code baton-openai}, {@code
 * baton-anthropic}, {@code baton-vertexai}) becomes a {@code Plugin} bean when its key (or, for
 * Vertex AI, its project) is found, in the {@code baton.<plugin>.*} properties or the provider's
 * usual environment variable, unless {@code baton.<plugin>.enabled} is {@code false}. With {@code
 * baton.<plugin>.enabled=true} the application requires it: the start fails, naming the property
 * and variables to set, when its key is missing. A bean of the plugin's type that the application
 * declares replaces it.
 *
 * <p>Once every singleton exists, the {@code Tool}, {@code Model} and {@code MiddlewareDescriptor}
 * beans that the instance did not make itself are registered with it, so prompts and agents find
 * them by name. A bare {@code Middleware} bean is not: middleware is registered through its
 * descriptor, and such a bean is logged as a warning. When the context closes, the instance closes
 * after the web server has stopped: it waits for the turns and detached runs in flight up to {@code
 * baton.shutdown-grace} (by default Spring Boot's {@code
 * spring.lifecycle.timeout-per-shutdown-phase}, 30 seconds unless set), then aborts what is left so
 * that detached runs settle as resumable rows.
 */
@AutoConfiguration
@EnableConfigurationProperties(BatonProperties.class)
public class BatonAutoConfiguration {

  /** Created by Spring. */
  public BatonAutoConfiguration() {}

  @Bean
  @ConditionalOnMissingBean
  Baton baton(
      BatonProperties properties,
      Environment environment,
      ObjectProvider<Plugin> plugins,
      ObjectProvider<BatonCustomizer> customizers) {
    Baton.Builder builder = Baton.builder();
    if (properties.experimental()) {
      builder.experimental();
    }
    builder.traceContent(
        Objects.requireNonNullElseGet(
            properties.traceContent(), () -> "dev".equals(environment.getProperty("GENKIT_ENV"))));
    builder.shutdownGrace(ShutdownGrace.of(properties, environment));
    plugins.orderedStream().forEach(builder::plugin);
    customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    return builder.build();
  }

  @Bean
  ActionBeans batonActionBeans(ListableBeanFactory beans, Baton baton) {
    return new ActionBeans(beans, baton);
  }

  @Bean
  BatonLifecycle batonLifecycle(Baton baton) {
    return new BatonLifecycle(baton);
  }

  /** The Gemini API plugin. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(GoogleAI.class)
  static class GoogleAiPlugin {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProvider(ModelProvider.GOOGLE_AI)
    GoogleAI googleAiPlugin(BatonProperties properties, Environment environment) {
      ProviderSettings settings = settings(properties, environment);
      settings.requireKey(ModelProvider.GOOGLE_AI);
      String key = Objects.requireNonNull(settings.googleAiKey());
      return GoogleAI.builder().apiKey(key).build();
    }
  }

  /** The OpenAI-compatible plugin. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(OpenAICompatible.class)
  static class OpenAiPlugin {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProvider(ModelProvider.OPENAI)
    OpenAICompatible openAiPlugin(BatonProperties properties, Environment environment) {
      ProviderSettings settings = settings(properties, environment);
      settings.requireKey(ModelProvider.OPENAI);
      URI baseUrl = settings.openAiBaseUrl();
      // An explicit base URL, so that the plugin reads no environment variable of its own.
      return OpenAICompatible.builder()
          .baseUrl(baseUrl != null ? baseUrl : OpenAICompatible.DEFAULT_BASE_URL)
          .apiKey(settings.openAiKey())
          .build();
    }
  }

  /** The Claude plugin. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(Anthropic.class)
  static class AnthropicPlugin {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProvider(ModelProvider.ANTHROPIC)
    Anthropic anthropicPlugin(BatonProperties properties, Environment environment) {
      ProviderSettings settings = settings(properties, environment);
      settings.requireKey(ModelProvider.ANTHROPIC);
      String key = Objects.requireNonNull(settings.anthropicKey());
      return Anthropic.builder().apiKey(key).build();
    }
  }

  /** The Vertex AI plugin, which authenticates with Application Default Credentials. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(VertexAI.class)
  static class VertexAiPlugin {
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProvider(ModelProvider.VERTEX_AI)
    VertexAI vertexAiPlugin(BatonProperties properties, Environment environment) {
      ProviderSettings settings = settings(properties, environment);
      settings.requireKey(ModelProvider.VERTEX_AI);
      String location = settings.vertexAiLocation();
      return VertexAI.builder()
          .project(Objects.requireNonNull(settings.vertexAiProject()))
          .location(location != null ? location : VertexAI.DEFAULT_LOCATION)
          .build();
    }
  }

  private static ProviderSettings settings(BatonProperties properties, Environment environment) {
    return new ProviderSettings(properties, environment);
  }
}
