package dev.baton.ai;

import static dev.baton.ai.GenerateTest.call;
import static dev.baton.ai.GenerateTest.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.internal.ai.Metadata;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Interrupts and their resumption: respond, restart, and the checks that stop a forged resume. */
class InterruptAndResumeTest {
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");

  /** Has the model ask for a transfer of {@code input}, which the tool interrupts for approval. */
  private GenerateResponse pausedTransfer(Tool<JsonNode, JsonNode> transfer, JsonNode input) {
    model.respond(toolCalls(call("transfer", "t1", input)));
    return baton.generate(
        GenerateOptions.builder().model("pm").prompt("pay").tools(transfer).build());
  }

  private Tool<JsonNode, JsonNode> transfer(AtomicInteger runs) {
    return baton.defineJsonTool(
        "transfer",
        "moves money",
        null,
        null,
        (ctx, in) -> {
          runs.incrementAndGet();
          if (!ctx.isResumed()) {
            throw ctx.interrupt(Json.object().put("reason", "confirm"));
          }
          return Json.object()
              .put("status", "sent")
              .put("approvedBy", ctx.resumed().orElseThrow().path("by").asString());
        });
  }

  @Test
  void anInterruptEndsTheLoopAndARespondResumesIt() {
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    model.respond(toolCalls(call("transfer", "t1", Json.object().put("amount", 500))));

    GenerateResponse paused =
        baton.generate(GenerateOptions.builder().model("pm").prompt("pay").tools(transfer).build());

    assertThat(paused.finishReason()).isEqualTo(FinishReason.INTERRUPTED);
    assertThat(paused.response().finishMessage())
        .isEqualTo("One or more tool calls resulted in interrupts.");
    assertThat(paused.interrupts()).hasSize(1);
    assertThat(paused.interrupts().get(0).metadata().path("interrupt").path("reason").asString())
        .isEqualTo("confirm");

    model.respondText("paid");
    GenerateResponse resumed =
        baton.generate(
            GenerateOptions.builder()
                .model("pm")
                .messages(paused.history())
                .tools(transfer)
                .resume(
                    Resume.respond(
                        Part.toolResponse("transfer", "t1", Json.nodes().stringNode("declined"))))
                .build());

    assertThat(resumed.text()).isEqualTo("paid");
    List<Message> sent = model.lastRequest().messages();
    Message toolMessage = sent.get(sent.size() - 1);
    assertThat(toolMessage.hasFlag("resumed")).isTrue();
    assertThat(toolMessage.toolResponses().get(0).toolResponse().output().asString())
        .isEqualTo("declined");
    ToolRequestPart resolved = sent.get(sent.size() - 2).toolRequests().get(0);
    assertThat(resolved.metadata().has("interrupt")).isFalse();
    assertThat(resolved.metadata().path("resolvedInterrupt").path("reason").asString())
        .isEqualTo("confirm");
    assertThat(runs).hasValue(1);
  }

  @Test
  void aRestartRunsTheToolAgainWithTheResumedData() {
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    GenerateResponse paused = pausedTransfer(transfer, Json.object().put("amount", 500));

    model.respondText("paid");
    ToolRequestPart restart =
        call("transfer", "t1", Json.object().put("amount", 500))
            .withMetadata(Metadata.with(null, "resumed", Json.object().put("by", "ann")));
    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(paused.history())
            .tools(transfer)
            .resume(Resume.restart(restart))
            .build());

    Message toolMessage =
        model.lastRequest().messages().get(model.lastRequest().messages().size() - 1);
    assertThat(
            toolMessage
                .toolResponses()
                .get(0)
                .toolResponse()
                .output()
                .path("approvedBy")
                .asString())
        .isEqualTo("ann");
    assertThat(runs).hasValue(2);
  }

  @Test
  void aRestartMayReplaceTheInputWhenItNamesTheOriginal() {
    List<JsonNode> seen = new CopyOnWriteArrayList<>();
    Tool<JsonNode, JsonNode> transfer =
        baton.defineJsonTool(
            "transfer",
            "moves money",
            null,
            null,
            (ctx, in) -> {
              if (!ctx.isResumed()) {
                throw ctx.interrupt(Json.object().put("reason", "confirm"));
              }
              seen.add(in);
              seen.add(ctx.replacedInput().orElseThrow());
              return Json.object().put("status", "sent");
            });
    GenerateResponse paused = pausedTransfer(transfer, Json.object().put("amount", 500));
    Function<Integer, GenerateOptions> restartWith =
        original ->
            GenerateOptions.builder()
                .model("pm")
                .messages(paused.history())
                .tools(transfer)
                .resume(
                    Resume.restart(
                        call("transfer", "t1", Json.object().put("amount", 400))
                            .withMetadata(
                                Metadata.with(
                                    Metadata.withFlag(null, "resumed"),
                                    "replacedInput",
                                    Json.object().put("amount", original)))))
                .build();

    // A replacedInput that is not the original is as forged as a changed input.
    assertThatThrownBy(() -> baton.generate(restartWith.apply(1)))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("do not match the original tool request");
    assertThat(seen).isEmpty();

    model.respondText("paid");
    baton.generate(restartWith.apply(500));
    assertThat(seen)
        .containsExactly(Json.object().put("amount", 400), Json.object().put("amount", 500));
  }

  @Test
  void aForgedRestartIsRejectedBeforeTheModelIsCalled() {
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    GenerateResponse paused = pausedTransfer(transfer, Json.object().put("amount", 500));

    ToolRequestPart forged =
        call("transfer", "t1", Json.object().put("amount", 50000))
            .withMetadata(Metadata.withFlag(null, "resumed"));
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .messages(paused.history())
                        .tools(transfer)
                        .resume(Resume.restart(forged))
                        .build()))
        .isInstanceOfSatisfying(
            BatonException.class, e -> assertThat(e.status()).isEqualTo(Status.INVALID_ARGUMENT))
        .hasMessageContaining("modified inputs");
    assertThat(model.calls()).isEqualTo(1);
    assertThat(runs).hasValue(1);
  }

  @Test
  void aRespondToAToolThatWasNeverCalledIsRejected() {
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    GenerateResponse paused = pausedTransfer(transfer, Json.object());
    assertThatThrownBy(
            () ->
                baton.generate(
                    GenerateOptions.builder()
                        .model("pm")
                        .messages(paused.history())
                        .tools(transfer)
                        .resume(Resume.respond(Part.toolResponse("ghost", "g1", Json.object())))
                        .build()))
        .hasMessageContaining("not found in session history");
  }

  @Test
  void aCompletedSiblingOfAnInterruptIsNotRunTwice() {
    AtomicInteger lookups = new AtomicInteger();
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    Tool<JsonNode, JsonNode> balance =
        baton.defineJsonTool(
            "balance",
            "reads the balance",
            null,
            null,
            (ctx, in) -> Json.nodes().numberNode(100 + lookups.incrementAndGet()));
    model.respond(
        toolCalls(call("balance", "b1", Json.object()), call("transfer", "t1", Json.object())));
    GenerateResponse paused =
        baton.generate(
            GenerateOptions.builder().model("pm").prompt("pay").tools(balance, transfer).build());
    assertThat(paused.message().toolRequests().get(0).metadata().path("pendingOutput").asInt())
        .isEqualTo(101);

    model.respondText("ok");
    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(paused.history())
            .tools(balance, transfer)
            .resume(
                Resume.respond(Part.toolResponse("transfer", "t1", Json.nodes().stringNode("no"))))
            .build());
    List<Message> sent = model.lastRequest().messages();
    assertThat(sent.get(sent.size() - 1).toolResponses())
        .extracting(p -> p.toolResponse().output().toString())
        .containsExactly("101", "\"no\"");
    assertThat(lookups).hasValue(1);
  }

  @Test
  void aResumeArrivesAsJsonThroughTheGenerateAction() {
    AtomicInteger runs = new AtomicInteger();
    Tool<JsonNode, JsonNode> transfer = transfer(runs);
    GenerateResponse paused = pausedTransfer(transfer, Json.object().put("amount", 5));
    model.respondText("declined, noted");

    var input = Json.object().put("model", "pm");
    input.set("messages", Json.toTree(paused.history()));
    input.putArray("tools").add("transfer");
    input
        .putObject("resume")
        .putArray("respond")
        .add(Json.toTree(Part.toolResponse("transfer", "t1", Json.nodes().stringNode("no"))));
    JsonNode out =
        baton
            .registry()
            .lookup("/util/generate")
            .orElseThrow()
            .runJson(baton.context(), input, dev.baton.core.StreamCallback.discard());

    assertThat(out.path("message").path("content").path(0).path("text").asString())
        .isEqualTo("declined, noted");
  }

  @Test
  void aRestartIsNotInheritedByWhatTheRestartedToolCalls() {
    AtomicInteger inner = new AtomicInteger();
    Tool<JsonNode, JsonNode> dangerous =
        baton.defineJsonTool(
            "dangerous",
            "needs approval",
            null,
            null,
            (ctx, in) -> Json.nodes().numberNode(inner.incrementAndGet()));
    ProgrammableModel nested = ProgrammableModel.define(baton.registry(), "nested");
    Tool<JsonNode, JsonNode> outer =
        baton.defineJsonTool(
            "outer",
            "runs a nested generate",
            null,
            null,
            (ctx, in) -> {
              if (!ctx.isResumed()) {
                throw ctx.interrupt();
              }
              GenerateResponse r =
                  baton.generate(
                      ctx.context(),
                      GenerateOptions.builder()
                          .model("nested")
                          .prompt("go")
                          .tools(dangerous)
                          .use(dev.baton.middleware.ToolApproval.allowing())
                          .build());
              return Json.nodes().stringNode(r.finishReason().wireName());
            });
    model.respond(toolCalls(call("outer", "o1", Json.object())));
    GenerateResponse paused =
        baton.generate(GenerateOptions.builder().model("pm").prompt("x").tools(outer).build());
    nested.respond(toolCalls(call("dangerous", "d1", Json.object())));
    model.respondText("ok");
    ToolRequestPart restart =
        call("outer", "o1", Json.object())
            .withMetadata(Metadata.with(null, "resumed", Json.object().put("toolApproved", true)));

    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .messages(paused.history())
            .tools(outer)
            .resume(Resume.restart(restart))
            .build());

    assertThat(inner).as("the nested call was held for its own approval").hasValue(0);
    List<Message> sent = model.lastRequest().messages();
    assertThat(sent.get(sent.size() - 1).toolResponses().get(0).toolResponse().output().asString())
        .isEqualTo("interrupted");
  }
}
