package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.core.BatonException;
import dev.baton.core.Status;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/**
 * When ContextCompression drops older messages, once nothing was summarised, and how many it keeps:
 * Genkit's rule, one test per branch. A drop keeps {@code preserveRecent}'s window on a token
 * overage with no strategy configured or a summary due but not written, and, on either trigger,
 * when {@code preserveRecent} is set and the cheap strategies (with a summariser, a skipped
 * summary) did not meet the token budget; otherwise {@code maxMessages} caps the view on its own.
 */
class ContextCompressionDropRuleTest extends ContextCompressionTestSupport {
  private static final String NOTICE = "user:" + ContextCompression.DEFAULT_TRUNCATION_NOTICE;
  private static final String TRUNCATED_A =
      "A".repeat(100) + "\n[Truncated: showing the first 100 of 4000 characters.]";

  /** Two tool rounds of 4000 and 5000 characters: some 2250 tokens in all. */
  private static List<Message> twoLookups() {
    return List.of(
        Message.user("start"),
        call("r1", "a"),
        result("r1", "A".repeat(4000)),
        call("r2", "b"),
        result("r2", "B".repeat(5000)),
        Message.model("thinking"));
  }

  /** Truncation of every tool message but the newest to 100 characters. */
  private static ContextCompression.Builder truncating() {
    return compression()
        .truncateToolResponses(
            ContextCompression.ToolTruncation.maxChars(100).withPreserveRecent(1));
  }

  /** {@code pairs} user and model messages of 45 characters each. */
  private static List<Message> longChat(int pairs) {
    List<Message> messages = new ArrayList<>();
    for (int i = 1; i <= pairs; i++) {
      messages.add(Message.user("u" + i + "x".repeat(43)));
      messages.add(Message.model("m" + i + "x".repeat(43)));
    }
    return messages;
  }

  /** A view in brief, naming {@link #longChat}'s messages by their first word ("u4"). */
  private static String[] longView(String... entries) {
    return Arrays.stream(entries)
        .map(
            entry ->
                entry.matches("[um][0-9]+")
                    ? (entry.startsWith("u") ? "user:" : "model:") + entry + "x".repeat(43)
                    : entry)
        .toArray(String[]::new);
  }

  private JsonNode stats(GenerateResponse response) {
    return response.response().custom().path(CompressionMetadata.KEY);
  }

  @Test
  @DisplayName("A token overage that truncation leaves drops nothing without preserveRecent")
  void aTokenOverageLeftByTheCheapStrategiesDropsNothing() {
    model.respondText("ok");

    // Truncating r1 leaves some 1280 tokens: over the budget, yet with preserveRecent unset and
    // no maxMessages, nothing caps the view and every message is kept.
    GenerateResponse response =
        generate(twoLookups(), "go", truncating().maxInputTokens(1000).build());

    assertThat(sent(0))
        .containsExactly(
            "user:start",
            "call(r1)",
            "result(r1)=" + TRUNCATED_A,
            "call(r2)",
            "result(r2)=" + "B".repeat(5000),
            "model:thinking",
            "user:go");
    assertThat(stats(response).path("tokensAfter").asLong()).isGreaterThan(1000);
    assertThat(stats(response).path("dropped").asInt()).isZero();
    assertThat(boundaryIndex(response.history())).isEqualTo(-1);
  }

  @Test
  @DisplayName("A token overage with no strategy configured drops to preserveRecent")
  void aTokenOverageWithNoStrategyDropsToPreserveRecent() {
    model.respondText("ok");

    // maxMessages is far off: the window is preserveRecent's default of 4, not the message cap.
    generate(twoLookups(), "go", compression().maxInputTokens(2000).maxMessages(50).build());

    assertThat(sent(0))
        .containsExactly(
            NOTICE, "call(r2)", "result(r2)=" + "B".repeat(5000), "model:thinking", "user:go");
  }

  @Test
  @DisplayName("A token overage left by the cheap strategies drops to an explicit preserveRecent")
  void anExplicitPreserveRecentDropsWhatTheCheapStrategiesLeftOverBudget() {
    model.respondText("ok");

    GenerateResponse response =
        generate(twoLookups(), "go", truncating().maxInputTokens(1000).preserveRecent(2).build());

    assertThat(sent(0)).containsExactly(NOTICE, "model:thinking", "user:go");
    assertThat(stats(response).path("truncated").asInt()).isEqualTo(1);
    assertThat(stats(response).path("dropped").asInt()).isEqualTo(5);
  }

  @Test
  @DisplayName("Once the cheap strategies meet the token budget, only maxMessages caps the view")
  void anExplicitPreserveRecentIsUnusedOnceTheCheapStrategiesMeetTheBudget() {
    model.respondText("ok").respondText("ok");

    // Truncation brings some 2250 tokens under 2000; the conversation is also over 6 messages.
    generate(twoLookups(), "go", truncating().maxInputTokens(2000).preserveRecent(2).build());
    generate(
        twoLookups(),
        "go",
        truncating().maxInputTokens(2000).preserveRecent(2).maxMessages(6).build());

    assertThat(sent(0)).hasSize(7).contains("result(r1)=" + TRUNCATED_A);
    // Six messages, not preserveRecent's two; r1's result would go without its request.
    assertThat(sent(1))
        .containsExactly(
            NOTICE, "call(r2)", "result(r2)=" + "B".repeat(5000), "model:thinking", "user:go");
  }

  @Test
  @DisplayName("A summary that was due but not written drops to preserveRecent on a token overage")
  void aSummaryDueButNotWrittenDropsToPreserveRecent() {
    summarizer.respondText("");
    model.respondText("ok");

    // Some 130 tokens over 100: the summary's window is 6, preserveRecent's 4.
    GenerateResponse response =
        generate(
            longChat(5),
            "go",
            compression()
                .maxInputTokens(100)
                .summarize(ContextCompression.Summarizer.of("summarizer"))
                .build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(sent(0)).containsExactly(longView(NOTICE, "m4", "u5", "m5", "user:go"));
    assertThat(stats(response).path("summarized").asInt()).isZero();
    assertThat(stats(response).path("dropped").asInt()).isEqualTo(7);
  }

  @Test
  @DisplayName(
      "Too short for the summary's window, an over-budget conversation is summarised in preserveRecent's")
  void anOverBudgetConversationTooShortForTheSummaryWindowIsSummarisedInTheDropWindow() {
    summarizer.respondText("S");
    model.respondText("ok");

    // Five messages of some 46 tokens against a budget of 40: the summary's window of 6 holds
    // them all, so it falls back to preserveRecent's 4 and covers u1.
    generate(
        longChat(2),
        "go",
        compression()
            .maxInputTokens(40)
            .summarize(ContextCompression.Summarizer.of("summarizer"))
            .build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(sent(0))
        .containsExactly(
            longView("user:" + CompressedHistory.SUMMARY_INTRO + "S", "m1", "u2", "m2", "user:go"));
  }

  @Test
  @DisplayName("A summariser that fails is treated as a summary due but not written")
  void aFailingSummariserDropsAsASummaryNotWritten() {
    summarizer.step().fail(BatonException.of(Status.UNAVAILABLE, "the summariser is down"));
    model.respondText("ok");

    // As aSummaryDueButNotWrittenDropsToPreserveRecent: the call goes on without a summary.
    GenerateResponse response =
        generate(
            longChat(5),
            "go",
            compression()
                .maxInputTokens(100)
                .summarize(ContextCompression.Summarizer.of("summarizer"))
                .build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(response.text()).isEqualTo("ok");
    assertThat(sent(0)).containsExactly(longView(NOTICE, "m4", "u5", "m5", "user:go"));
    assertThat(stats(response).path("summarized").asInt()).isZero();
    assertThat(stats(response).path("dropped").asInt()).isEqualTo(7);
  }

  @Test
  @DisplayName("On maxMessages, a summary due but not written drops to an explicit preserveRecent")
  void onTheMessageBudgetASummaryNotWrittenDropsToAnExplicitPreserveRecent() {
    summarizer.respondText("");
    model.respondText("ok");

    // No token budget: thirteen messages over ten, and the summary of all but two comes back empty.
    GenerateResponse response =
        generate(
            chat(6),
            "go",
            compression()
                .maxMessages(10)
                .preserveRecent(2)
                .summarize(ContextCompression.Summarizer.of("summarizer"))
                .build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(sent(0)).containsExactly(NOTICE, "model:m6", "user:go");
    assertThat(stats(response).path("preserveRecent").asInt()).isEqualTo(2);
  }

  @Test
  @DisplayName("On maxMessages, a summary due but not written is capped at maxMessages")
  void onTheMessageBudgetASummaryNotWrittenIsCappedAtMaxMessages() {
    summarizer.respondText("");
    model.respondText("ok");

    // The summary's window is 6; without it, nine messages and the notice fill the cap of ten.
    generate(
        chat(6),
        "go",
        compression()
            .maxMessages(10)
            .summarize(ContextCompression.Summarizer.of("summarizer"))
            .build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(sent(0))
        .containsExactly(
            NOTICE,
            "user:u3",
            "model:m3",
            "user:u4",
            "model:m4",
            "user:u5",
            "model:m5",
            "user:u6",
            "model:m6",
            "user:go");
  }

  @Test
  @DisplayName("A skipped summary leaves preserveRecent unused")
  void aSkippedSummaryLeavesPreserveRecentUnused() {
    model.respondText("ok");

    // Truncation saves some 40% of the context and meets the budget: the summary is skipped.
    GenerateResponse response =
        generate(
            twoLookups(),
            "go",
            truncating()
                .maxInputTokens(2000)
                .preserveRecent(2)
                .summarize(ContextCompression.Summarizer.of("summarizer"))
                .skipSummarizationThreshold(0.3)
                .build());

    assertThat(summarizer.calls()).isZero();
    assertThat(sent(0)).hasSize(7).contains("result(r1)=" + TRUNCATED_A);
    assertThat(boundaryIndex(response.history())).isEqualTo(-1);
  }

  @Test
  @DisplayName("maxMessages alone keeps maxMessages messages, not preserveRecent")
  void theMessageBudgetKeepsMaxMessages() {
    model.respondText("ok");

    GenerateResponse response = generate(chat(5), "go", compression().maxMessages(8).build());

    assertThat(sent(0))
        .containsExactly(
            NOTICE, "user:u3", "model:m3", "user:u4", "model:m4", "user:u5", "model:m5", "user:go");
    assertThat(stats(response).path("preserveRecent").asInt()).isEqualTo(7);
  }

  @Test
  @DisplayName("Far over the token budget, the message budget's window shrinks as preserveRecent's")
  void theMessageBudgetShrinksFarOverTheTokenBudget() {
    // Dedupe configured (with nothing to dedupe) leaves the token overage to maxMessages.
    ContextCompression compression =
        compression()
            .maxInputTokens(1000)
            .maxMessages(10)
            .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
            .build();
    for (int reported : new int[] {1100, 1600}) {
      List<Message> history = new ArrayList<>(chat(10));
      history.set(19, CompressionMetadata.withInputTokens(history.get(19), reported));
      model.respondText("ok");
      generate(history, "go", compression);
    }

    // Nine messages and the notice, within the cap of ten; then the nine halved to four.
    assertThat(sent(0))
        .containsExactly(
            NOTICE,
            "user:u7",
            "model:m7",
            "user:u8",
            "model:m8",
            "user:u9",
            "model:m9",
            "user:u10",
            "model:m10",
            "user:go");
    assertThat(sent(1)).containsExactly(NOTICE, "model:m9", "user:u10", "model:m10", "user:go");
  }

  @ParameterizedTest(name = "preserveRecent {0} at {1} tokens of 1000 keeps {2}")
  @CsvSource({
    "4, 1499, 4",
    "4, 1500, 2",
    "3, 1500, 2",
    "8, 1999, 4",
    "3, 1999, 2",
    "6, 2000, 2",
    "1, 2500, 1"
  })
  @DisplayName("Far over the token budget, the window is halved but not below 2, then cut to 2")
  void theWindowShrinksFarOverTheTokenBudget(int preserveRecent, int tokens, int window) {
    model.respondText("ok");
    List<Message> history = new ArrayList<>(chat(10));
    // The context is what m10 reports plus the estimate of m10 and the prompt after it.
    int estimated = (int) TokenEstimator.tokens("m10".length() + "go".length());
    history.set(19, CompressionMetadata.withInputTokens(history.get(19), tokens - estimated));

    GenerateResponse response =
        generate(
            history,
            "go",
            compression().maxInputTokens(1000).preserveRecent(preserveRecent).build());

    assertThat(stats(response).path("tokensBefore").asInt()).isEqualTo(tokens);
    assertThat(stats(response).path("preserveRecent").asInt()).isEqualTo(window);
    assertThat(sent(0)).hasSize(window + 1);
  }

  @Test
  @DisplayName("The window shrinks by the context as it was before dedupe and truncation")
  void theWindowShrinksByTheContextBeforeTheCheapStrategies() {
    model.respondText("ok");
    List<Message> history =
        new ArrayList<>(
            List.of(
                Message.user("start"),
                call("r1", "a"),
                result("r1", "A".repeat(4000)),
                call("r2", "a"),
                result("r2", "A".repeat(4000)),
                Message.model("thinking")));
    history.set(5, CompressionMetadata.withInputTokens(history.get(5), 2000));

    // Dedupe takes some 950 tokens off twice the budget: still over it, the context drops to
    // preserveRecent, whose 3 are cut to 2 as the context was twice the budget before dedupe.
    GenerateResponse response =
        generate(
            history,
            "go",
            compression()
                .maxInputTokens(1000)
                .preserveRecent(3)
                .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
                .build());

    assertThat(stats(response).path("deduplicated").asInt()).isEqualTo(1);
    assertThat(stats(response).path("tokensBefore").asInt()).isGreaterThanOrEqualTo(2000);
    assertThat(stats(response).path("tokensAfter").asInt()).isLessThan(1500);
    assertThat(sent(0)).containsExactly(NOTICE, "model:thinking", "user:go");
  }

  @Test
  @DisplayName(
      "A window that starts at a tool response gives the round up rather than break maxMessages")
  void theMessageBudgetIsKeptWhenTheWindowStartsAtAToolResponse() {
    model.respondText("ok");
    List<Message> history =
        List.of(
            Message.user("u1"),
            Message.model("m1"),
            Message.user("u2"),
            call("r1", "a"),
            result("r1", "one"),
            call("r2", "b"),
            result("r2", "two"));

    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(history)
            .use(compression().maxMessages(5).preserveRecent(3).build())
            .build());

    // Widening the window of three back to r1's request would make six messages.
    assertThat(sent(0)).containsExactly(NOTICE, "user:u2", "call(r2)", "result(r2)=two");
  }
}
