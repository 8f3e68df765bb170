package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Which model plugins the application has and whether each can call its provider, for the health
 * report: a plugin is listed when its module is on the class path and it is not turned off, and it
 * is {@code configured} when the context has the plugin as a bean (the auto-configuration's, made
 * because a key was found, or the application's own) and otherwise reports the key it misses. Keys
 * themselves are never reported.
 */
public final class ProviderKeys {
  /** What a plugin that has its key reports. */
  public static final String CONFIGURED = "configured";

  private final ProviderSettings settings;
  private final BatonProperties properties;
  private final ListableBeanFactory beans;
  private final @Nullable ClassLoader classLoader;

  /**
   * @param properties which plugins are turned off
   * @param settings where each plugin's key comes from
   * @param beans where the plugin beans are looked for
   * @param classLoader where the plugins' modules are looked for
   */
  public ProviderKeys(
      BatonProperties properties,
      ProviderSettings settings,
      ListableBeanFactory beans,
      @Nullable ClassLoader classLoader) {
    this.properties = Objects.requireNonNull(properties, "properties");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.beans = Objects.requireNonNull(beans, "beans");
    this.classLoader = classLoader;
  }

  /**
   * Each listed plugin by its property name ({@code googleai}, ...): {@link #CONFIGURED}, or what
   * it misses, as {@code "no key: set baton.anthropic.api-key or ANTHROPIC_API_KEY"}.
   */
  public Map<String, String> states() {
    Map<String, String> states = new LinkedHashMap<>();
    for (ModelProvider provider : ModelProvider.values()) {
      Facts facts = facts(provider);
      if (!facts.enabled || !ClassUtils.isPresent(facts.pluginClass, classLoader)) {
        continue;
      }
      boolean bean =
          beans.getBeanNamesForType(ClassUtils.resolveClassName(facts.pluginClass, classLoader))
                  .length
              > 0;
      states.put(
          facts.name,
          bean || settings.available(provider) ? CONFIGURED : "no key: set " + facts.key);
    }
    return states;
  }

  private record Facts(String name, String pluginClass, boolean enabled, String key) {}

  private Facts facts(ModelProvider provider) {
    return switch (provider) {
      case GOOGLE_AI ->
          new Facts(
              "googleai",
              "dev.baton.plugins.googleai.GoogleAI",
              properties.googleai().enabled(),
              "baton.googleai.api-key, GEMINI_API_KEY or GOOGLE_API_KEY");
      case OPENAI ->
          new Facts(
              "openai",
              "dev.baton.plugins.openai.OpenAICompatible",
              properties.openai().enabled(),
              "baton.openai.api-key, baton.openai.base-url, OPENAI_API_KEY or OPENAI_BASE_URL");
      case ANTHROPIC ->
          new Facts(
              "anthropic",
              "dev.baton.plugins.anthropic.Anthropic",
              properties.anthropic().enabled(),
              "baton.anthropic.api-key or ANTHROPIC_API_KEY");
      case VERTEX_AI ->
          new Facts(
              "vertexai",
              "dev.baton.plugins.vertexai.VertexAI",
              properties.vertexai().enabled(),
              "baton.vertexai.project or GOOGLE_CLOUD_PROJECT");
    };
  }
}
