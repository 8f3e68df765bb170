package dev.baton.internal.middleware.compression;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.Message;
import dev.baton.ai.OutputOptions;
import dev.baton.core.Json;
import dev.baton.internal.ai.PromptScaffolding;
import dev.baton.middleware.compression.ContextCompression;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What ContextCompression always keeps: system messages, tool exchanges, protected messages. */
class ContextCompressionInvariantTest extends ContextCompressionTestSupport {
  private static final String NOTICE = "user:" + ContextCompression.DEFAULT_TRUNCATION_NOTICE;

  private static Message scaffolding(String text) {
    return Message.user(text).withFlag(PromptScaffolding.PROMPT);
  }

  /** A generate call over {@code messages} alone, the last of which may be a tool response. */
  private GenerateResponse continueWith(List<Message> messages, ContextCompression compression) {
    model.respondText("ok");
    return baton.generate(
        GenerateOptions.builder().model("pm").messages(messages).use(compression).build());
  }

  @Test
  @DisplayName("C9 leading system messages are always kept; a later system message is not leading")
  void leadingSystemMessagesAreKept() {
    List<Message> history =
        List.of(
            Message.system("sys1"),
            Message.system("sys2"),
            Message.user("u1"),
            Message.model("m1"),
            Message.system("mid"),
            Message.user("u2"),
            Message.model("m2"),
            Message.user("u3"),
            Message.model("m3"));
    model.respondText("ok");

    generate(history, "go", compression().maxMessages(5).build());

    assertThat(sent(0))
        .containsExactly("system:sys1", "system:sys2", NOTICE, "model:m3", "user:go");
  }

  @Test
  @DisplayName("C10 the kept messages never begin with a tool response separated from its request")
  void aToolResponseStaysWithItsRequest() {
    List<Message> history =
        List.of(
            Message.user("u1"),
            Message.model("m1"),
            Message.user("u2"),
            call("r1", "a"),
            result("r1", "one"),
            call("r2", "b"),
            result("r2", "two"));

    continueWith(history, compression().maxMessages(4).preserveRecent(1).build());
    continueWith(history, compression().maxMessages(6).preserveRecent(3).build());

    // A window of one (or three) would start at a tool response: it is widened to the request.
    assertThat(sent(0)).containsExactly(NOTICE, "user:u2", "call(r2)", "result(r2)=two");
    assertThat(sent(1))
        .containsExactly(
            NOTICE, "user:u2", "call(r1)", "result(r1)=one", "call(r2)", "result(r2)=two");
  }

  @Test
  @DisplayName("C11a a covered prompt scaffolding message stays in view, before the notice")
  void coveredScaffoldingStaysInViewBeforeTheNotice() {
    List<Message> history =
        List.of(
            Message.system("sys"),
            Message.user("u1"),
            Message.model("m1"),
            scaffolding("scaffold"),
            Message.user("u2"),
            Message.model("m2"),
            Message.user("u3"),
            Message.model("m3"));
    model.respondText("ok");

    GenerateResponse response = generate(history, "go", compression().maxMessages(5).build());

    assertThat(sent(0))
        .containsExactly("system:sys", "user:scaffold", NOTICE, "model:m3", "user:go");
    assertThat(response.history().get(3)).isEqualTo(history.get(3));
    assertThat(boundaryIndex(response.history())).isEqualTo(6);
  }

  @Test
  @DisplayName("C11a the message carrying output-format instructions is never dropped")
  void theOutputInstructionsMessageIsProtected() {
    model.respond(callsLookup("r1", "a", 1), callsLookup("r2", "b", 1));
    model.respondText("{\"ok\":true}");

    GenerateResponse response =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .messages(chat(2))
                .prompt("go")
                .tools(lookup)
                .output(new OutputOptions("json", Json.parse("{\"type\":\"object\"}"), false, null))
                .use(compression().maxMessages(5).preserveRecent(2).build())
                .build());

    // Iteration 1 drops the chat; iteration 2 covers the first tool round and the instructions
    // message with it, which stays in view ahead of the notice.
    assertThat(sent(1)).hasSize(4).element(1).asString().startsWith("user:go+user:Reply with JSON");
    assertThat(sent(2)).hasSize(4);
    assertThat(sent(2).get(0)).startsWith("user:go+user:Reply with JSON");
    assertThat(sent(2).subList(1, 4)).containsExactly(NOTICE, "call(r2)", "result(r2)=b:x");
    assertThat(response.output()).isEqualTo(Json.parse("{\"ok\":true}"));
  }

  @Test
  @DisplayName(
      "C11 only the newest message carrying output instructions is protected, across calls")
  void onlyTheNewestOutputInstructionsMessageIsProtected() {
    ContextCompression compression = compression().maxMessages(3).preserveRecent(2).build();
    List<Message> history = List.of();
    for (int turn = 1; turn <= 4; turn++) {
      model.respondText("{\"turn\":" + turn + "}");
      history = jsonTurn(history, "q" + turn, compression).history();
    }

    // Every call's user message carries the instructions, but only the newest is protected: the
    // older ones are dropped like any other message, so the view fits the cap.
    assertThat(sent(2)).hasSize(3);
    assertThat(sent(2).subList(0, 2)).containsExactly(NOTICE, "model:{\"turn\":2}");
    assertThat(sent(2).get(2)).startsWith("user:q3+user:Reply with JSON");
    assertThat(sent(3)).hasSize(3);
    assertThat(sent(3).subList(0, 2)).containsExactly(NOTICE, "model:{\"turn\":3}");
    assertThat(sent(3).get(2)).startsWith("user:q4+user:Reply with JSON");
  }

  @Test
  @DisplayName(
      "C11 a summary reads the protected instructions message's text, not its instructions")
  void theSummaryKeepsTheTextOfTheInstructionsMessageForWhenItIsNoLongerProtected() {
    ContextCompression compression =
        compression()
            .maxMessages(4)
            .summarize(ContextCompression.Summarizer.of("summarizer").withPreserveRecent(2))
            .build();
    summarizer.respondText("S1").respondText("S2");
    model.respond(callsLookup("r1", "a", 1), callsLookup("r2", "b", 1));
    model.respondText("{\"ok\":1}").respondText("{\"ok\":2}");

    GenerateResponse first = jsonTurn(List.of(), "go", compression);
    jsonTurn(first.history(), "next", compression);

    // The first tool round is summarised with the message that started it, which stays in view
    // while it is the newest carrying the instructions.
    String firstRendering = summarizer.requests().get(0).messages().get(0).text();
    assertThat(firstRendering).contains("user: go").doesNotContain("Reply with JSON");
    assertThat(sent(2)).hasSize(4);
    assertThat(sent(2).get(0)).startsWith("user:go+user:Reply with JSON");
    assertThat(sent(2).subList(1, 4))
        .containsExactly(
            "user:" + CompressedHistory.SUMMARY_INTRO + "S1", "call(r2)", "result(r2)=b:x");
    // The next call's message takes the protection over; "go" leaves the view, summarised.
    assertThat(sent(3)).hasSize(3);
    assertThat(sent(3).subList(0, 2))
        .containsExactly("user:" + CompressedHistory.SUMMARY_INTRO + "S2", "model:{\"ok\":1}");
    assertThat(sent(3).get(2)).startsWith("user:next+user:Reply with JSON");
    assertThat(summarizer.requests().get(1).messages().get(0).text()).contains("S1");
  }

  /** A generate call asking for JSON from a model that does not enforce the schema. */
  private GenerateResponse jsonTurn(
      List<Message> history, String prompt, ContextCompression compression) {
    return baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(history)
            .prompt(prompt)
            .tools(lookup)
            .output(new OutputOptions("json", Json.parse("{\"type\":\"object\"}"), false, null))
            .use(compression)
            .build());
  }

  @Test
  @DisplayName("C11b protected messages count toward maxMessages and the recent window")
  void protectedMessagesCountTowardTheCapAndTheWindow() {
    List<Message> twoScaffolds =
        List.of(
            Message.user("u1"),
            Message.model("m1"),
            scaffolding("s1"),
            Message.user("u2"),
            Message.model("m2"),
            scaffolding("s2"),
            Message.user("u3"),
            Message.model("m3"));
    List<Message> scaffoldLast = concat(chat(3), List.of(scaffolding("s")));
    model.respondText("ok").respondText("ok");

    generate(twoScaffolds, "go", compression().maxMessages(4).build());
    generate(scaffoldLast, "go", compression().maxMessages(7).preserveRecent(2).build());

    assertThat(sent(0)).containsExactly("user:s1", "user:s2", NOTICE, "user:go");
    assertThat(sent(1)).containsExactly(NOTICE, "user:s", "user:go");
  }

  @Test
  @DisplayName("C11c when the system and protected messages fill the cap, the newest turn is kept")
  void theNewestTurnIsKeptWhenProtectedMessagesFillTheCap() {
    List<Message> prefix = List.of(Message.system("sys"), scaffolding("s1"), scaffolding("s2"));
    model.respondText("ok");

    generate(
        concat(prefix, List.of(Message.user("u1"), Message.model("m1"), Message.user("u2"))),
        "go",
        compression().maxMessages(3).build());
    continueWith(
        concat(prefix, List.of(Message.user("u1"), call("r1", "a"), result("r1", "one"))),
        compression().maxMessages(3).build());

    assertThat(sent(0)).containsExactly("system:sys", "user:s1", "user:s2", NOTICE, "user:go");
    // The newest turn is the user message and the tool round it started: nothing else to cover.
    assertThat(sent(1))
        .containsExactly(
            "system:sys", "user:s1", "user:s2", "user:u1", "call(r1)", "result(r1)=one");
  }
}
