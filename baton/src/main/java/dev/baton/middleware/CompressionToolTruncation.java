package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.internal.core.Defaulted;

/**
 * How {@link ContextCompression} truncates older tool responses, when compression runs. A response
 * longer than {@code maxChars} (its output and text content together, the output counted as JSON
 * unless it is a string) keeps its original output in the history, and the model sees its first
 * {@code maxChars} characters with the text content folded into the output (one line each),
 * followed by the line {@code [Truncated: showing the first <maxChars> of <length> characters.]}.
 * Non-text content (media) is kept as it is. {@link ContextCompression#maxToolResponseChars} cuts
 * the same way.
 *
 * <p>Immutable and thread-safe. Checked when the middleware builds its hooks: a {@code maxChars}
 * that is not positive is {@code INVALID_ARGUMENT}.
 *
 * @param maxChars the most characters an older tool response keeps; required
 * @param preserveRecent how many of the newest tool messages stay intact; 0 means the default of 2,
 *     and a negative value truncates every tool message
 */
public record CompressionToolTruncation(
    @JsonPropertyDescription(
            "The most characters an older tool response keeps, output and content together. Text"
                + " content is folded into the output when a response is truncated. Required.")
        @Defaulted
        int maxChars,
    @JsonPropertyDescription(
            "How many of the newest tool messages stay intact. Defaults to 2. Set it negative to"
                + " truncate every tool message.")
        @Defaulted
        int preserveRecent) {

  /** Truncation to {@code maxChars}, keeping the newest two tool messages intact. */
  public static CompressionToolTruncation maxChars(int maxChars) {
    return new CompressionToolTruncation(maxChars, 0);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link CompressionToolTruncation}. Not thread-safe. */
  public static final class Builder {
    private int maxChars;
    private int preserveRecent;

    private Builder() {}

    public Builder maxChars(int maxChars) {
      this.maxChars = maxChars;
      return this;
    }

    public Builder preserveRecent(int preserveRecent) {
      this.preserveRecent = preserveRecent;
      return this;
    }

    public CompressionToolTruncation build() {
      return new CompressionToolTruncation(maxChars, preserveRecent);
    }
  }
}
