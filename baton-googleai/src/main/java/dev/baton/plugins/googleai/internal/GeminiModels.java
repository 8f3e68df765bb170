package dev.baton.plugins.googleai.internal;

import dev.baton.ai.ModelInfo;
import java.util.List;

/**
 * What a Gemini model is published as supporting, on the Gemini API and on Vertex AI alike.
 *
 * <p>Stateless and thread-safe.
 */
public final class GeminiModels {
  /**
   * Multi-turn chat, tools, tool choice, system instructions, media, and JSON output constrained by
   * a schema except together with tools ({@code "no-tools"}), which not every Gemini model accepts.
   */
  public static final ModelInfo.Supports SUPPORTS =
      ModelInfo.Supports.builder()
          .multiturn(true)
          .tools(true)
          .systemRole(true)
          .media(true)
          .output(List.of("text", "json"))
          .constrained("no-tools")
          .toolChoice(true)
          .build();

  private GeminiModels() {}
}
