package dev.baton.internal.middleware.compression;

import dev.baton.ai.Message;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolRequestPart;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One iteration's compression of a {@link CompressedHistory}: the cap on every tool response in
 * view, then, when a trigger fires, dedupe, truncation and at most one compaction (a summary or a
 * drop), in that order. Everything it does is recorded on the history's messages. Every pass is
 * linear in the number of messages. Runs once: not thread-safe.
 */
final class CompressionRun {
  private final CompressionSettings settings;
  private final CompressedHistory history;
  private final ActionContext context;
  // Estimated characters the limits have taken out of the view since the trigger fired.
  private long savedChars;

  /** A dedupe group under name-and-input matching; inputs compare as JSON values. */
  private record NameAndInput(String name, @Nullable JsonNode input) {}

  /**
   * Where a compaction cuts: it covers the {@code covered} unprotected messages of the tail up to
   * the boundary; the messages after it are protected ones and the window.
   *
   * @param anchorUser whether the view keeps the user message that started the tool loop, which is
   *     before the boundary
   * @param anchorCovered whether that message is one of the covered ones
   */
  private record Plan(int boundary, int covered, boolean anchorUser, boolean anchorCovered) {}

  CompressionRun(CompressionSettings settings, CompressedHistory history, ActionContext context) {
    this.settings = settings;
    this.history = history;
    this.context = context;
  }

  /** Compresses the history as far as its settings ask; the stats when a trigger fired. */
  @Nullable CompressionStats run() {
    if (settings.maxToolResponseChars() >= 0) {
      int cap = settings.maxToolResponseChars();
      for (int i : history.keptBefore()) {
        limitLonger(i, cap, limit -> limit.cappedAt(cap));
      }
      for (int i = history.tailStart(); i < history.size(); i++) {
        limitLonger(i, cap, limit -> limit.cappedAt(cap));
      }
    }
    long tokensBefore = measure();
    int messagesBefore = history.viewSize();
    String trigger = trigger(tokensBefore, messagesBefore);
    if (trigger == null) {
      return null;
    }
    savedChars = 0;
    int deduplicated = settings.dedupe() == null ? 0 : dedupe(settings.dedupe());
    int truncated = settings.truncation() == null ? 0 : truncate(settings.truncation());
    long tokens = Math.max(0, tokensBefore - savedChars / TokenEstimator.CHARS_PER_TOKEN);
    CompressionStats stats =
        new CompressionStats(
            trigger,
            asInt(tokensBefore),
            asInt(tokens),
            messagesBefore,
            messagesBefore,
            deduplicated,
            truncated,
            0,
            0,
            0);
    return compact(stats, tokensBefore, tokens);
  }

  /**
   * The context in tokens: what the newest model message in the tail reported, plus the estimate of
   * that message and everything after it; the estimate of the whole view without one.
   */
  private long measure() {
    long chars = 0;
    for (int i = history.size() - 1; i >= history.tailStart(); i--) {
      chars += history.charsAt(i);
      Message message = history.message(i);
      if (message.role() == Role.MODEL) {
        long reported = CompressionMetadata.inputTokens(CompressionMetadata.of(message.metadata()));
        if (reported >= 0) {
          return reported + TokenEstimator.tokens(chars);
        }
      }
    }
    return TokenEstimator.tokens(history.viewChars());
  }

  private @Nullable String trigger(long tokens, int messages) {
    if (overTokens(tokens)) {
      return "maxInputTokens";
    }
    return overMessages(messages) ? "maxMessages" : null;
  }

  private boolean overTokens(long tokens) {
    return settings.maxInputTokens() > 0 && tokens > settings.maxInputTokens();
  }

  private boolean overMessages(int messages) {
    return settings.maxMessages() > 0 && messages > settings.maxMessages();
  }

  /** Replaces older duplicates in the tail with the notice, newest first; how many it replaced. */
  private int dedupe(CompressionSettings.Dedupe dedupe) {
    Map<Object, Integer> seen = new HashMap<>();
    int count = 0;
    for (int i = history.size() - 1; i >= history.tailStart(); i--) {
      if (history.isProtected(i)) {
        continue;
      }
      List<Part> content = history.message(i).content();
      Part[] changed = null;
      for (int j = content.size() - 1; j >= 0; j--) {
        if (!(content.get(j) instanceof ToolResponsePart part)) {
          continue;
        }
        Object key =
            dedupe.matchBy() == ContextCompression.DedupeMatch.NAME_ONLY
                ? part.toolResponse().name()
                : nameAndInput(i, part);
        if (key == null || seen.merge(key, 1, Integer::sum) <= dedupe.keepRecent()) {
          continue;
        }
        ObjectNode metadata = part.metadata();
        CompressionMetadata.Limit limit = CompressionMetadata.limit(metadata);
        if (!limit.deduplicated()) {
          changed = changed == null ? content.toArray(new Part[0]) : changed;
          changed[j] =
              part.withMetadata(
                  CompressionMetadata.withLimit(
                      metadata, limit.deduplicatedWith(dedupe.customNotice())));
          count++;
        }
      }
      if (changed != null) {
        replaceCounting(i, history.message(i).withContent(Arrays.asList(changed)));
      }
    }
    return count;
  }

  /**
   * The dedupe key of a response: its name and the input of the request it answers, found in the
   * model message before it; null when there is no such request, so it is never a duplicate.
   */
  private @Nullable NameAndInput nameAndInput(int index, ToolResponsePart response) {
    if (index == 0) {
      return null;
    }
    String name = response.toolResponse().name();
    String ref = response.toolResponse().ref();
    for (ToolRequestPart request : history.message(index - 1).toolRequests()) {
      if (request.toolRequest().name().equals(name)
          && Objects.equals(request.toolRequest().ref(), ref)) {
        return new NameAndInput(name, request.toolRequest().input());
      }
    }
    return null;
  }

  /** Truncates the tool messages of the tail but the newest; how many responses it truncated. */
  private int truncate(CompressionSettings.Truncation truncation) {
    int count = 0;
    int toolMessages = 0;
    for (int i = history.size() - 1; i >= history.tailStart(); i--) {
      if (history.message(i).role() != Role.TOOL) {
        continue;
      }
      toolMessages++;
      boolean recent =
          truncation.preserveRecent() >= 0 && toolMessages <= truncation.preserveRecent();
      if (!recent && !history.isProtected(i)) {
        count +=
            limitLonger(
                i, truncation.maxChars(), limit -> limit.truncatedAt(truncation.maxChars()));
      }
    }
    return count;
  }

  /**
   * Records {@code tighten} on each tool response of a message that is longer than {@code maxChars}
   * and not yet limited to that; how many it limited.
   */
  private int limitLonger(
      int index, int maxChars, UnaryOperator<CompressionMetadata.Limit> tighten) {
    List<Part> content = history.message(index).content();
    Part[] changed = null;
    int count = 0;
    for (int j = 0; j < content.size(); j++) {
      if (content.get(j) instanceof ToolResponsePart part) {
        ObjectNode metadata = part.metadata();
        CompressionMetadata.Limit limit = CompressionMetadata.limit(metadata);
        if (!limit.within(maxChars) && ToolOutputs.chars(part.toolResponse()) > maxChars) {
          changed = changed == null ? content.toArray(new Part[0]) : changed;
          changed[j] =
              part.withMetadata(CompressionMetadata.withLimit(metadata, tighten.apply(limit)));
          count++;
        }
      }
    }
    if (changed != null) {
      replaceCounting(index, history.message(index).withContent(Arrays.asList(changed)));
    }
    return count;
  }

  private void replaceCounting(int index, Message message) {
    long before = history.charsAt(index);
    history.replace(index, message);
    savedChars += before - history.charsAt(index);
  }

  /**
   * Summarises older messages when a summary is due and something new can be covered, or else drops
   * them as {@link #dropWindow} rules; the stats completed with what it did.
   */
  private CompressionStats compact(CompressionStats stats, long tokensBefore, long tokens) {
    CompressionSettings.Summarizer summarizer = settings.summarizer();
    boolean summaryDue = summarizer != null && !skipSummary(tokensBefore, tokens);
    if (summarizer != null && summaryDue && !outOfReach(tokens, stats.messagesBefore())) {
      int window = shrink(summarizer.preserveRecent(), tokensBefore);
      Plan plan = plan(window, true);
      int fallbackWindow = shrink(settings.preserveRecent(), tokensBefore);
      if (plan == null && overTokens(tokensBefore) && fallbackWindow < window) {
        // The summary's window holds the whole conversation: over budget, the smaller window of a
        // drop is summarised rather than the conversation left whole.
        window = fallbackWindow;
        plan = plan(window, true);
      }
      if (plan != null) {
        String summary = summarize(summarizer, plan);
        // An empty or failed summary is none written: what to drop is decided as without one.
        if (!summary.isEmpty()) {
          return record(stats, tokens, plan, window, summary);
        }
      }
    }
    int window = dropWindow(stats, tokensBefore, tokens, summaryDue);
    Plan plan = window > 0 ? plan(window, settings.dropNotice().text() != null) : null;
    return plan == null ? stats : record(stats, tokens, plan, window, "");
  }

  /**
   * The window of a drop once nothing was summarised, or 0 for none, by Genkit's rule. The drop
   * keeps {@code preserveRecent}'s window when the context was over the token budget and either no
   * strategy is configured or a summary was due (one that came back empty or failed was not
   * written); and, whichever trigger fired, when {@code preserveRecent} was set and the budget was
   * not met: without a summariser, dedupe and truncation changed nothing or left the context over
   * the token budget; with one, the summary was not skipped. Otherwise {@code maxMessages}, when
   * set, caps the view on its own. Either window is shrunk as {@link #shrink} says.
   */
  private int dropWindow(
      CompressionStats stats, long tokensBefore, long tokens, boolean summaryDue) {
    boolean hasSummarizer = settings.summarizer() != null;
    boolean noStrategy =
        settings.dedupe() == null && settings.truncation() == null && !hasSummarizer;
    boolean budgetMet =
        hasSummarizer
            ? !summaryDue
            : stats.deduplicated() + stats.truncated() > 0 && !overTokens(tokens);
    if ((settings.explicitPreserveRecent() && !budgetMet)
        || (overTokens(tokensBefore) && (noStrategy || summaryDue))) {
      return shrink(settings.preserveRecent(), tokensBefore);
    }
    if (settings.maxMessages() > 0) {
      int fixed = history.systemEnd() + (settings.dropNotice().text() == null ? 0 : 1);
      return shrink(Math.max(1, settings.maxMessages() - fixed), tokensBefore);
    }
    return 0;
  }

  /** Marks the plan's boundary with the summary (empty for a drop) and the completed stats. */
  private CompressionStats record(
      CompressionStats stats, long tokens, Plan plan, int window, String summary) {
    CompressionMetadata.Boundary boundary =
        summary.isEmpty()
            ? new CompressionMetadata.Boundary(
                "", plan.anchorUser(), settings.dropNotice().recorded())
            : new CompressionMetadata.Boundary(summary, plan.anchorUser(), null);
    long charsBefore = history.viewChars();
    Message marked = history.message(plan.boundary());
    history.markBoundary(plan.boundary(), CompressionMetadata.withBoundary(marked, boundary, null));
    CompressionStats done =
        new CompressionStats(
            stats.trigger(),
            stats.tokensBefore(),
            asInt(
                Math.max(
                    0,
                    tokens - (charsBefore - history.viewChars()) / TokenEstimator.CHARS_PER_TOKEN)),
            stats.messagesBefore(),
            history.viewSize(),
            stats.deduplicated(),
            stats.truncated(),
            summary.isEmpty() ? 0 : plan.covered(),
            summary.isEmpty() ? plan.covered() - (plan.anchorCovered() ? 1 : 0) : 0,
            window);
    history.replace(plan.boundary(), CompressionMetadata.withBoundary(marked, boundary, done));
    return done;
  }

  /**
   * The summary of the previous one and of the messages the plan covers, as the view shows them and
   * without output-format instructions. The protected message carrying those instructions is read
   * too, though it stays in view: once a later call's message takes over the protection, it leaves
   * the view, and the summary is then all that remains of it.
   */
  private String summarize(CompressionSettings.Summarizer summarizer, Plan plan) {
    List<Message> covered = new ArrayList<>(plan.covered() + 1);
    for (int i = history.tailStart(); i <= plan.boundary(); i++) {
      if (!history.isProtected(i) || history.isOutputInstructions(i)) {
        covered.add(CompressedHistory.withoutOutputInstructions(history.viewAt(i)));
      }
    }
    CompressionMetadata.Boundary previous = history.boundary();
    return Summarizer.summarize(
        context, summarizer, previous == null ? "" : previous.summary(), covered);
  }

  private static int asInt(long tokens) {
    return (int) Math.min(Integer.MAX_VALUE, tokens);
  }

  /** Whether dedupe and truncation saved enough, and got under the token budget. */
  private boolean skipSummary(long tokensBefore, long tokens) {
    double threshold = settings.skipSummarizationThreshold();
    return threshold > 0
        && tokensBefore > 0
        && tokensBefore - tokens >= threshold * tokensBefore
        && !overTokens(tokens);
  }

  /**
   * Whether the view is over a budget that no compaction can meet, because what every compaction
   * keeps (the leading system messages, the protected messages, and the newest message, plus the
   * summary for the message budget) is over it already; and over no budget that one can meet. A
   * summary then costs a model call on every iteration, for good, without getting under the limit,
   * so a drop (free, and keeping the view as small as it can be) is done instead.
   */
  private boolean outOfReach(long tokens, int messages) {
    boolean overTokens = overTokens(tokens);
    boolean overMessages = overMessages(messages);
    if (!overTokens && !overMessages) {
      return false;
    }
    int n = history.size();
    long keptChars = 0;
    int kept = history.systemEnd();
    for (int i = 0; i < history.systemEnd(); i++) {
      keptChars += history.charsAt(i);
    }
    for (int i : history.keptBefore()) {
      keptChars += history.charsAt(i);
      kept++;
    }
    for (int i = history.tailStart(); i < n; i++) {
      if (history.isProtected(i) || i == n - 1) {
        keptChars += history.charsAt(i);
        kept++;
      }
    }
    return (!overTokens || overTokens(TokenEstimator.tokens(keptChars)))
        && (!overMessages || overMessages(kept + 1));
  }

  /**
   * The window as Genkit shrinks it by the context before dedupe and truncation: from 1.5 times the
   * token budget halved but not below 2, from twice cut to 2; never widened.
   */
  private int shrink(int window, long tokensBefore) {
    long budget = settings.maxInputTokens();
    if (budget <= 0 || 2 * tokensBefore < 3 * budget) {
      return window;
    }
    return Math.min(window, tokensBefore >= 2 * budget ? 2 : Math.max(2, window / 2));
  }

  /**
   * Where to cut: the longest tail window holding at most {@code window} non-system messages with
   * which the view fits {@code maxMessages}, but at least the newest message; null when it would
   * cover nothing new. A window that would start at a tool response is widened to the request, or,
   * when that would break {@code maxMessages}, narrowed past the round; the newest round is kept
   * whatever the cap. The boundary is never the user message that started the tool loop: that stays
   * in the tail, or, when the window has moved past it into the tool rounds it started, in view as
   * the anchor.
   */
  private @Nullable Plan plan(int window, boolean insertsMessage) {
    int n = history.size();
    int tailStart = history.tailStart();
    if (n <= tailStart) {
      return null;
    }
    int currentUser = anchorCandidate();
    int protectedBefore = 0;
    for (int i = tailStart; i < n; i++) {
      protectedBefore += history.isProtected(i) ? 1 : 0;
    }
    int fixed = history.systemEnd() + history.keptBefore().length + (insertsMessage ? 1 : 0);
    int start = n;
    int nonSystem = 0;
    while (start > tailStart) {
      int candidate = start - 1;
      int nonSystemWith = nonSystem + (history.message(candidate).role() == Role.SYSTEM ? 0 : 1);
      int protectedWithout = protectedBefore - (history.isProtected(candidate) ? 1 : 0);
      if (nonSystemWith > window
          || overMessages(viewSize(candidate, fixed, protectedWithout, currentUser))) {
        break;
      }
      start = candidate;
      nonSystem = nonSystemWith;
      protectedBefore = protectedWithout;
    }
    if (start == n) {
      start = n - 1;
      protectedBefore -= history.isProtected(start) ? 1 : 0;
    }
    if (history.message(start).role() == Role.TOOL) {
      int widened = start;
      int protectedBeforeWidened = protectedBefore;
      while (widened > tailStart && history.message(widened).role() == Role.TOOL) {
        widened--;
        protectedBeforeWidened -= history.isProtected(widened) ? 1 : 0;
      }
      int narrowed = start;
      while (narrowed < n && history.message(narrowed).role() == Role.TOOL) {
        narrowed++;
      }
      boolean breaksCap =
          overMessages(viewSize(widened, fixed, protectedBeforeWidened, currentUser));
      start = narrowed < n && breaksCap ? narrowed : widened;
    }
    int boundary = -1;
    int previous = -1;
    int covered = 0;
    for (int i = tailStart; i < start; i++) {
      if (!history.isProtected(i)) {
        previous = boundary;
        boundary = i;
        covered++;
      }
    }
    boolean anchorUser = currentUser >= 0 && currentUser < start;
    if (anchorUser && boundary == currentUser) {
      // The user message would be the boundary: cut before it instead, keeping it in the tail.
      boundary = previous;
      covered--;
      anchorUser = false;
    }
    if (boundary < 0) {
      return null;
    }
    return new Plan(boundary, covered, anchorUser, anchorUser && currentUser >= tailStart);
  }

  /**
   * The size of the view whose tail window starts at {@code from}, with {@code protectedBefore}
   * protected messages of the tail before it.
   */
  private int viewSize(int from, int fixed, int protectedBefore, int currentUser) {
    int anchor = currentUser >= 0 && currentUser < from ? 1 : 0;
    return fixed + protectedBefore + anchor + history.size() - from;
  }

  /**
   * The user message that started the current tool loop, when a compaction would have to anchor it
   * to keep it in view: the newest user turn, unless it is protected (kept anyway); else -1.
   */
  private int anchorCandidate() {
    for (int i = history.size() - 1; i >= history.systemEnd(); i--) {
      if (CompressedHistory.isUserTurn(history.message(i))) {
        return history.isProtected(i) ? -1 : i;
      }
    }
    return -1;
  }
}
