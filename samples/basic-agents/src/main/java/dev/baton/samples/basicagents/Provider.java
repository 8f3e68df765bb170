package dev.baton.samples.basicagents;

import dev.baton.core.Plugin;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.openai.OpenAICompatible;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which model the sample talks to, chosen from the environment, first match wins:
 *
 * <ol>
 *   <li>{@code GEMINI_API_KEY}: the Gemini API, {@code googleai/gemini-flash-latest};
 *   <li>{@code OPENAI_API_KEY} or {@code OPENAI_BASE_URL}: an OpenAI-compatible server, model
 *       {@code openai/$OPENAI_MODEL}. Without {@code OPENAI_BASE_URL} that is OpenAI itself and
 *       {@code OPENAI_MODEL} defaults to {@code gpt-4o-mini}; with it the server is someone else's,
 *       whose models this sample cannot guess, so {@code OPENAI_MODEL} (or {@code BATON_MODEL}) is
 *       required;
 *   <li>{@code GOOGLE_API_KEY}: the Gemini API, as for {@code GEMINI_API_KEY}. It comes after the
 *       OpenAI settings because it is often set for other Google tools, and must not override an
 *       explicit OpenAI-compatible setup;
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
    String geminiKey = setting(env, "GEMINI_API_KEY");
    if (geminiKey != null) {
      return gemini(env, geminiKey);
    }
    String openAiKey = setting(env, "OPENAI_API_KEY");
    String baseUrl = setting(env, "OPENAI_BASE_URL");
    if (openAiKey != null || baseUrl != null) {
      return openAi(env, openAiKey, baseUrl);
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
