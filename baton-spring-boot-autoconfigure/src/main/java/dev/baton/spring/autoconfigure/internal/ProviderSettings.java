package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * Where each model plugin's key (or project) comes from: the {@code baton.<plugin>.*} property,
 * else the provider's usual environment variable, read through Spring's {@link Environment} so that
 * a test or a profile can set it as a property. The plugin conditions and the plugin beans read
 * them here, so the two agree on when a plugin is added and what it is given.
 */
public final class ProviderSettings {
  private final BatonProperties properties;
  private final Environment environment;

  public ProviderSettings(BatonProperties properties, Environment environment) {
    this.properties = Objects.requireNonNull(properties, "properties");
    this.environment = Objects.requireNonNull(environment, "environment");
  }

  /** The Gemini API key: {@code baton.googleai.api-key}, GEMINI_API_KEY, GOOGLE_API_KEY. */
  public @Nullable String googleAiKey() {
    return first(properties.googleai().apiKey(), "GEMINI_API_KEY", "GOOGLE_API_KEY");
  }

  /**
   * The OpenAI-compatible server's base URL: {@code baton.openai.base-url}, else OPENAI_BASE_URL,
   * else null (OpenAI's own).
   */
  public @Nullable URI openAiBaseUrl() {
    URI configured = properties.openai().baseUrl();
    if (configured != null) {
      return configured;
    }
    String fromEnvironment = first(null, "OPENAI_BASE_URL");
    return fromEnvironment == null ? null : URI.create(fromEnvironment);
  }

  /**
   * The OpenAI-compatible key: {@code baton.openai.api-key}, else OPENAI_API_KEY unless {@code
   * baton.openai.base-url} names the server. As the plugin does, the variable's key goes only to
   * OpenAI or to the server OPENAI_BASE_URL names, never to a server configured apart from it.
   */
  public @Nullable String openAiKey() {
    String configured = nonBlank(properties.openai().apiKey());
    if (configured != null || properties.openai().baseUrl() != null) {
      return configured;
    }
    return first(null, "OPENAI_API_KEY");
  }

  /** The Claude key: {@code baton.anthropic.api-key}, else ANTHROPIC_API_KEY. */
  public @Nullable String anthropicKey() {
    return first(properties.anthropic().apiKey(), "ANTHROPIC_API_KEY");
  }

  /** The Google Cloud project: {@code baton.vertexai.project}, else GOOGLE_CLOUD_PROJECT. */
  public @Nullable String vertexAiProject() {
    return first(properties.vertexai().project(), "GOOGLE_CLOUD_PROJECT");
  }

  /** The Vertex AI location: {@code baton.vertexai.location}, else GOOGLE_CLOUD_LOCATION. */
  public @Nullable String vertexAiLocation() {
    return first(properties.vertexai().location(), "GOOGLE_CLOUD_LOCATION");
  }

  /** Whether the plugin is turned on and has what it needs to call its provider. */
  public boolean available(ModelProvider provider) {
    return switch (provider) {
      case GOOGLE_AI -> properties.googleai().enabled() && googleAiKey() != null;
      case OPENAI ->
          properties.openai().enabled() && (openAiKey() != null || openAiBaseUrl() != null);
      case ANTHROPIC -> properties.anthropic().enabled() && anthropicKey() != null;
      case VERTEX_AI -> properties.vertexai().enabled() && vertexAiProject() != null;
    };
  }

  private @Nullable String first(@Nullable String configured, String... variables) {
    String value = nonBlank(configured);
    for (int i = 0; value == null && i < variables.length; i++) {
      value = nonBlank(environment.getProperty(variables[i]));
    }
    return value;
  }

  private static @Nullable String nonBlank(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
