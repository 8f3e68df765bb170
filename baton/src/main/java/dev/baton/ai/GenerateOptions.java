package dev.baton.ai;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.StreamCallback;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Everything one generate call needs. Build with {@link #builder()}; {@link #toBuilder()} gives a
 * modified copy. Pass it to {@code baton.generate(...)}.
 *
 * <p>The conversation sent to the model is: the {@code system} text as a system message, then
 * {@code messages}, then {@code prompt} as a user message; each is optional but the result must not
 * be empty.
 *
 * <p>Immutable and thread-safe (the tools, middleware and callback it holds are shared as given).
 */
public final class GenerateOptions {

  /** Genkit's default number of tool rounds. */
  public static final int DEFAULT_MAX_TURNS = 5;

  private final @Nullable ModelRef model;
  private final @Nullable JsonNode config;
  private final @Nullable String system;
  private final List<Message> messages;
  private final @Nullable List<Part> prompt;
  private final List<Tool<?, ?>> tools;
  private final List<String> toolNames;
  private final @Nullable ToolChoice toolChoice;
  private final @Nullable OutputOptions output;
  private final @Nullable Integer maxTurns;
  private final @Nullable Resume resume;
  private final boolean returnToolRequests;
  private final List<Middleware> use;
  private final StreamCallback<ModelResponseChunk> onChunk;

  private GenerateOptions(Builder b) {
    this.model = b.model;
    this.config = b.config == null ? null : Json.copy(b.config);
    this.system = b.system;
    this.messages = SharedList.copyOf(b.messages);
    this.prompt = b.prompt;
    this.tools = List.copyOf(b.tools);
    this.toolNames = List.copyOf(b.toolNames);
    this.toolChoice = b.toolChoice;
    this.output = b.output;
    this.maxTurns = b.maxTurns;
    this.resume = b.resume;
    this.returnToolRequests = b.returnToolRequests;
    this.use = List.copyOf(b.use);
    this.onChunk = b.onChunk;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The model to call, or null (the call then fails). */
  public @Nullable ModelRef model() {
    return model;
  }

  /** Provider config, merged key by key over the model reference's config; a copy. */
  public @Nullable JsonNode config() {
    return config == null ? null : Json.copy(config);
  }

  /** System instructions, or null. */
  public @Nullable String system() {
    return system;
  }

  /** The prior conversation. */
  public List<Message> messages() {
    return messages;
  }

  /** The user's turn, or null. */
  public @Nullable List<Part> prompt() {
    return prompt;
  }

  /** Tools given as objects, available to this call only. */
  public List<Tool<?, ?>> tools() {
    return tools;
  }

  /** Tools looked up in the registry by name. */
  public List<String> toolNames() {
    return toolNames;
  }

  /** Whether the model may, must or must not call tools; null leaves it to the model. */
  public @Nullable ToolChoice toolChoice() {
    return toolChoice;
  }

  /** The structured output wanted, or null for text. */
  public @Nullable OutputOptions output() {
    return output;
  }

  /** The most tool rounds before the call fails; null means {@link #DEFAULT_MAX_TURNS}. */
  public @Nullable Integer maxTurns() {
    return maxTurns;
  }

  /** Answers to the interrupted calls of the last model message, or null. */
  public @Nullable Resume resume() {
    return resume;
  }

  /** Whether to stop at the first tool requests instead of running the tools. */
  public boolean returnToolRequests() {
    return returnToolRequests;
  }

  /** Middleware, outermost first. */
  public List<Middleware> use() {
    return use;
  }

  /** Receives streamed chunks in order. */
  public StreamCallback<ModelResponseChunk> onChunk() {
    return onChunk;
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

    /**
     * Adds a middleware found by name ({@link MiddlewareDescriptor#lookup}) with its JSON config:
     * any JSON-mappable value, read over the descriptor's defaults, or null for the defaults.
     *
     * @throws BatonException {@code INVALID_ARGUMENT} for config the middleware does not take
     */
    public Builder use(MiddlewareDescriptor middleware, @Nullable Object config) {
      this.use.add(middleware.create(config == null ? null : Json.toTree(config)));
      return this;
    }

    public Builder onChunk(StreamCallback<ModelResponseChunk> onChunk) {
      this.onChunk = Objects.requireNonNull(onChunk, "onChunk");
      return this;
    }

    public GenerateOptions build() {
      return new GenerateOptions(this);
    }
  }
}
