package dev.baton.middleware;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.baton.internal.core.Defaulted;
import org.jspecify.annotations.Nullable;

/**
 * How {@link ContextCompression} replaces older duplicate tool responses with a short notice, when
 * compression runs. In each group of duplicates the newest {@code keepRecent} responses stay
 * intact; each older one keeps its original output in the history, and the model sees the notice in
 * its place.
 *
 * <p>Immutable and thread-safe. Checked when the middleware builds its hooks: a negative {@code
 * keepRecent} is {@code INVALID_ARGUMENT}.
 *
 * @param matchBy how duplicates are identified; null means {@link
 *     CompressionDedupeMatch#NAME_AND_INPUT}
 * @param keepRecent how many of the newest responses in each group stay intact; 0 means the default
 *     of 1
 * @param notice what replaces the output of each older duplicate; null or empty means {@value
 *     #DEFAULT_NOTICE}
 */
public record CompressionDedupe(
    @JsonPropertyDescription(
            "How duplicates are identified: \"name-and-input\" (default) matches calls to the same"
                + " tool with the same input; \"name-only\" matches every response from the same"
                + " tool, so only the newest survives.")
        @Nullable CompressionDedupeMatch matchBy,
    @JsonPropertyDescription(
            "How many of the newest responses in each duplicate group stay intact. Defaults to 1.")
        @Defaulted
        int keepRecent,
    @JsonPropertyDescription(
            "Replaces the output of each older duplicate. A default notice is used when empty.")
        @Nullable String notice) {

  /** The notice used when {@link #notice} is null or empty. */
  public static final String DEFAULT_NOTICE =
      "[Duplicate tool response omitted: a newer response to the same tool call appears later in"
          + " the conversation.]";

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link CompressionDedupe}; unset fields keep their defaults. Not thread-safe. */
  public static final class Builder {
    private @Nullable CompressionDedupeMatch matchBy;
    private int keepRecent;
    private @Nullable String notice;

    private Builder() {}

    public Builder matchBy(CompressionDedupeMatch matchBy) {
      this.matchBy = matchBy;
      return this;
    }

    public Builder keepRecent(int keepRecent) {
      this.keepRecent = keepRecent;
      return this;
    }

    public Builder notice(String notice) {
      this.notice = notice;
      return this;
    }

    public CompressionDedupe build() {
      return new CompressionDedupe(matchBy, keepRecent, notice);
    }
  }
}
