package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.ToolResponse;
import dev.baton.ai.ToolResponsePart;
import dev.baton.core.Json;
import dev.baton.middleware.compression.ContextCompression;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** When ContextCompression runs: its triggers, the window shrinking, and the per-iteration cap. */
class ContextCompressionTriggerTest extends ContextCompressionTestSupport {
  private static final String NOTICE = "user:" + ContextCompression.DEFAULT_TRUNCATION_NOTICE;

  @Test
  @DisplayName(
      "C1 runs before each tool-loop iteration, on the input tokens the last call reported")
  void reportedTokensOfThePreviousCallTrigger() {
    model.respond(reporting(callsLookup("r1", "a", 10), 5000));
    model.respondText("done");

    GenerateResponse response = generate(chat(3), "go", compression().maxInputTokens(1000).build());

    // The first call is estimated at a few tokens; the second is measured by the 5000 reported.
    assertThat(sent(0))
        .containsExactly(
            "user:u1", "model:m1", "user:u2", "model:m2", "user:u3", "model:m3", "user:go");
    assertThat(sent(1))
        .containsExactly(NOTICE, "user:go", "call(r1)", "result(r1)=a:" + "x".repeat(10));
    // "go" started the tool round, so the cut falls before it.
    assertThat(boundaryIndex(response.history())).isEqualTo(5);
    JsonNode stats = record(response.history().get(5)).path("stats");
    assertThat(stats.path("trigger").asString()).isEqualTo("maxInputTokens");
    assertThat(stats.path("tokensBefore").asLong()).isBetween(5001L, 5100L);
    assertThat(record(response.history().get(7)).path("inputTokens").asInt()).isEqualTo(5000);
  }

  @Test
  @DisplayName("C1 estimates the context from the messages, characters / 4, before any report")
  void theContextIsEstimatedBeforeAnyReport() {
    model.respondText("ok");
    List<Message> history =
        List.of(
            Message.user("a".repeat(400)),
            Message.model("b".repeat(400)),
            Message.user("c".repeat(400)),
            Message.model("d".repeat(400)));

    GenerateResponse response = generate(history, "go", compression().maxInputTokens(300).build());

    assertThat(sent(0)).hasSize(5).first().isEqualTo(NOTICE);
    JsonNode stats = response.response().custom().path(CompressionMetadata.KEY);
    assertThat(stats.path("tokensBefore").asLong()).isEqualTo((4 * 400 + 2 + 3) / 4);
  }

  @Test
  @DisplayName("C1 triggers when the conversation holds more than maxMessages messages")
  void moreThanMaxMessagesTriggers() {
    model.respondText("ok").respondText("ok");

    GenerateResponse atTheCap = generate(chat(3), "go", compression().maxMessages(7).build());
    GenerateResponse overIt = generate(chat(3), "go", compression().maxMessages(6).build());

    assertThat(sent(0)).hasSize(7);
    assertThat(atTheCap.response().custom().has(CompressionMetadata.KEY)).isFalse();
    assertThat(sent(1))
        .containsExactly(NOTICE, "user:u2", "model:m2", "user:u3", "model:m3", "user:go");
    assertThat(overIt.response().custom().path(CompressionMetadata.KEY).path("trigger").asString())
        .isEqualTo("maxMessages");
  }

  @Test
  @DisplayName("C1 a context that cannot get under budget is not compacted again and again")
  void nothingToCoverMeansNoCompaction() {
    model.respond(callsLookup("r1", "a", 4000));
    model.respondText("done");

    // The newest turn alone is over budget on both iterations: there is nothing older to cover.
    GenerateResponse response =
        generate(
            List.of(),
            "x".repeat(2000),
            compression()
                .maxInputTokens(100)
                .summarize(ContextCompression.Summarizer.of("summarizer"))
                .build());

    assertThat(summarizer.calls()).isZero();
    assertThat(model.calls()).isEqualTo(2);
    assertThat(sent(1)).hasSize(3);
    assertThat(boundaryIndex(response.history())).isEqualTo(-1);
    JsonNode stats = response.response().custom().path(CompressionMetadata.KEY);
    assertThat(stats.path("summarized").asInt() + stats.path("dropped").asInt()).isZero();
  }

  @Test
  @DisplayName("C1 a context whose kept part alone is over budget is dropped, never summarised")
  void aSummaryThatCannotGetUnderBudgetIsNotWritten() {
    model.respond(
        callsLookup("r1", "a", 1),
        callsLookup("r2", "b", 1),
        callsLookup("r3", "c", 1),
        callsLookup("r4", "d", 1));
    model.respondText("done");
    summarizer.fallback(request -> ModelResponse.of(Message.model("S"), FinishReason.STOP));
    String system = "s".repeat(2000);

    // The system message alone is some 500 tokens, over a budget of 100 on every iteration.
    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .system(system)
                .prompt("go")
                .tools(lookup)
                .use(
                    compression()
                        .maxInputTokens(100)
                        .summarize(ContextCompression.Summarizer.of("summarizer"))
                        .build())
                .build());

    // A summary would be written on every iteration from the third on, and never get under the
    // budget: the older tool rounds are dropped instead, so the view stays as small as it can be.
    assertThat(summarizer.calls()).isZero();
    assertThat(model.calls()).isEqualTo(5);
    for (int call = 2; call < 5; call++) {
      String ref = "r" + call;
      String q = String.valueOf((char) ('a' + call - 1));
      assertThat(sent(call))
          .containsExactly(
              "system:" + system,
              NOTICE,
              "user:go",
              "call(" + ref + ")",
              "result(" + ref + ")=" + q + ":x");
    }
    JsonNode stats = response.response().custom().path(CompressionMetadata.KEY);
    assertThat(stats.path("summarized").asInt()).isZero();
    assertThat(stats.path("dropped").asInt()).isEqualTo(2);
  }

  @Test
  @DisplayName("C3 preserveRecent is halved above 1.5 x maxInputTokens and cut to 2 above 2 x")
  void theWindowShrinksWhenFarOverBudget() {
    ContextCompression compression = compression().maxInputTokens(1000).preserveRecent(6).build();
    List<Integer> windows = new ArrayList<>();
    // The last model message reports the tokens; "m10" and "go" add two estimated tokens.
    for (int reported : new int[] {1100, 1600, 2600}) {
      List<Message> history = new ArrayList<>(chat(10));
      history.set(19, CompressionMetadata.withInputTokens(history.get(19), reported));
      model.respondText("ok");
      GenerateResponse response = generate(history, "go", compression);
      windows.add(
          response
              .response()
              .custom()
              .path(CompressionMetadata.KEY)
              .path("preserveRecent")
              .asInt());
    }

    assertThat(windows).containsExactly(6, 3, 2);
    assertThat(sent(0))
        .containsExactly(
            NOTICE, "model:m8", "user:u9", "model:m9", "user:u10", "model:m10", "user:go");
    assertThat(sent(1)).containsExactly(NOTICE, "user:u10", "model:m10", "user:go");
    assertThat(sent(2)).containsExactly(NOTICE, "model:m10", "user:go");
  }

  @Test
  @DisplayName("C4 maxToolResponseChars caps every tool response on every iteration, untriggered")
  void everyToolResponseIsCappedOnEveryIteration() {
    model.respond(callsLookup("r1", "a", 500));
    model.respondText("done");

    GenerateResponse response =
        generate(List.of(), "go", compression().maxToolResponseChars(100).build());

    String original = "a:" + "x".repeat(500);
    assertThat(sent(1))
        .containsExactly(
            "user:go",
            "call(r1)",
            "result(r1)="
                + original.substring(0, 100)
                + "\n[Truncated: showing the first 100 of 502 characters.]");
    Message recorded = response.history().get(2);
    assertThat(brief(recorded)).isEqualTo("result(r1)=" + original);
    assertThat(partRecord(recorded))
        .isEqualTo(Json.parse("{\"capped\":true,\"maxChars\":100,\"rawOutput\":true}"));
    assertThat(response.response().custom().has(CompressionMetadata.KEY)).isFalse();
  }

  @Test
  @DisplayName("C4 the cap counts output and text content together, and folds the content in")
  void theCapCountsOutputAndContentTogether() {
    Message withContent =
        new Message(
            Role.TOOL,
            List.of(
                new ToolResponsePart(
                    new ToolResponse(
                        "lookup",
                        "r1",
                        Json.nodes().stringNode("o".repeat(60)),
                        List.of(Part.text("c".repeat(60)), Part.media("https://x/y.png", null))),
                    null)));
    model.respondText("ok");

    generate(
        List.of(Message.user("look"), call("r1", "a"), withContent),
        "go",
        compression().maxToolResponseChars(100).build());

    ToolResponse shown =
        model.lastRequest().messages().get(2).toolResponses().get(0).toolResponse();
    assertThat(shown.output().asString())
        .isEqualTo(
            "o".repeat(60)
                + "\n"
                + "c".repeat(39)
                + "\n[Truncated: showing the first 100 of 121 characters.]");
    assertThat(shown.content()).containsExactly(Part.media("https://x/y.png", null));
  }

  @Test
  @DisplayName("C4 the cap defaults to 400000 characters and a negative value disables it")
  void theCapDefaultsTo400000AndCanBeDisabled() {
    String huge = "h".repeat(400_005);
    List<Message> history = List.of(Message.user("look"), call("r1", "a"), result("r1", huge));
    model.respondText("ok").respondText("ok");

    generate(history, "go", compression().build());
    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(history)
            .prompt("go")
            .use(compression().maxToolResponseChars(-1).build())
            .build());

    assertThat(outputOf(model.requests().get(0).messages().get(2)))
        .startsWith("h".repeat(400_000) + "\n[Truncated: showing the first 400000 of 400005");
    assertThat(outputOf(model.requests().get(1).messages().get(2))).isEqualTo(huge);
  }

  private static String outputOf(Message toolMessage) {
    return toolMessage.toolResponses().get(0).toolResponse().output().asString();
  }
}
