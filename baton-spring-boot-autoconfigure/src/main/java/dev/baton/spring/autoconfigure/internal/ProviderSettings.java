package dev.baton.spring.autoconfigure.internal;

import dev.baton.spring.autoconfigure.BatonProperties;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * Where each model plugin's key (or project) comes from: the {@code baton.<plugin>.*} property,
 * else the provider's usual environment variable, read through Spring's {@link Environment} so that
 * a test or a profile can set it as a property. The plugin conditions and the plugin beans read
 * them here, so the two agree on when a plugin is added and what it is given. Immutable once made;
 * it reads the environment on each call, so it is as thread-safe as the {@code Environment}.
 */
public final class ProviderSettings {
  private final BatonProperties properties;
  private final Environment environment;

  /**
   * @param properties the {@code baton.*} properties
   * @param environment where the providers' environment variables are read
   */
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
    if (fromEnvironment == null) {
      return null;
    }
    try {
      return new URI(fromEnvironment);
    } catch (URISyntaxException e) {
      // Named, since the failure surfaces while conditions are evaluated, far from this code.
      throw new IllegalStateException(
          "OPENAI_BASE_URL is not a valid URL (" + e.getReason() + "): fix it or unset it", e);
    }
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

  /**
   * Whether the plugin's key (or project, or for OpenAI-compatible servers a base URL) is found.
   */
  public boolean keyFound(ModelProvider provider) {
    return switch (provider) {
      case GOOGLE_AI -> googleAiKey() != null;
      case OPENAI -> openAiKey() != null || openAiBaseUrl() != null;
      case ANTHROPIC -> anthropicKey() != null;
      case VERTEX_AI -> vertexAiProject() != null;
    };
  }

  /** Whether {@code baton.<plugin>.enabled} is false. */
  public boolean disabled(ModelProvider provider) {
    return Boolean.FALSE.equals(provider.enabled(properties));
  }

  /**
   * Whether the auto-configuration adds the plugin: {@code baton.<plugin>.enabled} is true, or it
   * is unset and the key is found.
   */
  public boolean wanted(ModelProvider provider) {
    Boolean enabled = provider.enabled(properties);
    return enabled == null ? keyFound(provider) : enabled;
  }

  /**
   * Fails when a plugin that is being created has no key: the application requires it.
   *
   * @throws IllegalStateException naming where the key would come from
   */
  public void requireKey(ModelProvider provider) {
    if (!keyFound(provider)) {
      throw new IllegalStateException(provider.missingKeyMessage());
    }
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
