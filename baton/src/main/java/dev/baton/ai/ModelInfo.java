package dev.baton.ai;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a model supports, published under the descriptor's {@code metadata.model}. The generate loop
 * reads it: a model without native constrained output gets schema instructions instead.
 */
public record ModelInfo(
    @Nullable String label, Supports supports, @Nullable List<String> versions) {

  /** A model that supports multi-turn chat, tools, system messages and native JSON output. */
  public static ModelInfo full(String label) {
    return new ModelInfo(label, Supports.ALL, null);
  }

  /**
   * Capabilities, by Genkit's names. {@code constrained} is {@code "none"}, {@code "all"} or {@code
   * "no-tools"}; {@code output} lists the formats the model can produce natively.
   */
  public record Supports(
      @Nullable Boolean multiturn,
      @Nullable Boolean tools,
      @Nullable Boolean systemRole,
      @Nullable Boolean media,
      @Nullable List<String> output,
      @Nullable String constrained,
      @Nullable Boolean toolChoice) {

    public static final Supports ALL =
        new Supports(true, true, true, true, List.of("text", "json"), "all", true);

    /** Text chat with tools, without native constrained output. */
    public static final Supports TEXT_ONLY =
        new Supports(true, true, true, false, List.of("text"), "none", true);
  }
}
