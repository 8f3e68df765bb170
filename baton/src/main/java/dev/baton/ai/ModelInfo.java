package dev.baton.ai;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a model supports, published under the descriptor's {@code metadata.model}. The generate loop
 * reads it: a model without native constrained output gets schema instructions instead.
 *
 * @param label a human-readable name, or null
 * @param supports its capabilities
 * @param versions the versions it accepts, or null
 */
public record ModelInfo(
    @Nullable String label, Supports supports, @Nullable List<String> versions) {

  public ModelInfo {
    versions = versions == null ? null : List.copyOf(versions);
  }

  /** A model that supports multi-turn chat, tools, system messages and native JSON output. */
  public static ModelInfo full(String label) {
    return new ModelInfo(label, Supports.ALL, null);
  }

  /** A model with a label and capabilities. */
  public static ModelInfo of(String label, Supports supports) {
    return new ModelInfo(label, supports, null);
  }

  /** This info with the model's versions replaced. */
  public ModelInfo withVersions(@Nullable List<String> versions) {
    return new ModelInfo(label, supports, versions);
  }

  /**
   * Capabilities, by Genkit's names; an absent field is unknown. {@code constrained} is {@code
   * "none"}, {@code "all"} or {@code "no-tools"}; {@code output} lists the formats the model can
   * produce natively. Build with {@link #builder()}.
   */
  public record Supports(
      @Nullable Boolean multiturn,
      @Nullable Boolean tools,
      @Nullable Boolean systemRole,
      @Nullable Boolean media,
      @Nullable List<String> output,
      @Nullable String constrained,
      @Nullable Boolean toolChoice) {

    /** Multi-turn chat, tools, system messages, media and native constrained JSON output. */
    public static final Supports ALL =
        builder()
            .multiturn(true)
            .tools(true)
            .systemRole(true)
            .media(true)
            .output(List.of("text", "json"))
            .constrained("all")
            .toolChoice(true)
            .build();

    /** Text chat with tools, without native constrained output. */
    public static final Supports TEXT_ONLY =
        builder()
            .multiturn(true)
            .tools(true)
            .systemRole(true)
            .media(false)
            .output(List.of("text"))
            .constrained("none")
            .toolChoice(true)
            .build();

    public Supports {
      output = output == null ? null : List.copyOf(output);
    }

    public static Builder builder() {
      return new Builder();
    }

    public Builder toBuilder() {
      return new Builder()
          .multiturn(multiturn)
          .tools(tools)
          .systemRole(systemRole)
          .media(media)
          .output(output)
          .constrained(constrained)
          .toolChoice(toolChoice);
    }

    /** Collects capabilities; unset ones stay unknown. Not thread-safe. */
    public static final class Builder {
      private @Nullable Boolean multiturn;
      private @Nullable Boolean tools;
      private @Nullable Boolean systemRole;
      private @Nullable Boolean media;
      private @Nullable List<String> output;
      private @Nullable String constrained;
      private @Nullable Boolean toolChoice;

      private Builder() {}

      public Builder multiturn(@Nullable Boolean multiturn) {
        this.multiturn = multiturn;
        return this;
      }

      public Builder tools(@Nullable Boolean tools) {
        this.tools = tools;
        return this;
      }

      public Builder systemRole(@Nullable Boolean systemRole) {
        this.systemRole = systemRole;
        return this;
      }

      public Builder media(@Nullable Boolean media) {
        this.media = media;
        return this;
      }

      public Builder output(@Nullable List<String> output) {
        this.output = output;
        return this;
      }

      /** {@code "none"}, {@code "all"} or {@code "no-tools"}. */
      public Builder constrained(@Nullable String constrained) {
        this.constrained = constrained;
        return this;
      }

      public Builder toolChoice(@Nullable Boolean toolChoice) {
        this.toolChoice = toolChoice;
        return this;
      }

      public Supports build() {
        return new Supports(multiturn, tools, systemRole, media, output, constrained, toolChoice);
      }
    }
  }
}
