package dev.baton.ai;

import dev.baton.core.Json;
import dev.baton.core.SharedList;
import dev.baton.core.StreamCallback;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Everything one generate call needs. Build with {@link #builder()}; {@link #toBuilder()} gives a
 * modified copy.
 *
 * <p>The conversation sent to the model is: the {@code system} text as a system message, then
 * {@code messages}, then {@code prompt} as a user message; each is optional but the result must not
 * be empty.
 *
 * @param model the model to call
 * @param config provider config, merged key by key over the model reference's config
 * @param system system instructions
 * @param messages prior conversation
 * @param prompt the user's turn
 * @param tools tools given as objects, available to this call only
 * @param toolNames tools looked up in the registry by name
 * @param toolChoice whether the model may, must or must not call tools
 * @param output structured output wanted, or null for text
 * @param maxTurns the most tool rounds before the call fails; null means Genkit's default of 5
 * @param resume answers to the interrupted calls of the last model message
 * @param returnToolRequests stop at the first tool requests instead of running the tools
 * @param use middleware, outermost first
 * @param onChunk receives streamed chunks in order
 */
public record GenerateOptions(
    @Nullable ModelRef model,
    @Nullable JsonNode config,
    @Nullable String system,
    List<Message> messages,
    @Nullable List<Part> prompt,
    List<Tool<?, ?>> tools,
    List<String> toolNames,
    @Nullable ToolChoice toolChoice,
    @Nullable OutputOptions output,
    @Nullable Integer maxTurns,
    @Nullable Resume resume,
    boolean returnToolRequests,
    List<Middleware> use,
    StreamCallback<ModelResponseChunk> onChunk) {

  /** Genkit's default number of tool rounds. */
  public static final int DEFAULT_MAX_TURNS = 5;

  public GenerateOptions {
    config = config == null ? null : Json.copy(config);
    messages = SharedList.copyOf(messages);
    prompt = prompt == null ? null : List.copyOf(prompt);
    tools = List.copyOf(tools);
    toolNames = List.copyOf(toolNames);
    use = List.copyOf(use);
    Objects.requireNonNull(onChunk, "onChunk");
  }

  /** A copy: the record stays immutable whatever the caller does with it. */
  @Override
  public @Nullable JsonNode config() {
    return config == null ? null : Json.copy(config);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.model = model;
    b.config = config;
    b.system = system;
    b.messages = messages;
    b.prompt = prompt;
    b.tools.addAll(tools);
    b.toolNames.addAll(toolNames);
    b.toolChoice = toolChoice;
    b.output = output;
    b.maxTurns = maxTurns;
    b.resume = resume;
    b.returnToolRequests = returnToolRequests;
    b.use.addAll(use);
    b.onChunk = onChunk;
    return b;
  }

  /** Collects generate options. Not thread-safe. */
  public static final class Builder {
    private @Nullable ModelRef model;
    private @Nullable JsonNode config;
    private @Nullable String system;
    // Immutable and shared until message(...) appends, so a long history set once (or carried over
    // by toBuilder) reaches the built options without being copied.
    private List<Message> messages = SharedList.of();
    private boolean messagesOwned;
    private @Nullable List<Part> prompt;
    private final List<Tool<?, ?>> tools = new ArrayList<>();
    private final List<String> toolNames = new ArrayList<>();
    private @Nullable ToolChoice toolChoice;
    private @Nullable OutputOptions output;
    private @Nullable Integer maxTurns;
    private @Nullable Resume resume;
    private boolean returnToolRequests;
    private final List<Middleware> use = new ArrayList<>();
    private StreamCallback<ModelResponseChunk> onChunk = StreamCallback.discard();

    private Builder() {}

    public Builder model(String name) {
      this.model = ModelRef.of(name);
      return this;
    }

    public Builder model(@Nullable ModelRef model) {
      this.model = model;
      return this;
    }

    /** Provider config from any JSON-mappable value (a record, a map, a tree). */
    public Builder config(@Nullable Object config) {
      this.config = config == null ? null : Json.toTree(config);
      return this;
    }

    public Builder system(@Nullable String system) {
      this.system = system;
      return this;
    }

    public Builder messages(List<Message> messages) {
      this.messages = SharedList.copyOf(messages);
      this.messagesOwned = false;
      return this;
    }

    public Builder message(Message message) {
      if (!messagesOwned) {
        this.messages = new ArrayList<>(messages);
        this.messagesOwned = true;
      }
      this.messages.add(Objects.requireNonNull(message, "message"));
      return this;
    }

    public Builder prompt(@Nullable String text) {
      this.prompt = text == null ? null : List.of(Part.text(text));
      return this;
    }

    public Builder prompt(List<Part> parts) {
      this.prompt = List.copyOf(parts);
      return this;
    }

    public Builder tools(Tool<?, ?>... tools) {
      this.tools.addAll(List.of(tools));
      return this;
    }

    public Builder tools(List<? extends Tool<?, ?>> tools) {
      this.tools.addAll(tools);
      return this;
    }

    public Builder toolNames(String... names) {
      this.toolNames.addAll(List.of(names));
      return this;
    }

    public Builder toolNames(List<String> names) {
      this.toolNames.addAll(names);
      return this;
    }

    public Builder toolChoice(@Nullable ToolChoice toolChoice) {
      this.toolChoice = toolChoice;
      return this;
    }

    public Builder output(@Nullable OutputOptions output) {
      this.output = output;
      return this;
    }

    public Builder maxTurns(@Nullable Integer maxTurns) {
      this.maxTurns = maxTurns;
      return this;
    }

    public Builder resume(@Nullable Resume resume) {
      this.resume = resume;
      return this;
    }

    public Builder returnToolRequests(boolean returnToolRequests) {
      this.returnToolRequests = returnToolRequests;
      return this;
    }

    public Builder use(Middleware... middleware) {
      this.use.addAll(List.of(middleware));
      return this;
    }

    public Builder use(List<? extends Middleware> middleware) {
      this.use.addAll(middleware);
      return this;
    }

    public Builder onChunk(StreamCallback<ModelResponseChunk> onChunk) {
      this.onChunk = Objects.requireNonNull(onChunk, "onChunk");
      return this;
    }

    public GenerateOptions build() {
      return new GenerateOptions(
          model,
          config,
          system,
          messages,
          prompt,
          tools,
          toolNames,
          toolChoice,
          output,
          maxTurns,
          resume,
          returnToolRequests,
          use,
          onChunk);
    }
  }
}
