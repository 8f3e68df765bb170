package dev.baton.ai;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Token and media counts of one or more model calls, as the model reported them. Absent fields were
 * not reported. By Genkit's convention {@code outputTokens} excludes {@code thoughtsTokens}. {@code
 * custom} holds provider-specific figures, such as a cost.
 *
 * <p>Build one with {@link #builder()}; {@link #EMPTY} is the usage of nothing, and {@link #plus}
 * adds two. The canonical constructor is public only because a record's must be: it is not the way
 * to build a usage, since its signature changes whenever Genkit's usage gains a figure.
 */
public record GenerationUsage(
    @JsonPropertyDescription("Tokens of input.") @Nullable Integer inputTokens,
    @JsonPropertyDescription("Tokens of output, thoughts tokens excluded.")
        @Nullable Integer outputTokens,
    @JsonPropertyDescription("Tokens in all.") @Nullable Integer totalTokens,
    @JsonPropertyDescription("Tokens of the model's reasoning.") @Nullable Integer thoughtsTokens,
    @JsonPropertyDescription("Tokens of input read from a cache.")
        @Nullable Integer cachedContentTokens,
    @JsonPropertyDescription("Characters of input.") @Nullable Integer inputCharacters,
    @JsonPropertyDescription("Characters of output.") @Nullable Integer outputCharacters,
    @JsonPropertyDescription("Images of input.") @Nullable Integer inputImages,
    @JsonPropertyDescription("Images of output.") @Nullable Integer outputImages,
    @JsonPropertyDescription("Videos of input.") @Nullable Integer inputVideos,
    @JsonPropertyDescription("Videos of output.") @Nullable Integer outputVideos,
    @JsonPropertyDescription("Audio files of input.") @Nullable Integer inputAudioFiles,
    @JsonPropertyDescription("Audio files of output.") @Nullable Integer outputAudioFiles,
    @JsonPropertyDescription("Provider-specific figures by name, such as a cost.")
        @Nullable Map<String, Double> custom) {

  /** Usage with nothing reported; serialises as {@code {}}. */
  public static final GenerationUsage EMPTY = builder().build();

  public GenerationUsage {
    custom = custom == null ? null : Map.copyOf(custom);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Whether no figure was reported. */
  public boolean isEmpty() {
    return Stream.of(
                inputTokens,
                outputTokens,
                totalTokens,
                thoughtsTokens,
                cachedContentTokens,
                inputCharacters,
                outputCharacters,
                inputImages,
                outputImages,
                inputVideos,
                outputVideos,
                inputAudioFiles,
                outputAudioFiles)
            .allMatch(Objects::isNull)
        && (custom == null || custom.isEmpty());
  }

  /**
   * The sum of this usage and another, field by field; a field absent from both stays absent.
   * {@code custom} figures add key by key.
   */
  public GenerationUsage plus(@Nullable GenerationUsage other) {
    if (other == null) {
      return this;
    }
    Map<String, Double> sumCustom = null;
    if (custom != null || other.custom != null) {
      Map<String, Double> merged = new HashMap<>(custom == null ? Map.of() : custom);
      if (other.custom != null) {
        other.custom.forEach((k, v) -> merged.merge(k, v, Double::sum));
      }
      sumCustom = merged;
    }
    return new GenerationUsage(
        sum(GenerationUsage::inputTokens, other),
        sum(GenerationUsage::outputTokens, other),
        sum(GenerationUsage::totalTokens, other),
        sum(GenerationUsage::thoughtsTokens, other),
        sum(GenerationUsage::cachedContentTokens, other),
        sum(GenerationUsage::inputCharacters, other),
        sum(GenerationUsage::outputCharacters, other),
        sum(GenerationUsage::inputImages, other),
        sum(GenerationUsage::outputImages, other),
        sum(GenerationUsage::inputVideos, other),
        sum(GenerationUsage::outputVideos, other),
        sum(GenerationUsage::inputAudioFiles, other),
        sum(GenerationUsage::outputAudioFiles, other),
        sumCustom);
  }

  private @Nullable Integer sum(
      Function<GenerationUsage, @Nullable Integer> field, GenerationUsage other) {
    Integer a = field.apply(this);
    Integer b = field.apply(other);
    if (a == null) {
      return b;
    }
    return b == null ? a : a + b;
  }

  /** Builds a usage; unset fields stay absent. */
  public static final class Builder {
    private @Nullable Integer inputTokens;
    private @Nullable Integer outputTokens;
    private @Nullable Integer totalTokens;
    private @Nullable Integer thoughtsTokens;
    private @Nullable Integer cachedContentTokens;
    private @Nullable Integer inputCharacters;
    private @Nullable Integer outputCharacters;
    private @Nullable Integer inputImages;
    private @Nullable Integer outputImages;
    private @Nullable Integer inputVideos;
    private @Nullable Integer outputVideos;
    private @Nullable Integer inputAudioFiles;
    private @Nullable Integer outputAudioFiles;
    private @Nullable Map<String, Double> custom;

    private Builder() {}

    public Builder inputTokens(@Nullable Integer value) {
      inputTokens = value;
      return this;
    }

    public Builder outputTokens(@Nullable Integer value) {
      outputTokens = value;
      return this;
    }

    public Builder totalTokens(@Nullable Integer value) {
      totalTokens = value;
      return this;
    }

    public Builder thoughtsTokens(@Nullable Integer value) {
      thoughtsTokens = value;
      return this;
    }

    public Builder cachedContentTokens(@Nullable Integer value) {
      cachedContentTokens = value;
      return this;
    }

    public Builder inputCharacters(@Nullable Integer value) {
      inputCharacters = value;
      return this;
    }

    public Builder outputCharacters(@Nullable Integer value) {
      outputCharacters = value;
      return this;
    }

    public Builder inputImages(@Nullable Integer value) {
      inputImages = value;
      return this;
    }

    public Builder outputImages(@Nullable Integer value) {
      outputImages = value;
      return this;
    }

    public Builder inputVideos(@Nullable Integer value) {
      inputVideos = value;
      return this;
    }

    public Builder outputVideos(@Nullable Integer value) {
      outputVideos = value;
      return this;
    }

    public Builder inputAudioFiles(@Nullable Integer value) {
      inputAudioFiles = value;
      return this;
    }

    public Builder outputAudioFiles(@Nullable Integer value) {
      outputAudioFiles = value;
      return this;
    }

    public Builder custom(@Nullable Map<String, Double> value) {
      custom = value;
      return this;
    }

    public GenerationUsage build() {
      return new GenerationUsage(
          inputTokens,
          outputTokens,
          totalTokens,
          thoughtsTokens,
          cachedContentTokens,
          inputCharacters,
          outputCharacters,
          inputImages,
          outputImages,
          inputVideos,
          outputVideos,
          inputAudioFiles,
          outputAudioFiles,
          custom);
    }
  }
}
