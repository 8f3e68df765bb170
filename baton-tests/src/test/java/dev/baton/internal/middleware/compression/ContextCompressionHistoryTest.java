package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.agent.Agent;
import dev.baton.agent.AgentInit;
import dev.baton.agent.AgentOptions;
import dev.baton.agent.store.InMemorySessionStore;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.InlinePrompt;
import dev.baton.ai.Message;
import dev.baton.ai.ModelInfo;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.core.Json;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * What ContextCompression records on the history, and how the view follows from it across calls,
 * restarts and concurrent calls.
 */
class ContextCompressionHistoryTest extends ContextCompressionTestSupport {
  private static final String NOTICE = "user:" + ContextCompression.DEFAULT_TRUNCATION_NOTICE;

  private static String summary(String text) {
    return "user:" + CompressedHistory.SUMMARY_INTRO + text;
  }

  private static final String R1 = "result(r1)=a:" + "x".repeat(10);
  private static final String R2 = "result(r2)=b:" + "x".repeat(10);

  /**
   * A call over chat(4) with two tool rounds, the second reporting 900 input tokens against a
   * budget of 500, so the third iteration summarises everything before the second round: the window
   * of one (4 halved, the context being over 1.5 times the budget) widens to the round, and "go",
   * which started the loop, is anchored.
   */
  private GenerateResponse summarisedToolLoop(boolean replaceHistory) {
    summarizer.respondText("S1");
    model.respond(reporting(callsLookup("r1", "a", 10), 100));
    model.respond(reporting(callsLookup("r2", "b", 10), 900));
    model.respond(reporting(ModelResponse.of(Message.model("done"), FinishReason.STOP), 300));
    return generate(
        chat(4),
        "go",
        compression()
            .maxInputTokens(500)
            .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2))
            .replaceHistory(replaceHistory)
            .build());
  }

  @Test
  @DisplayName("C12 the history keeps every original message and the model sees the view")
  void theHistoryKeepsEveryMessageAndRecordsTheCompression() {
    GenerateResponse response = summarisedToolLoop(false);
    List<Message> history = response.history();

    assertThat(brief(history))
        .containsExactly(
            "user:u1",
            "model:m1",
            "user:u2",
            "model:m2",
            "user:u3",
            "model:m3",
            "user:u4",
            "model:m4",
            "user:go",
            "call(r1)",
            R1,
            "call(r2)",
            R2,
            "model:done");
    assertThat(sent(1)).hasSize(11);
    assertThat(sent(2)).containsExactly(summary("S1"), "user:go", "call(r2)", R2);
  }

  @Test
  @DisplayName("C12a every model message records the input tokens its model reported")
  void everyModelMessageRecordsItsInputTokens() {
    List<Message> history = summarisedToolLoop(false).history();

    assertThat(record(history.get(9)).path("inputTokens").asInt()).isEqualTo(100);
    assertThat(record(history.get(11)).path("inputTokens").asInt()).isEqualTo(900);
    assertThat(record(history.get(13)).path("inputTokens").asInt()).isEqualTo(300);
  }

  @Test
  @DisplayName("C12b the boundary records the summary, the stats and the anchored user message")
  void theBoundaryRecordsSummaryStatsAndAnchor() {
    List<Message> history = summarisedToolLoop(false).history();

    assertThat(boundaryIndex(history)).isEqualTo(10);
    JsonNode boundary = record(history.get(10));
    assertThat(boundary.path("summary").asString()).isEqualTo("S1");
    assertThat(boundary.path("anchorUser").asBoolean()).isTrue();
    assertThat(boundary.has("truncationNotice")).isFalse();
    assertThat(boundary.path("stats").path("summarized").asInt()).isEqualTo(11);
    assertThat(summarizer.lastRequest().messages().get(0).text())
        .contains("user: go\n\nmodel: [call to tool lookup with input {\"q\":\"a\",\"size\":10}]");
    assertThat(boundary.path("stats").path("messagesAfter").asInt()).isEqualTo(4);
  }

  @Test
  @DisplayName("C12b the boundary falls before the user message that started the tool loop")
  void theBoundaryFallsBeforeTheUserMessageThatStartedTheLoop() {
    summarizer.respondText("S");
    model.respond(callsLookup("r1", "a", 1));
    model.respondText("done");

    GenerateResponse response =
        generate(
            chat(1),
            "go",
            compression()
                .maxMessages(4)
                .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2))
                .build());

    assertThat(sent(1)).containsExactly(summary("S"), "user:go", "call(r1)", "result(r1)=a:x");
    assertThat(summarizer.lastRequest().messages().get(0).text())
        .endsWith("<conversation>\nuser: u1\n\nmodel: m1\n</conversation>");
    assertThat(boundaryIndex(response.history())).isEqualTo(1);
    assertThat(record(response.history().get(1)).has("anchorUser")).isFalse();
  }

  @Test
  @DisplayName("C12c messages dropped without a summary leave an empty summary on the boundary")
  void aDropRecordsAnEmptySummary() {
    model.respondText("ok");

    GenerateResponse response = generate(chat(3), "go", compression().maxMessages(6).build());

    assertThat(record(response.history().get(1)).path("summary").isString()).isTrue();
    assertThat(record(response.history().get(1)).path("summary").asString()).isEmpty();
    assertThat(brief(ContextCompression.resolveHistory(response.history())))
        .containsExactly(
            NOTICE, "user:u2", "model:m2", "user:u3", "model:m3", "user:go", "model:ok");
  }

  @Test
  @DisplayName("C12d the view is the system messages, the summary, and what follows the boundary")
  void theViewFollowsTheNewestBoundary() {
    List<Message> history = summarisedToolLoop(false).history();

    assertThat(ContextCompression.resolveHistory(history.subList(0, 13)))
        .isEqualTo(model.requests().get(2).messages());
  }

  @Test
  @DisplayName("C12e limited tool responses keep their original output; the view applies the limit")
  void limitedToolResponsesKeepTheirOutput() {
    List<Message> history =
        List.of(
            Message.user("start"),
            call("r1", "a"),
            result("r1", "A".repeat(600)),
            call("r2", "a"),
            result("r2", "B".repeat(600)),
            call("r3", "b"),
            result("r3", "C".repeat(6000)));
    model.respondText("ok");

    GenerateResponse response =
        generate(
            history,
            "go",
            compression()
                .maxInputTokens(1500)
                .maxToolResponseChars(5000)
                .dedupeToolResponses(ContextCompression.Dedupe.byNameAndInput())
                .truncateToolResponses(
                    ContextCompression.ToolTruncation.maxChars(100).withPreserveRecent(1))
                .build());

    List<Message> recorded = response.history();
    assertThat(brief(recorded.subList(0, 7))).isEqualTo(brief(history));
    assertThat(partRecord(recorded.get(2)))
        .isEqualTo(Json.parse("{\"deduplicated\":true,\"rawOutput\":true}"));
    assertThat(partRecord(recorded.get(4)))
        .isEqualTo(Json.parse("{\"truncated\":true,\"maxChars\":100,\"rawOutput\":true}"));
    assertThat(partRecord(recorded.get(6)))
        .isEqualTo(Json.parse("{\"capped\":true,\"maxChars\":5000,\"rawOutput\":true}"));
    assertThat(ContextCompression.resolveHistory(recorded.subList(0, 8)))
        .isEqualTo(model.lastRequest().messages());
    assertThat(partRecord(model.lastRequest().messages().get(6)))
        .isEqualTo(Json.parse("{\"capped\":true,\"maxChars\":5000}"));
  }

  @Test
  @DisplayName("C12 with replaceHistory the history the caller gets back is the view")
  void replaceHistoryReturnsTheView() {
    List<Message> history = summarisedToolLoop(true).history();

    assertThat(brief(history))
        .containsExactly(summary("S1"), "user:go", "call(r2)", R2, "model:done");
    assertThat(history.subList(0, 4)).isEqualTo(model.requests().get(2).messages());
    assertThat(boundaryIndex(history)).isEqualTo(-1);
    assertThat(record(history.get(2)).path("inputTokens").asInt()).isEqualTo(900);
  }

  @Test
  @DisplayName("C13 compression continues over three generate calls and a restart")
  void compressionContinuesAcrossCallsAndARestart() {
    ContextCompression compression =
        compression()
            .maxMessages(6)
            .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2))
            .build();
    summarizer.respondText("S1").respondText("S2");
    model.respondText("a1").respondText("a2").respondText("a3").respondText("a4");

    List<Message> first = generate(chat(5), "q1", compression).history();
    List<Message> second = generate(first, "q2", compression).history();
    List<Message> third = generate(second, "q3", compression).history();
    String stored = Json.write(third);
    List<Message> restored =
        Json.convert(Json.parse(stored), new TypeReference<List<Message>>() {});
    generate(restored, "q4", compression);

    assertThat(sent(0)).containsExactly(summary("S1"), "model:m5", "user:q1");
    assertThat(sent(1))
        .containsExactly(summary("S1"), "model:m5", "user:q1", "model:a1", "user:q2");
    assertThat(sent(2)).containsExactly(summary("S2"), "model:a2", "user:q3");
    assertThat(summarizer.requests().get(1).messages().get(0).text())
        .contains("summary of what came before: S1\n\nmodel: m5\n\nuser: q1");
    assertThat(restored).isEqualTo(third);
    assertThat(ContextCompression.resolveHistory(restored))
        .isEqualTo(ContextCompression.resolveHistory(third));
    List<String> expected = new ArrayList<>(brief(ContextCompression.resolveHistory(restored)));
    expected.add("user:q4");
    assertThat(sent(3)).isEqualTo(expected).startsWith(summary("S2"));
    assertThat(summarizer.calls()).isEqualTo(2);
  }

  @Test
  @DisplayName("C13 compression continues over the turns of a prompt agent's stored session")
  void compressionContinuesOverAnAgentsSession() {
    InMemorySessionStore store = InMemorySessionStore.create();
    Agent agent =
        baton.defineAgent(
            "assistant",
            InlinePrompt.builder()
                .model("pm")
                .system("sys")
                .use(compression().maxMessages(4).build())
                .build(),
            AgentOptions.builder().sessionStore(store).build());
    model.respondText("a1").respondText("a2").respondText("a3").respondText("a4");

    String session = agent.runText("t1").sessionId();
    for (String text : List.of("t2", "t3", "t4")) {
      agent.runText(text, AgentInit.ofSession(session));
    }

    assertThat(sent(2)).containsExactly("system:sys", NOTICE, "model:a2", "user:t3");
    assertThat(sent(3)).containsExactly("system:sys", NOTICE, "model:a3", "user:t4");
    List<Message> stored = store.getLatestSnapshot(baton.context(), session).state().messages();
    assertThat(brief(stored))
        .containsExactly(
            "user:t1",
            "model:a1",
            "user:t2",
            "model:a2",
            "user:t3",
            "model:a3",
            "user:t4",
            "model:a4");
    assertThat(boundaryIndex(stored)).isEqualTo(4);
    assertThat(record(stored.get(2)).path("summary").isString()).isTrue();
  }

  @Test
  @DisplayName("C14 the final response carries the newest compression's stats")
  void theFinalResponseCarriesTheNewestStats() {
    GenerateResponse response = summarisedToolLoop(false);

    assertThat(response.response().custom().path(CompressionMetadata.KEY))
        .isEqualTo(record(response.history().get(10)).path("stats"));
  }

  @Test
  @DisplayName("C15 received messages are never modified; concurrent calls can share a history")
  void concurrentCallsShareOneHistory() throws Exception {
    baton.defineModel(
        "stateless",
        ModelInfo.full("stateless"),
        (ctx, request, stream) ->
            ModelResponse.of(
                Message.model("seen " + request.messages().size()), FinishReason.STOP));
    summarizer.fallback(request -> ModelResponse.of(Message.model("S"), FinishReason.STOP));
    List<Message> shared =
        concat(chat(10), List.of(call("r1", "a"), result("r1", "A".repeat(600))));
    String before = Json.write(shared);
    ContextCompression compression =
        compression()
            .maxMessages(6)
            .maxToolResponseChars(100)
            .summarize(ContextCompression.Summarizer.of("summarizer"))
            .build();
    int calls = 8;
    CountDownLatch start = new CountDownLatch(1);
    List<Future<GenerateResponse>> results = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < calls; i++) {
        results.add(
            threads.submit(
                () -> {
                  start.await();
                  return baton.generate(
                      GenerateOptions.builder()
                          .model("stateless")
                          .messages(shared)
                          .prompt("go")
                          .use(compression)
                          .build());
                }));
      }
      start.countDown();
      List<GenerateResponse> responses = new ArrayList<>();
      for (Future<GenerateResponse> result : results) {
        responses.add(result.get());
      }

      assertThat(Json.write(shared)).isEqualTo(before);
      for (GenerateResponse response : responses) {
        assertThat(response.history()).isEqualTo(responses.get(0).history());
        assertThat(response.request().messages()).isEqualTo(responses.get(0).request().messages());
        assertThat(brief(response.history().subList(0, shared.size()))).isEqualTo(brief(shared));
      }
      assertThat(brief(responses.get(0).request().messages()))
          .containsExactly(
              summary("S"),
              "user:u10",
              "model:m10",
              "call(r1)",
              "result(r1)="
                  + "A".repeat(100)
                  + "\n[Truncated: showing the first 100 of 600 characters.]",
              "user:go");
    }
  }

  @Test
  @DisplayName(
      "C16 the token estimate is characters / 4, rounded up, with media at 1000 characters")
  void theEstimateIsCharactersOverFour() {
    model.respondText("ok").respondText("ok").respondText("ok");
    ContextCompression budget = compression().maxInputTokens(100).build();

    GenerateResponse exactly = generate(List.of(Message.user("x".repeat(398))), "go", budget);
    GenerateResponse over = generate(List.of(Message.user("x".repeat(399))), "go", budget);
    GenerateResponse media =
        generate(
            List.of(Message.of(dev.baton.ai.Role.USER, Part.media("https://x/y.png", "image/png"))),
            "go",
            compression().maxInputTokens(250).build());

    assertThat(exactly.response().custom().has(CompressionMetadata.KEY)).isFalse();
    assertThat(over.response().custom().path(CompressionMetadata.KEY).path("tokensBefore").asLong())
        .isEqualTo(101);
    assertThat(
            media.response().custom().path(CompressionMetadata.KEY).path("tokensBefore").asLong())
        .isEqualTo(251);
  }

  @Test
  @DisplayName("C16 the stats have the documented fields")
  void theStatsHaveTheDocumentedFields() {
    model.respondText("ok");

    GenerateResponse response = generate(chat(3), "go", compression().maxMessages(6).build());

    JsonNode stats = response.response().custom().path(CompressionMetadata.KEY);
    assertThat(stats.propertyNames())
        .containsExactly(
            "trigger",
            "tokensBefore",
            "tokensAfter",
            "messagesBefore",
            "messagesAfter",
            "deduplicated",
            "truncated",
            "summarized",
            "dropped",
            "preserveRecent");
    assertThat(stats)
        .isEqualTo(
            Json.parse(
                "{\"trigger\":\"maxMessages\",\"tokensBefore\":4,\"tokensAfter\":"
                    + stats.path("tokensAfter").asLong()
                    + ",\"messagesBefore\":7,\"messagesAfter\":6,\"deduplicated\":0,"
                    + "\"truncated\":0,\"summarized\":0,\"dropped\":2,\"preserveRecent\":5}"));
  }
}
