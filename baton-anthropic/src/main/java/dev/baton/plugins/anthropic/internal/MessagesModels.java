package dev.baton.plugins.anthropic.internal;

import dev.baton.ai.ModelInfo;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a Claude model is published as supporting: multi-turn chat, tools, tool choice, system
 * prompts and media (images and PDFs) always; JSON output constrained by a schema ({@code
 * output_config.format}) only where the platform serves it for that model.
 *
 * <p>The Anthropic API serves structured outputs on the Claude 4.1 models and later, and refuses
 * them on Claude 3.x and on the first Claude Opus 4 and Sonnet 4; a model this class does not know
 * (a newer one) is taken to serve them. Vertex AI serves them only on some models, and only once
 * the organization policy allows it, so Claude on Vertex AI is never sent them: Baton puts the
 * schema in the prompt instead, and a caller whose project allows them can still send {@code
 * output_config} through the config.
 *
 * <p>Stateless and thread-safe.
 */
public final class MessagesModels {
  /** The models the Anthropic API refuses {@code output_config.format} for, by their API name. */
  private static final Pattern WITHOUT_STRUCTURED_OUTPUT =
      Pattern.compile("claude-3.*|claude-(opus|sonnet)-4(-0)?(-\\d{8})?");

  private static final ModelInfo.Supports CONSTRAINED = withConstrained("all");
  private static final ModelInfo.Supports UNCONSTRAINED = withConstrained("none");

  private MessagesModels() {}

  /** What a model of the Anthropic API supports, by its API name. */
  public static ModelInfo.Supports supports(String model) {
    return WITHOUT_STRUCTURED_OUTPUT.matcher(model).matches() ? UNCONSTRAINED : CONSTRAINED;
  }

  /** What a Claude model on Vertex AI supports: everything but constrained output. */
  public static ModelInfo.Supports onVertexAI() {
    return UNCONSTRAINED;
  }

  private static ModelInfo.Supports withConstrained(String constrained) {
    return ModelInfo.Supports.builder()
        .multiturn(true)
        .tools(true)
        .systemRole(true)
        .media(true)
        .output(List.of("text", "json"))
        .constrained(constrained)
        .toolChoice(true)
        .build();
  }
}
