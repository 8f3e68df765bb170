package dev.baton.plugins.anthropic.internal;

/**
 * The {@code max_tokens} sent when neither the config nor the plugin names one. The API requires
 * the field and refuses a value above the model's output limit. Claude 3 Haiku and Opus allow 4096
 * output tokens and the Claude 3.5 models 8192, so they get their limit; later models allow far
 * more, and get 16384: enough for long answers and thinking, while keeping a call that does not
 * stream under the ten minutes past which the API advises streaming, and keeping the output tokens
 * the API reserves against the rate limit at the start of each call modest.
 *
 * <p>Stateless and thread-safe.
 */
public final class MaxTokens {
  /** The default of every model not named otherwise. */
  public static final int DEFAULT = 16_384;

  private MaxTokens() {}

  /** The default {@code max_tokens} of a model, by its API name. */
  public static int defaultFor(String model) {
    if (model.startsWith("claude-3-haiku")
        || model.startsWith("claude-3-opus")
        || model.startsWith("claude-3-sonnet")) {
      return 4096;
    }
    if (model.startsWith("claude-3-5-")) {
      return 8192;
    }
    return DEFAULT;
  }
}
