package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import org.jspecify.annotations.Nullable;

/**
 * The model plugins the auto-configuration adds when they are on the class path, each with the
 * facts the conditions, the plugin beans and the health report share: its property name, its plugin
 * class and where its key comes from. Constants are immutable and safe to share between threads.
 */
public enum ModelProvider {
  /** {@code baton-googleai}, the Gemini API. */
  GOOGLE_AI(
      "googleai",
      "dev.baton.plugins.googleai.GoogleAI",
      "baton.googleai.api-key, GEMINI_API_KEY or GOOGLE_API_KEY"),
  /** {@code baton-openai}, OpenAI and compatible servers. */
  OPENAI(
      "openai",
      "dev.baton.plugins.openai.OpenAICompatible",
      "baton.openai.api-key, baton.openai.base-url, OPENAI_API_KEY or OPENAI_BASE_URL"),
  /** {@code baton-anthropic}, Claude. */
  ANTHROPIC(
      "anthropic",
      "dev.baton.plugins.anthropic.Anthropic",
      "baton.anthropic.api-key or ANTHROPIC_API_KEY"),
  /** {@code baton-vertexai}, Vertex AI. */
  VERTEX_AI(
      "vertexai",
      "dev.baton.plugins.vertexai.VertexAI",
      "baton.vertexai.project or GOOGLE_CLOUD_PROJECT");

  private final String propertyName;
  private final String pluginClass;
  private final String keySources;

  ModelProvider(String propertyName, String pluginClass, String keySources) {
    this.propertyName = propertyName;
    this.pluginClass = pluginClass;
    this.keySources = keySources;
  }

  /** The plugin's name under {@code baton.}, such as {@code googleai}. */
  public String propertyName() {
    return propertyName;
  }

  /** The plugin's class, by name, so that a module absent from the class path is not loaded. */
  public String pluginClass() {
    return pluginClass;
  }

  /** The properties and variables the key (or project) is read from, for messages. */
  public String keySources() {
    return keySources;
  }

  /**
   * {@code baton.<plugin>.enabled}: null (added when its key is found), true (required: the start
   * fails without its key) or false (never added).
   */
  public @Nullable Boolean enabled(BatonProperties properties) {
    return switch (this) {
      case GOOGLE_AI -> properties.googleai().enabled();
      case OPENAI -> properties.openai().enabled();
      case ANTHROPIC -> properties.anthropic().enabled();
      case VERTEX_AI -> properties.vertexai().enabled();
    };
  }

  /** Why a required plugin cannot be created, naming where its key would come from. */
  public String missingKeyMessage() {
    return "baton." + propertyName + ".enabled is true but no key is found: set " + keySources;
  }
}
