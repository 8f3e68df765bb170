package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Message;
import dev.baton.ai.ModelRef;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.UsageListeners;
import dev.baton.middleware.compression.ContextCompression;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The strategies of ContextCompression: their order, dedupe, truncation and the summary. */
class ContextCompressionStrategyTest extends ContextCompressionTestSupport {
  private static final String NOTICE = "user:" + ContextCompression.DEFAULT_TRUNCATION_NOTICE;
  private static final String DEDUPED = ContextCompression.Dedupe.DEFAULT_NOTICE;

  /** Three 4000-character results, two of them duplicates: about 3000 tokens in all. */
  private static List<Message> threeLookups() {
    return List.of(
        Message.user("start"),
        call("r1", "a"),
        result("r1", "A".repeat(4000)),
        call("r2", "a"),
        result("r2", "B".repeat(4000)),
        call("r3", "b"),
        result("r3", "C".repeat(4000)),
        Message.model("thinking"));
  }

  private static ContextCompression.Builder cheapThenSummary(double threshold) {
    return compression()
        .maxInputTokens(2000)
        .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
        .truncateToolResponses(
            ContextCompression.ToolTruncation.maxChars(100).withPreserveRecent(1))
        .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2))
        .skipSummarizationThreshold(threshold);
  }

  private static String truncated(String text, int total) {
    return text
        + "\n[Truncated: showing the first "
        + text.length()
        + " of "
        + total
        + " characters.]";
  }

  @Test
  @DisplayName("C2 dedupe and truncation run first; the summary is skipped when they saved enough")
  void theSummaryIsSkippedWhenTheCheapStrategiesSavedEnough() {
    model.respondText("ok");

    GenerateResponse response = generate(threeLookups(), "go", cheapThenSummary(0.5).build());

    assertThat(summarizer.calls()).isZero();
    assertThat(sent(0))
        .containsExactly(
            "user:start",
            "call(r1)",
            "result(r1)=" + DEDUPED,
            "call(r2)",
            "result(r2)=" + truncated("B".repeat(100), 4000),
            "call(r3)",
            "result(r3)=" + "C".repeat(4000),
            "model:thinking",
            "user:go");
    assertThat(boundaryIndex(response.history())).isEqualTo(-1);
    JsonNode stats = response.response().custom().path(CompressionMetadata.KEY);
    assertThat(stats.path("deduplicated").asInt()).isEqualTo(1);
    assertThat(stats.path("truncated").asInt()).isEqualTo(1);
    assertThat(stats.path("tokensAfter").asLong())
        .isLessThan(2000)
        .isLessThanOrEqualTo(stats.path("tokensBefore").asLong() / 2);
  }

  @Test
  @DisplayName("C2 the summary is not skipped when the savings left the context over budget")
  void theSummaryRunsWhenTheSavingsLeftTheContextOverBudget() {
    summarizer.respondText("S");
    model.respondText("ok");

    // The same savings, about two thirds, leave some 1080 tokens: over a budget of 1000.
    generate(threeLookups(), "go", cheapThenSummary(0.5).maxInputTokens(1000).build());

    assertThat(summarizer.calls()).isEqualTo(1);
    assertThat(sent(0))
        .containsExactly(
            "user:" + CompressedHistory.SUMMARY_INTRO + "S", "model:thinking", "user:go");
  }

  @Test
  @DisplayName("C2 the summary, when not skipped, reads what dedupe and truncation left")
  void theSummaryRunsAfterDedupeAndTruncation() {
    summarizer.respondText("S");
    model.respondText("ok");

    GenerateResponse response = generate(threeLookups(), "go", cheapThenSummary(0.9).build());

    String rendering = summarizer.lastRequest().messages().get(0).text();
    assertThat(rendering)
        .contains("tool: [result of tool lookup: " + DEDUPED + "]")
        .contains("tool: [result of tool lookup: " + truncated("B".repeat(100), 4000) + "]")
        .contains("C".repeat(4000));
    assertThat(sent(0))
        .containsExactly(
            "user:" + CompressedHistory.SUMMARY_INTRO + "S", "model:thinking", "user:go");
    assertThat(record(response.history().get(6)).path("summary").asString()).isEqualTo("S");
  }

  @Test
  @DisplayName("C2 with the summary skipped, messages are still dropped to fit the message budget")
  void messagesAreDroppedWhenNothingWasSummarisedAndStillOverBudget() {
    model.respondText("ok");

    // Some 3020 tokens against 2100: under 1.5 times the budget, the window is not shrunk.
    GenerateResponse response =
        generate(
            threeLookups(),
            "go",
            cheapThenSummary(0.5).maxInputTokens(2100).maxMessages(8).build());

    // Eight messages would start at r1's result; with its request they would be nine.
    assertThat(summarizer.calls()).isZero();
    assertThat(sent(0))
        .containsExactly(
            NOTICE,
            "call(r2)",
            "result(r2)=" + truncated("B".repeat(100), 4000),
            "call(r3)",
            "result(r3)=" + "C".repeat(4000),
            "model:thinking",
            "user:go");
    JsonNode boundary = record(response.history().get(2));
    assertThat(boundary.path("summary").asString()).isEmpty();
    assertThat(boundary.path("stats").path("dropped").asInt()).isEqualTo(3);
  }

  @Test
  @DisplayName("C2 a drop inserts the default notice, a custom one, or none")
  void aDropInsertsTheConfiguredNotice() {
    model.respondText("ok").respondText("ok");

    GenerateResponse silent =
        generate(chat(3), "go", compression().maxMessages(4).noTruncationNotice(true).build());
    GenerateResponse custom =
        generate(chat(3), "go", compression().maxMessages(4).truncationNotice("[cut]").build());

    assertThat(sent(0)).containsExactly("model:m2", "user:u3", "model:m3", "user:go");
    assertThat(record(silent.history().get(2)).path("truncationNotice").asString()).isEmpty();
    assertThat(sent(1)).containsExactly("user:[cut]", "user:u3", "model:m3", "user:go");
    assertThat(record(custom.history().get(3)).path("truncationNotice").asString())
        .isEqualTo("[cut]");
  }

  @Test
  @DisplayName("C5 name-and-input matches the same tool with the same input; name-only, the tool")
  void dedupeMatchesByNameAndInputOrByNameOnly() {
    List<Message> history =
        List.of(
            Message.user("start"),
            call("r1", Json.object().put("q", "a").put("n", 1)),
            result("r1", "A".repeat(2000)),
            call("r2", "b"),
            result("r2", "B".repeat(2000)),
            call("r3", Json.object().put("n", 1).put("q", "a")),
            result("r3", "C".repeat(2000)));
    ContextCompression.Builder compression = compression().maxInputTokens(1200);
    model.respondText("ok").respondText("ok");

    generate(
        history,
        "go",
        compression.dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput()).build());
    generate(
        history,
        "go",
        compression.dedupeToolResponses(ContextCompression.Dedupe.byNameOnly()).build());

    assertThat(sent(0))
        .containsSubsequence(
            "result(r1)=" + DEDUPED,
            "result(r2)=" + "B".repeat(2000),
            "result(r3)=" + "C".repeat(2000));
    assertThat(sent(1))
        .containsSubsequence(
            "result(r1)=" + DEDUPED, "result(r2)=" + DEDUPED, "result(r3)=" + "C".repeat(2000));
  }

  @Test
  @DisplayName(
      "C6 the newest keepRecent responses of a group stay intact; older ones get the notice")
  void theNewestKeepRecentDuplicatesStayIntact() {
    List<Message> history =
        concat(
            List.of(Message.user("start")),
            List.of(call("r1", "a"), result("r1", "1".repeat(1000))),
            List.of(call("r2", "a"), result("r2", "2".repeat(1000))),
            List.of(call("r3", "a"), result("r3", "3".repeat(1000))),
            List.of(call("r4", "a"), result("r4", "4".repeat(1000))));
    model.respondText("ok");

    GenerateResponse response =
        generate(
            history,
            "go",
            compression()
                .maxInputTokens(800)
                .dedupeToolResponses(
                    ContextCompression.Dedupe.byNameAndInput()
                        .withKeepRecent(2)
                        .withNotice("[dup]"))
                .build());

    assertThat(sent(0))
        .containsSubsequence(
            "result(r1)=[dup]",
            "result(r2)=[dup]",
            "result(r3)=" + "3".repeat(1000),
            "result(r4)=" + "4".repeat(1000));
    Message first = response.history().get(2);
    assertThat(brief(first)).isEqualTo("result(r1)=" + "1".repeat(1000));
    assertThat(partRecord(first))
        .isEqualTo(Json.parse("{\"deduplicated\":true,\"rawOutput\":true,\"notice\":\"[dup]\"}"));
  }

  @Test
  @DisplayName("C7 older tool responses are truncated, content folded in; the newest stay intact")
  void olderToolResponsesAreTruncated() {
    Message withContent =
        new Message(
            Role.TOOL,
            List.of(
                new ToolResponsePart(
                    new ToolResponse(
                        "lookup",
                        "r2",
                        Json.nodes().stringNode("o".repeat(30)),
                        List.of(Part.text("c".repeat(40)))),
                    null)));
    List<Message> history =
        List.of(
            Message.user("start"),
            call("r1", "a"),
            result("r1", "A".repeat(600)),
            call("r2", "b"),
            withContent,
            call("r3", "c"),
            result("r3", "C".repeat(300)));
    model.respondText("ok").respondText("ok");

    GenerateResponse response =
        generate(
            history,
            "go",
            compression().maxInputTokens(220).truncateToolResponses(truncation(1)).build());
    generate(
        history,
        "go",
        compression().maxInputTokens(220).truncateToolResponses(truncation(-1)).build());

    assertThat(sent(0))
        .containsSubsequence(
            "result(r1)=" + truncated("A".repeat(50), 600),
            "result(r2)=" + truncated("o".repeat(30) + "\n" + "c".repeat(19), 71),
            "result(r3)=" + "C".repeat(300));
    assertThat(
            model
                .requests()
                .get(0)
                .messages()
                .get(4)
                .toolResponses()
                .get(0)
                .toolResponse()
                .content())
        .isNull();
    assertThat(brief(response.history().get(2))).isEqualTo("result(r1)=" + "A".repeat(600));
    assertThat(partRecord(response.history().get(2)))
        .isEqualTo(Json.parse("{\"truncated\":true,\"maxChars\":50,\"rawOutput\":true}"));
    assertThat(sent(1)).contains("result(r3)=" + truncated("C".repeat(50), 300));
  }

  @Test
  @DisplayName("C7 truncation keeps the newest two tool messages intact by default")
  void truncationPreservesTheNewestTwoToolMessagesByDefault() {
    List<Message> history =
        List.of(
            Message.user("start"),
            call("r1", "a"),
            result("r1", "A".repeat(400)),
            call("r2", "b"),
            result("r2", "B".repeat(400)),
            call("r3", "c"),
            result("r3", "C".repeat(400)),
            call("r4", "d"),
            result("r4", "D".repeat(400)));
    model.respondText("ok");

    // Some 420 tokens, over the budget; truncating the older two brings it to some 250, under it.
    generate(
        history,
        "go",
        compression()
            .maxInputTokens(350)
            .truncateToolResponses(ContextCompression.ToolTruncation.maxChars(10))
            .build());

    assertThat(sent(0))
        .containsExactly(
            "user:start",
            "call(r1)",
            "result(r1)=" + truncated("A".repeat(10), 400),
            "call(r2)",
            "result(r2)=" + truncated("B".repeat(10), 400),
            "call(r3)",
            "result(r3)=" + "C".repeat(400),
            "call(r4)",
            "result(r4)=" + "D".repeat(400),
            "user:go");
  }

  @Test
  @DisplayName("the summary's window is its own, else preserveRecent when set, else 6")
  void theSummaryWindowFallsBackToPreserveRecentThenSix() {
    ContextCompression.Summarizer unset = ContextCompression.Summarizer.of("summarizer");
    ContextCompression.Summarizer own =
        ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2);
    summarizer.respondText("S").respondText("S").respondText("S");
    model.respondText("ok").respondText("ok").respondText("ok");

    generate(chat(10), "go", compression().maxMessages(20).summarize(unset).build());
    generate(
        chat(10), "go", compression().maxMessages(20).preserveRecent(3).summarize(unset).build());
    generate(
        chat(10), "go", compression().maxMessages(20).preserveRecent(3).summarize(own).build());

    String summary = "user:" + CompressedHistory.SUMMARY_INTRO + "S";
    assertThat(sent(0))
        .containsExactly(
            summary, "model:m8", "user:u9", "model:m9", "user:u10", "model:m10", "user:go");
    assertThat(sent(1)).containsExactly(summary, "user:u10", "model:m10", "user:go");
    assertThat(sent(2)).containsExactly(summary, "model:m10", "user:go");
  }

  private static ContextCompression.ToolTruncation truncation(int preserveRecent) {
    return ContextCompression.ToolTruncation.maxChars(50).withPreserveRecent(preserveRecent);
  }

  @Test
  @DisplayName("C8 a custom prompt has every {conversation} replaced, or the rendering appended")
  void theSummaryPromptTakesTheRendering() {
    String rendering = "user: u1\n\nmodel: m1\n\nuser: u2\n\nmodel: m2\n\nuser: u3";
    List<String> prompts = new CopyOnWriteArrayList<>();
    for (String prompt :
        new String[] {"Summarize:\n{conversation}\nAgain: {conversation}", "Be brief.", ""}) {
      summarizer.respondText("S");
      model.respondText("ok");
      generate(
          chat(3),
          "go",
          summarizing(ContextCompression.Summarizer.of("summarizer").withPrompt(prompt)));
      prompts.add(summarizer.lastRequest().messages().get(0).text());
    }

    assertThat(prompts)
        .containsExactly(
            "Summarize:\n" + rendering + "\nAgain: " + rendering,
            "Be brief.\n\n" + rendering,
            ContextCompression.Summarizer.DEFAULT_PROMPT.replace("{conversation}", rendering));
    assertThat(sent(0))
        .containsExactly("user:" + CompressedHistory.SUMMARY_INTRO + "S", "model:m3", "user:go");
  }

  @Test
  @DisplayName("C8 the summariser's config is used as is and its usage is reported like any call's")
  void theSummariserUsesItsConfigAndReportsItsUsage() {
    summarizer.respond(
        ModelResponse.of(Message.model("S"), FinishReason.STOP)
            .withUsage(GenerationUsage.builder().inputTokens(77).outputTokens(5).build()));
    model.respondText("ok");
    Map<String, GenerationUsage> reported = new ConcurrentHashMap<>();

    baton.generate(
        UsageListeners.hearAll(baton.context(), reported::put),
        GenerateOptions.builder()
            .model("pm")
            .messages(chat(3))
            .prompt("go")
            .use(
                summarizing(
                    ContextCompression.Summarizer.of(
                        new ModelRef("summarizer", Json.object().put("maxOutputTokens", 64)))))
            .build());

    assertThat(summarizer.lastRequest().config()).isEqualTo(Json.parse("{\"maxOutputTokens\":64}"));
    assertThat(summarizer.lastRequest().tools()).isEmpty();
    // Reported as the summariser's, not the generate call's model.
    assertThat(reported.get("summarizer").inputTokens()).isEqualTo(77);
  }

  @Test
  @DisplayName("a call cancelled while the summariser runs fails instead of dropping messages")
  void aCallCancelledDuringTheSummaryFails() throws InterruptedException {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    summarizer.step().signalOnEntry(entered).blockUntil(never).respondText("S");
    model.respondText("ok");
    ActionContext context = baton.context();
    GenerateOptions options =
        GenerateOptions.builder()
            .model("pm")
            .messages(chat(3))
            .prompt("go")
            .use(summarizing(ContextCompression.Summarizer.of("summarizer")))
            .build();

    CompletableFuture<GenerateResponse> call;
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      call = CompletableFuture.supplyAsync(() -> baton.generate(context, options), executor);
      entered.await();
      context.cancellation().cancel();
    }

    assertThat(call)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.CANCELLED));
    assertThat(model.calls()).isZero();
  }

  @Test
  @DisplayName("a summariser model that is not registered fails the call: it is configuration")
  void anUnknownSummariserModelFailsTheCall() {
    assertThatThrownBy(
            () ->
                generate(
                    chat(3), "go", summarizing(ContextCompression.Summarizer.of("no-such-model"))))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.NOT_FOUND))
        .hasMessageContaining("no-such-model");
    assertThat(model.calls()).isZero();
  }

  private static ContextCompression summarizing(ContextCompression.Summarizer summarizer) {
    return compression().maxMessages(4).summarize(summarizer.withPreserveRecent(2)).build();
  }
}
