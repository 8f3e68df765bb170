package dev.baton.samples.basicagents;

import com.google.auth.oauth2.GoogleCredentials;
import dev.baton.core.Plugin;
import dev.baton.plugins.anthropic.Anthropic;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.openai.OpenAICompatible;
import dev.baton.plugins.vertexai.VertexAI;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Which model the sample talks to, chosen from the environment, first match wins:
 *
 * <ol>
 *   <li>{@code GEMINI_API_KEY}: the Gemini API, {@code googleai/gemini-flash-latest};
 *   <li>{@code ANTHROPIC_API_KEY}: Claude through the Anthropic API, {@code
 *       anthropic/claude-sonnet-4-5};
 *   <li>{@code OPENAI_API_KEY} or {@code OPENAI_BASE_URL}: an OpenAI-compatible server, model
 *       {@code openai/$OPENAI_MODEL}. Without {@code OPENAI_BASE_URL} that is OpenAI itself and
 *       {@code OPENAI_MODEL} defaults to {@code gpt-4o-mini}; with it the server is someone else's,
 *       whose models this sample cannot guess, so {@code OPENAI_MODEL} (or {@code BATON_MODEL}) is
 *       required;
 *   <li>{@code GOOGLE_CLOUD_PROJECT}, with Google Cloud's Application Default Credentials
 *       available: Vertex AI in that project, {@code vertexai/gemini-2.5-flash} (name a Claude
 *       model such as {@code vertexai/claude-sonnet-4-5@20250929} with {@code BATON_MODEL}), in
 *       {@code GOOGLE_CLOUD_LOCATION} or else {@code global};
 *   <li>{@code GOOGLE_API_KEY}: the Gemini API, as for {@code GEMINI_API_KEY}. This and {@code
 *       GOOGLE_CLOUD_PROJECT} come after the explicit settings because they are often set for other
 *       Google tools, and must not override an explicit Anthropic or OpenAI-compatible setup;
 *   <li>otherwise the scripted demo model.
 * </ol>
 *
 * {@code BATON_MODEL} overrides the model name of a real provider.
 *
 * @param plugin the provider's plugin, or null for the demo model
 * @param model the model name the agents use
 * @param label what the chat's banner says
 */
record Provider(@Nullable Plugin plugin, String model, String label) {

  boolean isDemo() {
    return plugin == null;
  }

  /**
   * The provider the environment asks for.
   *
   * @throws IllegalArgumentException when the settings are incomplete or invalid, with a message
   *     that says what to set
   */
  static Provider choose(Map<String, String> env) {
    return choose(env, Provider::applicationDefaultCredentials);
  }

  /**
   * The provider the environment asks for, with {@code credentials} giving Google Cloud's
   * Application Default Credentials, or null when there are none.
   */
  static Provider choose(
      Map<String, String> env, Supplier<@Nullable GoogleCredentials> credentials) {
    String geminiKey = setting(env, "GEMINI_API_KEY");
    if (geminiKey != null) {
      return gemini(env, geminiKey);
    }
    String anthropicKey = setting(env, "ANTHROPIC_API_KEY");
    if (anthropicKey != null) {
      String model =
          Objects.requireNonNullElse(setting(env, "BATON_MODEL"), "anthropic/claude-sonnet-4-5");
      return new Provider(
          Anthropic.builder().apiKey(anthropicKey).build(), model, "Anthropic API, " + model);
    }
    String openAiKey = setting(env, "OPENAI_API_KEY");
    String baseUrl = setting(env, "OPENAI_BASE_URL");
    if (openAiKey != null || baseUrl != null) {
      return openAi(env, openAiKey, baseUrl);
    }
    String project = setting(env, "GOOGLE_CLOUD_PROJECT");
    GoogleCredentials adc = project != null ? credentials.get() : null;
    if (project != null && adc != null) {
      return vertex(env, project, adc);
    }
    String googleKey = setting(env, "GOOGLE_API_KEY");
    if (googleKey != null) {
      return gemini(env, googleKey);
    }
    return new Provider(null, DemoModel.NAME, "scripted demo model (no provider configured)");
  }

  private static Provider gemini(Map<String, String> env, String key) {
    String model =
        Objects.requireNonNullElse(setting(env, "BATON_MODEL"), "googleai/gemini-flash-latest");
    return new Provider(GoogleAI.builder().apiKey(key).build(), model, "Gemini API, " + model);
  }

  private static Provider vertex(
      Map<String, String> env, String project, GoogleCredentials credentials) {
    String model =
        Objects.requireNonNullElse(setting(env, "BATON_MODEL"), "vertexai/gemini-2.5-flash");
    VertexAI.Builder builder = VertexAI.builder().project(project).credentials(credentials);
    String location = setting(env, "GOOGLE_CLOUD_LOCATION");
    if (location != null) {
      builder.location(location);
    }
    String where = location != null ? location : VertexAI.DEFAULT_LOCATION;
    return new Provider(
        builder.build(), model, "Vertex AI, " + project + " in " + where + ", " + model);
  }

  /** Google Cloud's Application Default Credentials, or null when none are set up. */
  private static @Nullable GoogleCredentials applicationDefaultCredentials() {
    try {
      return GoogleCredentials.getApplicationDefault();
    } catch (IOException e) {
      return null;
    }
  }

  private static Provider openAi(
      Map<String, String> env, @Nullable String key, @Nullable String baseUrl) {
    String openAiModel = setting(env, "OPENAI_MODEL");
    String model = setting(env, "BATON_MODEL");
    if (model == null) {
      if (openAiModel == null && baseUrl != null) {
        throw new IllegalArgumentException(
            "OPENAI_BASE_URL is set to "
                + baseUrl
                + " but no model is named: set OPENAI_MODEL to one that server serves"
                + " (for Ollama, say, OPENAI_MODEL=llama3.2).");
      }
      model = "openai/" + (openAiModel != null ? openAiModel : "gpt-4o-mini");
    }
    OpenAICompatible.Builder builder = OpenAICompatible.builder();
    if (baseUrl != null) {
      builder.baseUrl(URI.create(baseUrl));
    }
    if (key != null) {
      builder.apiKey(key);
    }
    String where = baseUrl != null ? baseUrl : "OpenAI";
    return new Provider(builder.build(), model, where + ", " + model);
  }

  /** The variable's value, or null when it is unset or blank. */
  private static @Nullable String setting(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }
}
