package dev.baton.internal.middleware.compression;

import dev.baton.ai.ModelRef;
import dev.baton.core.BatonException;
import dev.baton.middleware.compression.ContextCompression;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ContextCompression} configuration checked and with every default resolved: the one place
 * where zero means "the default".
 *
 * @param maxInputTokens the token trigger, 0 when disabled
 * @param maxMessages the message trigger and cap, 0 when disabled
 * @param preserveRecent the window of a drop
 * @param explicitPreserveRecent whether the configuration set {@code preserveRecent}, which makes a
 *     drop keep its window, on either trigger, when the cheap strategies (with a summariser, a
 *     skipped summary) did not meet the token budget
 * @param maxToolResponseChars the cap on every tool response, negative when disabled
 * @param dedupe the dedupe strategy, or null
 * @param truncation the truncation strategy, or null
 * @param summarizer the summary strategy, or null
 * @param skipSummarizationThreshold the saved fraction that skips the summary, 0 for never
 * @param dropNotice what a drop records and inserts
 * @param replaceHistory whether the history becomes the view
 */
public record CompressionSettings(
    int maxInputTokens,
    int maxMessages,
    int preserveRecent,
    boolean explicitPreserveRecent,
    int maxToolResponseChars,
    @Nullable Dedupe dedupe,
    @Nullable Truncation truncation,
    @Nullable Summarizer summarizer,
    double skipSummarizationThreshold,
    DropNotice dropNotice,
    boolean replaceHistory) {

  static final int DEFAULT_PRESERVE_RECENT = 4;
  static final int DEFAULT_SUMMARY_WINDOW = 6;
  static final int DEFAULT_MAX_TOOL_RESPONSE_CHARS = 400_000;
  static final int DEFAULT_KEEP_RECENT = 1;
  static final int DEFAULT_TRUNCATION_PRESERVE_RECENT = 2;

  /** Dedupe with defaults resolved; {@code customNotice} is null for the default one. */
  record Dedupe(
      ContextCompression.DedupeMatch matchBy, int keepRecent, @Nullable String customNotice) {}

  /** Truncation; {@code preserveRecent} is negative to truncate every tool message. */
  record Truncation(int maxChars, int preserveRecent) {}

  /** The summariser; {@code prompt} contains the placeholder or gets the rendering appended. */
  record Summarizer(ModelRef model, int preserveRecent, String prompt) {}

  /**
   * The notice of a drop: {@code text} is inserted (null for none) and {@code recorded} is what the
   * boundary's {@code truncationNotice} says (null for the default notice, "" for none).
   */
  record DropNotice(@Nullable String text, @Nullable String recorded) {}

  /**
   * Checks and resolves a configuration.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} naming the first bad field
   */
  public static CompressionSettings of(ContextCompression config) {
    requireNotNegative("maxInputTokens", config.maxInputTokens());
    requireNotNegative("maxMessages", config.maxMessages());
    requireNotNegative("preserveRecent", config.preserveRecent());
    double threshold = config.skipSummarizationThreshold();
    if (!(threshold >= 0 && threshold <= 1)) {
      throw invalid("skipSummarizationThreshold must be between 0 and 1, got " + threshold);
    }
    int preserveRecent = orDefault(config.preserveRecent(), DEFAULT_PRESERVE_RECENT);
    int maxToolResponseChars =
        orDefault(config.maxToolResponseChars(), DEFAULT_MAX_TOOL_RESPONSE_CHARS);
    return new CompressionSettings(
        config.maxInputTokens(),
        config.maxMessages(),
        preserveRecent,
        config.preserveRecent() != 0,
        maxToolResponseChars,
        dedupe(config.dedupeToolResponses()),
        truncation(config.truncateToolResponses()),
        summarizer(config.summarize(), config.preserveRecent()),
        threshold,
        dropNotice(config),
        config.replaceHistory());
  }

  private static @Nullable Dedupe dedupe(ContextCompression.@Nullable Dedupe dedupe) {
    if (dedupe == null) {
      return null;
    }
    requireNotNegative("deduplicateToolResponses.keepRecent", dedupe.keepRecent());
    return new Dedupe(
        dedupe.matchBy() == null ? ContextCompression.DedupeMatch.NAME_AND_INPUT : dedupe.matchBy(),
        orDefault(dedupe.keepRecent(), DEFAULT_KEEP_RECENT),
        blankToNull(dedupe.notice()));
  }

  private static @Nullable Truncation truncation(
      ContextCompression.@Nullable ToolTruncation truncation) {
    if (truncation == null) {
      return null;
    }
    if (truncation.maxChars() <= 0) {
      throw invalid(
          "toolResponses.maxChars is required and must be positive, got " + truncation.maxChars());
    }
    return new Truncation(
        truncation.maxChars(),
        orDefault(truncation.preserveRecent(), DEFAULT_TRUNCATION_PRESERVE_RECENT));
  }

  private static @Nullable Summarizer summarizer(
      ContextCompression.@Nullable Summarizer summarizer, int outerPreserveRecent) {
    if (summarizer == null) {
      return null;
    }
    ModelRef model = summarizer.model();
    if (model == null || model.name().isBlank()) {
      throw invalid("summarize.model is required");
    }
    requireNotNegative("summarize.preserveRecent", summarizer.preserveRecent());
    int window =
        orDefault(
            summarizer.preserveRecent(), orDefault(outerPreserveRecent, DEFAULT_SUMMARY_WINDOW));
    String prompt = blankToNull(summarizer.prompt());
    return new Summarizer(
        model, window, prompt == null ? ContextCompression.Summarizer.DEFAULT_PROMPT : prompt);
  }

  private static DropNotice dropNotice(ContextCompression config) {
    if (config.noTruncationNotice()) {
      return new DropNotice(null, "");
    }
    String custom = blankToNull(config.truncationNotice());
    return custom == null
        ? new DropNotice(ContextCompression.DEFAULT_TRUNCATION_NOTICE, null)
        : new DropNotice(custom, custom);
  }

  private static int orDefault(int value, int fallback) {
    return value == 0 ? fallback : value;
  }

  private static @Nullable String blankToNull(@Nullable String text) {
    return text == null || text.isEmpty() ? null : text;
  }

  private static void requireNotNegative(String field, int value) {
    if (value < 0) {
      throw invalid(field + " must not be negative, got " + value);
    }
  }

  private static BatonException invalid(String message) {
    return BatonException.invalidArgument("contextCompression: %s", message);
  }
}
