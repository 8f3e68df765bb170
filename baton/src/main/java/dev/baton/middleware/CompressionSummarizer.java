package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.ai.ModelRef;
import dev.baton.internal.core.Defaulted;
import org.jspecify.annotations.Nullable;

/**
 * How {@link ContextCompression} has a model fold older messages into a summary, when compression
 * runs.
 *
 * <p>The model is looked up by name in the registry of the generate call and called once per
 * compaction, outside the tool loop (no tools, no middleware), with the reference's config as it
 * is: set the summary's output limit there. Its usage counts as any model call's does in the
 * session and in budgets, but it is not part of the generate response's {@code totalUsage}. A
 * summary call that fails is logged at WARN and, as an empty summary, counts as none written:
 * messages may be dropped instead. A cancelled generate call still fails, and so does a model that
 * is not registered.
 *
 * <p>The summary covers the previous summary, if any, and every covered message that is not
 * protected, plus the text of a covered message carrying output-format instructions (which stays in
 * view), rendered as text one message after another without those instructions. Immutable and
 * thread-safe. Checked when the middleware builds its hooks: a missing model or a negative {@code
 * preserveRecent} is {@code INVALID_ARGUMENT}.
 *
 * @param model the model that writes the summaries, typically a smaller and faster one; required
 * @param preserveRecent how many of the newest non-system messages stay out of the summary; 0 means
 *     {@link ContextCompression#preserveRecent} when that is set, and 6 otherwise
 * @param prompt replaces {@link #DEFAULT_PROMPT}; each {@code {conversation}} in it is replaced
 *     with the rendering of the messages to summarise, and without one the rendering is appended
 *     after a blank line
 */
public record CompressionSummarizer(
    @JsonPropertyDescription(
            "The model that writes the summaries, typically a smaller and faster one. Its config is"
                + " used as is, so set the summary's output limit there. Required.")
        @Nullable ModelRef model,
    @JsonPropertyDescription(
            "How many of the newest non-system messages stay out of the summary. Defaults to"
                + " preserveRecent when that is set, and to 6 otherwise.")
        @Defaulted
        int preserveRecent,
    @JsonPropertyDescription(
            "Replaces the default summarization prompt. Each \"{conversation}\" is replaced with a"
                + " text rendering of the messages to summarize; without one, the rendering is"
                + " appended.")
        @Nullable String prompt) {

  /** The placeholder a prompt marks the conversation's place with. */
  public static final String PLACEHOLDER = "{conversation}";

  /** The prompt used when {@link #prompt} is null or empty. */
  public static final String DEFAULT_PROMPT =
      "Summarize the conversation below so that the summary can replace it in the context of an"
          + " ongoing task. Keep every fact, decision, name, number, file path and identifier"
          + " (task IDs included) that later steps may need, what each tool call was for and what"
          + " it returned, and any open question or unfinished step. Leave out pleasantries and"
          + " repetition. Answer with the summary only, as plain text.\n\n"
          + "<conversation>\n"
          + PLACEHOLDER
          + "\n</conversation>";

  /** A summariser with the given model and the defaults. */
  public static CompressionSummarizer of(ModelRef model) {
    return new CompressionSummarizer(model, 0, null);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link CompressionSummarizer}. Not thread-safe. */
  public static final class Builder {
    private @Nullable ModelRef model;
    private int preserveRecent;
    private @Nullable String prompt;

    private Builder() {}

    public Builder model(ModelRef model) {
      this.model = model;
      return this;
    }

    /** The model by name, with no config. */
    public Builder model(String name) {
      this.model = ModelRef.of(name);
      return this;
    }

    public Builder preserveRecent(int preserveRecent) {
      this.preserveRecent = preserveRecent;
      return this;
    }

    public Builder prompt(String prompt) {
      this.prompt = prompt;
      return this;
    }

    public CompressionSummarizer build() {
      return new CompressionSummarizer(model, preserveRecent, prompt);
    }
  }
}
