package dev.baton.samples.basicagents;

import dev.baton.core.Plugin;
import dev.baton.plugins.googleai.GoogleAI;
import dev.baton.plugins.openai.OpenAICompatible;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which model the sample talks to, chosen from the environment: Gemini when {@code GEMINI_API_KEY}
 * (or {@code GOOGLE_API_KEY}) is set, an OpenAI-compatible server when {@code OPENAI_API_KEY} or
 * {@code OPENAI_BASE_URL} is, and otherwise the scripted demo model. {@code BATON_MODEL} overrides
 * the model name.
 *
 * @param plugin the provider's plugin, or null for the demo model
 * @param model the model name the agents use
 * @param label what the chat's banner says
 */
record Provider(@Nullable Plugin plugin, String model, String label) {

  boolean isDemo() {
    return plugin == null;
  }

  static Provider choose(Map<String, String> env) {
    String geminiKey = firstSet(env, "GEMINI_API_KEY", "GOOGLE_API_KEY");
    if (geminiKey != null) {
      String model = env.getOrDefault("BATON_MODEL", "googleai/gemini-flash-latest");
      return new Provider(
          GoogleAI.builder().apiKey(geminiKey).build(), model, "Gemini API, " + model);
    }
    String openAiKey = firstSet(env, "OPENAI_API_KEY");
    String baseUrl = firstSet(env, "OPENAI_BASE_URL");
    if (openAiKey != null || baseUrl != null) {
      OpenAICompatible.Builder openAi = OpenAICompatible.builder();
      if (baseUrl != null) {
        openAi.baseUrl(URI.create(baseUrl));
      }
      if (openAiKey != null) {
        openAi.apiKey(openAiKey);
      }
      String model =
          env.getOrDefault(
              "BATON_MODEL", "openai/" + env.getOrDefault("OPENAI_MODEL", "gpt-4o-mini"));
      String where = baseUrl != null ? baseUrl : "OpenAI";
      return new Provider(openAi.build(), model, where + ", " + model);
    }
    return new Provider(null, DemoModel.NAME, "scripted demo model (no provider configured)");
  }

  private static @Nullable String firstSet(Map<String, String> env, String... names) {
    for (String name : names) {
      String value = env.get(name);
      if (value != null && !value.isBlank()) {
        return value;
      }
    }
    return null;
  }
}
