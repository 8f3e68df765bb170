package dev.baton.middleware.compression;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelRef;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.internal.core.Defaulted;
import dev.baton.internal.middleware.compression.CompressedHistory;
import dev.baton.internal.middleware.compression.CompressionHooks;
import dev.baton.internal.middleware.compression.CompressionSettings;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Keeps a conversation inside a context budget through long chats and agentic tool loops. It ports
 * Genkit's contextCompression middleware and records its work in the same message metadata, so a
 * history compressed by one runtime resolves in another.
 *
 * <p><b>Triggers.</b> Before each tool-loop iteration, compression runs when a trigger fires: the
 * context exceeds {@link #maxInputTokens}, or the conversation the model would see holds more than
 * {@link #maxMessages} messages. The context is measured from the newest model message after the
 * newest boundary that records the input tokens its model reported ({@code
 * contextCompression.inputTokens}), plus an estimate of that message and every later one; with no
 * such message, the whole view is estimated. The estimate is one token per four characters: text as
 * it is, tool inputs and outputs and data as JSON, and 1,000 characters for any media part whatever
 * its size.
 *
 * <p><b>Strategies</b>, cheapest first:
 *
 * <ol>
 *   <li>{@link #dedupeToolResponses} replaces older duplicate tool responses with a notice;
 *   <li>{@link #truncateToolResponses} truncates older tool responses, leaving the newest tool
 *       messages intact;
 *   <li>{@link #summarize} has a model fold older messages into a summary, unless the first two
 *       saved at least {@link #skipSummarizationThreshold} of the context and brought it under
 *       {@link #maxInputTokens}, or no summary could get it under budget (below);
 *   <li>when nothing was summarised, older messages are dropped, and a notice ({@link
 *       #DEFAULT_TRUNCATION_NOTICE}, {@link #truncationNotice}, or none with {@link
 *       #noTruncationNotice}) tells the model that context was removed. As in Genkit, a drop keeps
 *       {@link #preserveRecent}'s window when the context is over {@link #maxInputTokens} and
 *       either no strategy is configured or a summary was due but none was written (an empty or
 *       failed summary counts as none); and, whichever trigger fired, when {@link #preserveRecent}
 *       is set and the token budget was not met: without a summariser, when dedupe and truncation
 *       changed nothing or left the context over {@link #maxInputTokens}; with one, whenever the
 *       summary was not skipped. Otherwise a conversation is cut down to {@link #maxMessages} when
 *       that is set, and kept whole when not, even over {@link #maxInputTokens}.
 * </ol>
 *
 * <p>A compaction (step 3 or 4) keeps the newest non-system messages of its window: the
 * summariser's for a summary, or, when that window holds the whole conversation and the context is
 * over {@link #maxInputTokens}, {@link #preserveRecent}'s; {@link #preserveRecent}'s for a drop, or
 * all that fit {@link #maxMessages} when that alone caps the view. As in Genkit, the window is
 * halved, but not below 2, when the context before dedupe and truncation is at least 1.5 times
 * {@link #maxInputTokens}, and cut to 2 when it is at least twice (a smaller window stays as it
 * is); it is shrunk further so the view fits {@link #maxMessages}. It always keeps at least the
 * newest message, and never starts with a tool response separated from its request: a window that
 * would is widened to the model message that made the request or, when that would put the view over
 * {@link #maxMessages}, narrowed past the round (only the newest round is kept whatever the cap). A
 * compaction that would cover nothing new is skipped, so a conversation that cannot get under
 * budget does not compact again and again. Nor is it summarised again and again: when what every
 * compaction keeps (the leading system messages, the protected messages and the newest message,
 * plus the summary itself against {@link #maxMessages}) is over the budget the context is over, no
 * summary can get under it, so messages are dropped instead, as without a summariser, rather than
 * paying for a summary on every iteration. Compression runs at most once per iteration. A drop
 * replaces any earlier summary: the view then shows the notice.
 *
 * <p>{@link #maxToolResponseChars} caps every tool response in view on every iteration, whether or
 * not a trigger fires.
 *
 * <p><b>What is always kept.</b> Leading system messages. Protected messages are never summarised
 * or dropped: the scaffolding a prompt agent renders every turn (tagged {@code _genkit_prompt}) and
 * the message carrying injected output-format instructions (a part with {@code metadata.purpose}
 * {@code "output"}, as structured output adds them for a model that does not enforce a schema).
 * Structured output adds them to the newest user message of every generate call, so a conversation
 * carried forward holds one such message per call: only the newest is protected, and the older ones
 * are compressed like any other. A protected message that a compaction covers stays in view after
 * the system messages and before the summary; the summary reads the instructions message's text too
 * (never the instructions), so that it remains once a later call's message takes over. Protected
 * messages count toward {@link #maxMessages} and the recent windows; when they fill the cap, the
 * newest turn is still kept. The user message that started the current tool loop (the newest user
 * message that is not scaffolding) is never a boundary: a compaction cuts before it, or, when the
 * window has moved on into the tool rounds it started, keeps it in view right after the summary
 * (the summary includes it too). Genkit JS does not protect these messages.
 *
 * <p><b>History.</b> The history the caller gets back keeps every original message, and the model
 * sees a compressed view of it. The compression is recorded in metadata under {@code
 * "contextCompression"}:
 *
 * <ul>
 *   <li>every model message gets {@code {"inputTokens": N}}, the input tokens its model reported
 *       (nothing when it reported none);
 *   <li>the last message a compaction covers that is not protected, its boundary, gets {@code
 *       {"summary": "...", "stats": {...}}}, plus {@code "anchorUser": true} when the view keeps
 *       the user message that started the current tool loop and {@code "truncationNotice"} when
 *       messages were dropped with a custom notice ({@code ""} when with none). A summary is empty
 *       when messages were dropped without one;
 *   <li>a truncated, capped or deduplicated tool response part keeps its original output and gets
 *       {@code {"truncated"|"capped"|"deduplicated": true, "maxChars": N, "rawOutput": true}}
 *       ({@code maxChars} for the first two, plus {@code "notice"} for a custom dedupe notice). The
 *       view applies the recorded limit and drops {@code rawOutput}, which marks an output that is
 *       still the original.
 * </ul>
 *
 * <p>The view is the leading system messages, the protected messages up to the newest boundary, the
 * summary (a user message reading {@code "Summary of the earlier conversation, which was compressed
 * to fit the context window:"}, a blank line and the summary) or the notice, the anchored user
 * message, then every message after the newest boundary. The metadata is the whole state, so
 * compression continues across generate calls, sessions and process restarts when the caller
 * carries the history forward; {@link #resolveHistory} derives the view from any history. With
 * {@link #replaceHistory} the history the caller gets back is the view instead.
 *
 * <p><b>Stats</b> ({@code "stats"} on the boundary, and {@code custom.contextCompression} on the
 * final response for the newest compression of the call, absent when none ran): {@code trigger}
 * ({@code "maxInputTokens"} or {@code "maxMessages"}, the first that fired), {@code tokensBefore}
 * and {@code tokensAfter} (measured as above; after is before minus the estimated size of what was
 * removed plus that of what was inserted), {@code messagesBefore} and {@code messagesAfter} (the
 * view's size), {@code deduplicated} and {@code truncated} (tool responses newly limited), {@code
 * summarized} and {@code dropped} (messages folded into the summary, or dropped without one) and
 * {@code preserveRecent} (the window the compaction used, or 0 when none ran).
 *
 * <p><b>Ordering.</b> List it after middleware that adds context (Agents, Artifacts), so the
 * compression accounts for what they add, and before Retry and Fallback, so retried and fallback
 * calls receive the compressed view. Metadata is recorded on the history messages it receives
 * unchanged; messages that an outer middleware rewrote are compressed as they were rewritten.
 *
 * <p><b>By name</b> ({@code genkit-middleware-exp/contextCompression}), its JSON config has
 * Genkit's field names, so a configuration written for Genkit works as it is: the components'
 * names, but for {@code "deduplicateToolResponses"} ({@link #dedupeToolResponses}) and {@code
 * "toolResponses"} ({@link #truncateToolResponses}), as in {@code {"maxInputTokens": 80000,
 * "deduplicateToolResponses": {}, "toolResponses": {"maxChars": 2000}}}.
 *
 * <p>Immutable and thread-safe. The middleware never modifies the messages it receives, so one
 * history is safe to share between concurrent calls. An invalid configuration fails the generate
 * call with {@code INVALID_ARGUMENT} when the middleware builds its hooks, as Agents does.
 *
 * @param maxInputTokens the token trigger; 0 disables it
 * @param maxMessages the message-count trigger, and the most messages a compaction keeps in view; 0
 *     disables it
 * @param preserveRecent how many of the newest non-system messages a drop keeps, and the default
 *     window of {@link #summarize}; 0 means the default of 4. Set, it also makes a drop keep this
 *     window, on either trigger, where {@link #maxMessages} alone would cap the view or nothing
 *     would: when dedupe and truncation changed nothing or left the context over {@link
 *     #maxInputTokens}, or, with a summariser, whenever the summary was not skipped
 * @param maxToolResponseChars the cap on every tool response, output and text content together; 0
 *     means the default of 400,000, a negative value disables the cap
 * @param dedupeToolResponses replaces older duplicate tool responses when compression runs; null
 *     disables it. JSON: {@code "deduplicateToolResponses"}
 * @param truncateToolResponses truncates older tool responses when compression runs; null disables
 *     it. JSON: {@code "toolResponses"}
 * @param summarize folds older messages into a summary when compression runs; null disables it
 * @param skipSummarizationThreshold the fraction of the context, between 0 and 1, that dedupe and
 *     truncation must save (and get under {@link #maxInputTokens}) for the summary to be skipped; 0
 *     always summarises
 * @param truncationNotice replaces {@link #DEFAULT_TRUNCATION_NOTICE}; null or empty means the
 *     default
 * @param noTruncationNotice drop messages without telling the model
 * @param replaceHistory return the view as the history instead of the original messages with
 *     metadata
 */
public record ContextCompression(
    @JsonPropertyDescription(
            "Triggers compression when the context exceeds this many tokens. Zero disables the"
                + " token trigger.")
        @Defaulted
        int maxInputTokens,
    @JsonPropertyDescription(
            "Triggers compression when the conversation holds more than this many messages, and"
                + " caps the messages kept. Zero disables it.")
        @Defaulted
        int maxMessages,
    @JsonPropertyDescription(
            "How many of the newest non-system messages a compaction keeps when it drops"
                + " messages, and the default window for summarize. Defaults to 4.")
        @Defaulted
        int preserveRecent,
    @JsonPropertyDescription(
            "Caps every tool response, output and content together, on every iteration. Defaults"
                + " to 400000. Set it negative to disable the cap.")
        @Defaulted
        int maxToolResponseChars,
    @JsonProperty("deduplicateToolResponses")
        @JsonPropertyDescription(
            "Replaces older duplicate tool responses with a notice when compression runs. Unset"
                + " disables it.")
        @Nullable Dedupe dedupeToolResponses,
    @JsonProperty("toolResponses")
        @JsonPropertyDescription(
            "Truncates older tool responses when compression runs, leaving the newest tool"
                + " messages intact. Unset disables it.")
        @Nullable ToolTruncation truncateToolResponses,
    @JsonPropertyDescription(
            "Folds older messages into a summary written by a model when compression runs. Unset"
                + " disables it.")
        @Nullable Summarizer summarize,
    @JsonPropertyDescription(
            "Skips summarize when deduplication and truncation saved at least this fraction of the"
                + " context, between 0 and 1, and brought it under maxInputTokens. Zero always"
                + " summarizes.")
        @Defaulted
        double skipSummarizationThreshold,
    @JsonPropertyDescription("Custom notice inserted when messages are dropped.")
        @Nullable String truncationNotice,
    @JsonPropertyDescription("Drops messages without inserting a notice.") @Defaulted
        boolean noTruncationNotice,
    @JsonPropertyDescription(
            "Returns the compressed messages as the history, instead of keeping the original"
                + " messages and recording the compression in their metadata.")
        @Defaulted
        boolean replaceHistory)
    implements Middleware {

  /** The registered name, under which JSON config reaches it. */
  public static final String NAME = "genkit-middleware-exp/contextCompression";

  /** The notice inserted where messages were dropped without a summary, unless overridden. */
  public static final String DEFAULT_TRUNCATION_NOTICE =
      "[Earlier messages of this conversation were removed to fit the context window.]";

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Checks the configuration and builds this call's hooks.
   *
   * @throws BatonException {@code INVALID_ARGUMENT} for a negative {@code maxInputTokens}, {@code
   *     maxMessages}, {@code preserveRecent}, dedupe {@code keepRecent} or summariser {@code
   *     preserveRecent}; a truncation without a positive {@code maxChars}; a summariser without a
   *     model; a {@code skipSummarizationThreshold} outside [0, 1]
   */
  @Override
  public Hooks newHooks(ActionContext context) {
    return new CompressionHooks(CompressionSettings.of(this)).hooks();
  }

  /**
   * The view a model is sent for a history this middleware compressed (Genkit's {@code
   * ResolveCompressedHistory}): the leading system messages, the protected messages up to the
   * newest boundary, the summary or notice, the anchored user message, then every message after the
   * boundary, with each tool response's recorded limit applied. A history without a boundary
   * resolves to itself with those limits applied; one without any compression metadata resolves to
   * an equal list. Pure and thread-safe; {@code history} is not modified.
   */
  public static List<Message> resolveHistory(List<Message> history) {
    return CompressedHistory.of(history).view();
  }

  /**
   * How compression replaces older duplicate tool responses with a short notice. In each group of
   * duplicates the newest {@code keepRecent} responses stay intact; each older one keeps its
   * original output in the history, and the model sees the notice in its place.
   *
   * <p>Immutable and thread-safe. Checked when the middleware builds its hooks: a negative {@code
   * keepRecent} is {@code INVALID_ARGUMENT}.
   *
   * @param matchBy how duplicates are identified; null means {@link DedupeMatch#NAME_AND_INPUT}
   * @param keepRecent how many of the newest responses in each group stay intact; 0 means the
   *     default of 1
   * @param notice what replaces the output of each older duplicate; null or empty means {@value
   *     #DEFAULT_NOTICE}
   */
  public record Dedupe(
      @JsonPropertyDescription(
              "How duplicates are identified: \"name-and-input\" (default) matches calls to the"
                  + " same tool with the same input; \"name-only\" matches every response from the"
                  + " same tool, so only the newest survives.")
          @Nullable DedupeMatch matchBy,
      @JsonPropertyDescription(
              "How many of the newest responses in each duplicate group stay intact. Defaults to"
                  + " 1.")
          @Defaulted
          int keepRecent,
      @JsonPropertyDescription(
              "Replaces the output of each older duplicate. A default notice is used when empty.")
          @Nullable String notice) {

    /** The notice used when {@link #notice} is null or empty. */
    public static final String DEFAULT_NOTICE =
        "[Duplicate tool response omitted: a newer response to the same tool call appears later"
            + " in the conversation.]";

    /**
     * Duplicates are calls to the same tool with the same input (a null {@code matchBy}, as JSON
     * config without one reads); the defaults otherwise.
     */
    public static Dedupe byNameAndInput() {
      return new Dedupe(null, 0, null);
    }

    /** Every response from the same tool is a duplicate; the defaults otherwise. */
    public static Dedupe byNameOnly() {
      return new Dedupe(DedupeMatch.NAME_ONLY, 0, null);
    }

    public Dedupe withKeepRecent(int keepRecent) {
      return new Dedupe(matchBy, keepRecent, notice);
    }

    public Dedupe withNotice(String notice) {
      return new Dedupe(matchBy, keepRecent, notice);
    }
  }

  /** How {@link Dedupe} tells that two tool responses are duplicates. */
  public enum DedupeMatch {
    /**
     * Responses from calls to the same tool with the same input, the input being read from the tool
     * request each response answers. Inputs compare as JSON values, so key order does not matter.
     * The default.
     */
    NAME_AND_INPUT("name-and-input"),
    /**
     * Every response from the same tool, whatever its input, so only the newest survives. Use it
     * only for tools that return the latest overall state.
     */
    NAME_ONLY("name-only");

    private final String wireName;

    DedupeMatch(String wireName) {
      this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
      return wireName;
    }

    /**
     * Reads a wire name.
     *
     * @throws IllegalArgumentException for anything but {@code name-and-input} and {@code
     *     name-only} (JSON config reports it as {@code INVALID_ARGUMENT})
     */
    @JsonCreator
    public static DedupeMatch fromWireName(String wireName) {
      for (DedupeMatch match : values()) {
        if (match.wireName.equals(wireName)) {
          return match;
        }
      }
      throw new IllegalArgumentException(
          "matchBy must be \"name-and-input\" or \"name-only\", got \"" + wireName + "\"");
    }
  }

  /**
   * How compression truncates older tool responses. A response longer than {@code maxChars} (its
   * output and text content together, the output counted as JSON unless it is a string) keeps its
   * original output in the history, and the model sees its first {@code maxChars} characters with
   * the text content folded into the output (one line each), followed by the line {@code
   * [Truncated: showing the first <maxChars> of <length> characters.]}. Non-text content (media) is
   * kept as it is. {@link ContextCompression#maxToolResponseChars} cuts the same way.
   *
   * <p>Immutable and thread-safe. Checked when the middleware builds its hooks: a {@code maxChars}
   * that is not positive is {@code INVALID_ARGUMENT}.
   *
   * @param maxChars the most characters an older tool response keeps; required
   * @param preserveRecent how many of the newest tool messages stay intact; 0 means the default of
   *     2, and a negative value truncates every tool message
   */
  public record ToolTruncation(
      @JsonPropertyDescription(
              "The most characters an older tool response keeps, output and content together."
                  + " Text content is folded into the output when a response is truncated."
                  + " Required.")
          @Defaulted
          int maxChars,
      @JsonPropertyDescription(
              "How many of the newest tool messages stay intact. Defaults to 2. Set it negative to"
                  + " truncate every tool message.")
          @Defaulted
          int preserveRecent) {

    /** Truncation to {@code maxChars}, keeping the newest two tool messages intact. */
    public static ToolTruncation maxChars(int maxChars) {
      return new ToolTruncation(maxChars, 0);
    }

    public ToolTruncation withPreserveRecent(int preserveRecent) {
      return new ToolTruncation(maxChars, preserveRecent);
    }
  }

  /**
   * How compression has a model fold older messages into a summary.
   *
   * <p>The model is looked up by name in the registry of the generate call and called once per
   * compaction, outside the tool loop (no tools, no middleware), with the reference's config as it
   * is: set the summary's output limit there. Its usage counts as any model call's does in the
   * session and in budgets, but it is not part of the generate response's {@code totalUsage}. A
   * summary call that fails is logged at WARN and, as an empty summary, counts as none written:
   * messages may be dropped instead. A cancelled generate call still fails, and so does a model
   * that is not registered.
   *
   * <p>The summary covers the previous summary, if any, and every covered message that is not
   * protected, plus the text of a covered message carrying output-format instructions (which stays
   * in view), rendered as text one message after another without those instructions. Immutable and
   * thread-safe. Checked when the middleware builds its hooks: a missing model or a negative {@code
   * preserveRecent} is {@code INVALID_ARGUMENT}.
   *
   * @param model the model that writes the summaries, typically a smaller and faster one; required
   * @param preserveRecent how many of the newest non-system messages stay out of the summary; 0
   *     means {@link ContextCompression#preserveRecent} when that is set, and 6 otherwise
   * @param prompt replaces {@link #DEFAULT_PROMPT}; each {@code {conversation}} in it is replaced
   *     with the rendering of the messages to summarise, and without one the rendering is appended
   *     after a blank line
   */
  public record Summarizer(
      @JsonPropertyDescription(
              "The model that writes the summaries, typically a smaller and faster one. Its config"
                  + " is used as is, so set the summary's output limit there. Required.")
          @Nullable ModelRef model,
      @JsonPropertyDescription(
              "How many of the newest non-system messages stay out of the summary. Defaults to"
                  + " preserveRecent when that is set, and to 6 otherwise.")
          @Defaulted
          int preserveRecent,
      @JsonPropertyDescription(
              "Replaces the default summarization prompt. Each \"{conversation}\" is replaced with"
                  + " a text rendering of the messages to summarize; without one, the rendering is"
                  + " appended.")
          @Nullable String prompt) {

    /** The placeholder a prompt marks the conversation's place with. */
    public static final String PLACEHOLDER = "{conversation}";

    /** The prompt used when {@link #prompt} is null or empty. */
    public static final String DEFAULT_PROMPT =
        "Summarize the conversation below so that the summary can replace it in the context of an"
            + " ongoing task. Keep every fact, decision, name, number, file path and identifier"
            + " (task IDs included) that later steps may need, what each tool call was for and"
            + " what it returned, and any open question or unfinished step. Leave out pleasantries"
            + " and repetition. Answer with the summary only, as plain text.\n\n"
            + "<conversation>\n"
            + PLACEHOLDER
            + "\n</conversation>";

    /** A summariser with the given model and the defaults. */
    public static Summarizer of(ModelRef model) {
      return new Summarizer(model, 0, null);
    }

    /** A summariser with the model of that name, with no config, and the defaults. */
    public static Summarizer of(String model) {
      return of(ModelRef.of(model));
    }

    public Summarizer withPreserveRecent(int preserveRecent) {
      return new Summarizer(model, preserveRecent, prompt);
    }

    public Summarizer withPrompt(String prompt) {
      return new Summarizer(model, preserveRecent, prompt);
    }
  }

  /** Builds a {@link ContextCompression}; unset fields keep their defaults. Not thread-safe. */
  public static final class Builder {
    private int maxInputTokens;
    private int maxMessages;
    private int preserveRecent;
    private int maxToolResponseChars;
    private @Nullable Dedupe dedupeToolResponses;
    private @Nullable ToolTruncation truncateToolResponses;
    private @Nullable Summarizer summarize;
    private double skipSummarizationThreshold;
    private @Nullable String truncationNotice;
    private boolean noTruncationNotice;
    private boolean replaceHistory;

    private Builder() {}

    public Builder maxInputTokens(int maxInputTokens) {
      this.maxInputTokens = maxInputTokens;
      return this;
    }

    public Builder maxMessages(int maxMessages) {
      this.maxMessages = maxMessages;
      return this;
    }

    public Builder preserveRecent(int preserveRecent) {
      this.preserveRecent = preserveRecent;
      return this;
    }

    public Builder maxToolResponseChars(int maxToolResponseChars) {
      this.maxToolResponseChars = maxToolResponseChars;
      return this;
    }

    public Builder dedupeToolResponses(Dedupe dedupe) {
      this.dedupeToolResponses = dedupe;
      return this;
    }

    public Builder truncateToolResponses(ToolTruncation truncation) {
      this.truncateToolResponses = truncation;
      return this;
    }

    public Builder summarize(Summarizer summarizer) {
      this.summarize = summarizer;
      return this;
    }

    public Builder skipSummarizationThreshold(double threshold) {
      this.skipSummarizationThreshold = threshold;
      return this;
    }

    public Builder truncationNotice(String notice) {
      this.truncationNotice = notice;
      return this;
    }

    public Builder noTruncationNotice(boolean noTruncationNotice) {
      this.noTruncationNotice = noTruncationNotice;
      return this;
    }

    public Builder replaceHistory(boolean replaceHistory) {
      this.replaceHistory = replaceHistory;
      return this;
    }

    public ContextCompression build() {
      return new ContextCompression(
          maxInputTokens,
          maxMessages,
          preserveRecent,
          maxToolResponseChars,
          dedupeToolResponses,
          truncateToolResponses,
          summarize,
          skipSummarizationThreshold,
          truncationNotice,
          noTruncationNotice,
          replaceHistory);
    }
  }
}
