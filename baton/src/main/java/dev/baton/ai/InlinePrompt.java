package dev.baton.ai;

import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.internal.ai.PromptScaffolding;
import dev.baton.internal.core.SharedList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A prompt defined in code: model, config, system instructions, messages, tools, middleware, turn
 * limit and output. An agent defined from one renders it on every turn.
 *
 * <p>Where the conversation history goes when the prompt renders:
 *
 * <ul>
 *   <li>with no messages option, between the system message and the {@code prompt} user message;
 *   <li>with {@link Builder#messagesTemplate}, where the template holds {@link #HISTORY}, or else
 *       before the template's last user message;
 *   <li>with {@link Builder#messages(Function)}, wherever the function puts {@link
 *       PromptContext#history()}, which is how a prompt trims history;
 *   <li>with static {@link Builder#messages(List)}, nowhere: static messages take over the
 *       conversation.
 * </ul>
 *
 * <p>Strings (system, prompt, template text) may use {@code {{field}}} for input fields. Immutable
 * and thread-safe.
 */
public final class InlinePrompt {
  /** Marks where a messages template places the history. */
  public static final Message HISTORY =
      new Message(Role.USER, List.of()).withFlag("_batonHistoryMarker");

  private enum MessagesMode {
    NONE,
    STATIC,
    TEMPLATE,
    FUNCTION
  }

  private final @Nullable ModelRef model;
  private final @Nullable JsonNode config;
  private final @Nullable Function<PromptContext, String> system;
  private final MessagesMode messagesMode;
  private final List<Message> messages;
  private final @Nullable Function<PromptContext, List<Message>> messagesFunction;
  private final @Nullable Function<PromptContext, String> prompt;
  private final List<Tool<?, ?>> tools;
  private final List<String> toolNames;
  private final List<Middleware> use;
  private final @Nullable Integer maxTurns;
  private final @Nullable OutputOptions output;
  private final @Nullable ToolChoice toolChoice;
  // The system message the last render made. Messages are immutable, so renders of one prompt on
  // any thread may share it; a race only builds one more.
  private volatile @Nullable RenderedSystem lastSystem;

  private record RenderedSystem(String text, boolean tag, Message message) {}

  private InlinePrompt(Builder b) {
    this.model = b.model;
    // Copied, as every value copies its JSON in: the caller may go on changing its tree.
    this.config = b.config == null ? null : Json.copy(b.config);
    this.system = b.system;
    this.messagesMode = b.messagesMode;
    this.messages = List.copyOf(b.messages);
    this.messagesFunction = b.messagesFunction;
    this.prompt = b.prompt;
    this.tools = List.copyOf(b.tools);
    this.toolNames = List.copyOf(b.toolNames);
    this.use = List.copyOf(b.use);
    this.maxTurns = b.maxTurns;
    this.output = b.output;
    this.toolChoice = b.toolChoice;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding this prompt's options, to derive another prompt from it; changing the builder
   * leaves this prompt as it is.
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.model = model;
    b.config = config;
    b.system = system;
    b.messagesMode = messagesMode;
    b.messages.addAll(messages);
    b.messagesFunction = messagesFunction;
    b.prompt = prompt;
    b.tools.addAll(tools);
    b.toolNames.addAll(toolNames);
    b.use.addAll(use);
    b.maxTurns = maxTurns;
    b.output = output;
    b.toolChoice = toolChoice;
    return b;
  }

  public @Nullable ModelRef model() {
    return model;
  }

  public List<Middleware> use() {
    return use;
  }

  /**
   * Renders the prompt into generate options: the messages with the history placed, and every other
   * option as configured. Streaming and resume are the caller's to add.
   */
  public GenerateOptions.Builder render(PromptContext context) {
    // Inside an agent turn the prompt's own messages are tagged, so the session keeps only history.
    boolean tag = context.context().get(PromptScaffolding.KEY).orElse(false);
    // The one copy of the history a turn makes, with room for the turn's messages to be appended.
    SharedList.Builder<Message> rendered = SharedList.builder(context.history().size() + 2);
    if (system != null) {
      rendered.add(systemMessage(system.apply(context), tag));
    }
    switch (messagesMode) {
      case NONE -> rendered.addAll(context.history());
      case STATIC -> rendered.addAll(own(templated(messages, context), tag));
      case TEMPLATE ->
          rendered.addAll(placeHistory(own(templated(messages, context), tag), context.history()));
      case FUNCTION -> rendered.addAll(renderFunction(context, tag));
    }
    if (prompt != null) {
      rendered.add(own(Message.user(prompt.apply(context)), tag));
    }
    return GenerateOptions.builder()
        .model(model)
        .config(config)
        .messages(rendered.build())
        .tools(tools)
        .toolNames(toolNames)
        .use(use)
        .maxTurns(maxTurns)
        .output(output)
        .toolChoice(toolChoice);
  }

  private List<Message> renderFunction(PromptContext context, boolean tag) {
    Function<PromptContext, List<Message>> function = Objects.requireNonNull(messagesFunction);
    if (!tag) {
      return function.apply(context);
    }
    PromptContext marked = context.withHistory(PromptScaffolding.markHistory(context.history()));
    return PromptScaffolding.tagFunctionOutput(function.apply(marked));
  }

  /**
   * The system message for a rendered text: the one the last render made when the text is the same,
   * as it is on every turn of a prompt with fixed instructions, so a turn builds none.
   */
  private Message systemMessage(String text, boolean tag) {
    RenderedSystem last = lastSystem;
    if (last != null && last.tag() == tag && last.text().equals(text)) {
      return last.message();
    }
    Message message = own(Message.system(text), tag);
    lastSystem = new RenderedSystem(text, tag, message);
    return message;
  }

  private static Message own(Message message, boolean tag) {
    return tag ? message.withFlag(PromptScaffolding.PROMPT) : message;
  }

  private static List<Message> own(List<Message> messages, boolean tag) {
    if (!tag) {
      return messages;
    }
    List<Message> tagged = new ArrayList<>(messages.size());
    for (Message message : messages) {
      tagged.add(isHistory(message) ? message : own(message, true));
    }
    return tagged;
  }

  /**
   * Whether a template's message is the {@link #HISTORY} marker itself: a message of the user's
   * that merely equals it is not.
   */
  @SuppressWarnings("ReferenceEquality")
  private static boolean isHistory(Message message) {
    return message == HISTORY;
  }

  private static List<Message> templated(List<Message> template, PromptContext context) {
    List<Message> result = new ArrayList<>();
    for (Message message : template) {
      if (isHistory(message)) {
        result.add(message);
        continue;
      }
      List<Part> parts = new ArrayList<>();
      for (Part part : message.content()) {
        parts.add(
            part instanceof TextPart text
                ? new TextPart(PromptTemplate.render(text.text(), context.input()), text.metadata())
                : part);
      }
      result.add(message.withContent(parts));
    }
    return result;
  }

  private static List<Message> placeHistory(List<Message> template, List<Message> history) {
    List<Message> result = new ArrayList<>();
    boolean placed = false;
    for (Message message : template) {
      if (isHistory(message)) {
        result.addAll(history);
        placed = true;
      } else {
        result.add(message);
      }
    }
    if (!placed) {
      int lastUser = -1;
      for (int i = result.size() - 1; i >= 0; i--) {
        if (result.get(i).role() == Role.USER) {
          lastUser = i;
          break;
        }
      }
      result.addAll(lastUser < 0 ? result.size() : lastUser, history);
    }
    return result;
  }

  /** Collects a prompt. Not thread-safe. */
  public static final class Builder {
    private @Nullable ModelRef model;
    private @Nullable JsonNode config;
    private @Nullable Function<PromptContext, String> system;
    private MessagesMode messagesMode = MessagesMode.NONE;
    private final List<Message> messages = new ArrayList<>();
    private @Nullable Function<PromptContext, List<Message>> messagesFunction;
    private @Nullable Function<PromptContext, String> prompt;
    private final List<Tool<?, ?>> tools = new ArrayList<>();
    private final List<String> toolNames = new ArrayList<>();
    private final List<Middleware> use = new ArrayList<>();
    private @Nullable Integer maxTurns;
    private @Nullable OutputOptions output;
    private @Nullable ToolChoice toolChoice;

    private Builder() {}

    public Builder model(String name) {
      this.model = ModelRef.of(name);
      return this;
    }

    public Builder model(ModelRef model) {
      this.model = model;
      return this;
    }

    /** Provider config from any JSON-mappable value. */
    public Builder config(Object config) {
      this.config = Json.toTree(config);
      return this;
    }

    /** Fixed system instructions; {@code {{field}}} reads the input. */
    public Builder system(String system) {
      this.system = ctx -> PromptTemplate.render(system, ctx.input());
      return this;
    }

    /** System instructions rendered on every call, for example from the session's state. */
    public Builder system(Function<PromptContext, String> system) {
      this.system = system;
      return this;
    }

    /** Static messages, which take over the conversation: the history is not placed. */
    public Builder messages(List<Message> messages) {
      return setMessages(MessagesMode.STATIC, messages, null);
    }

    /**
     * A template: the history goes where it holds {@link #HISTORY}, else before its last user
     * message.
     */
    public Builder messagesTemplate(List<Message> template) {
      return setMessages(MessagesMode.TEMPLATE, template, null);
    }

    /** Messages rendered from the context, which carries the history to place or trim. */
    public Builder messages(Function<PromptContext, List<Message>> messages) {
      return setMessages(MessagesMode.FUNCTION, List.of(), messages);
    }

    private Builder setMessages(
        MessagesMode mode,
        List<Message> messages,
        @Nullable Function<PromptContext, List<Message>> function) {
      this.messagesMode = mode;
      this.messages.clear();
      this.messages.addAll(messages);
      this.messagesFunction = function;
      return this;
    }

    /** A user message appended after the messages; {@code {{field}}} reads the input. */
    public Builder prompt(String prompt) {
      this.prompt = ctx -> PromptTemplate.render(prompt, ctx.input());
      return this;
    }

    public Builder prompt(Function<PromptContext, String> prompt) {
      this.prompt = prompt;
      return this;
    }

    public Builder tools(Tool<?, ?>... tools) {
      this.tools.addAll(List.of(tools));
      return this;
    }

    /** Adds tools, such as an MCP client's {@code tools()}. */
    public Builder tools(List<? extends Tool<?, ?>> tools) {
      this.tools.addAll(tools);
      return this;
    }

    public Builder toolNames(String... names) {
      this.toolNames.addAll(List.of(names));
      return this;
    }

    /** Middleware for every generate call of this prompt, outermost first. */
    public Builder use(Middleware... middleware) {
      this.use.addAll(List.of(middleware));
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

    public Builder maxTurns(int maxTurns) {
      this.maxTurns = maxTurns;
      return this;
    }

    public Builder output(OutputOptions output) {
      this.output = output;
      return this;
    }

    public Builder toolChoice(ToolChoice toolChoice) {
      this.toolChoice = toolChoice;
      return this;
    }

    public InlinePrompt build() {
      return new InlinePrompt(this);
    }
  }
}
