package dev.baton.internal.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.Baton;
import dev.baton.ai.FinishReason;
import dev.baton.ai.GenerateOptions;
import dev.baton.ai.GenerateResponse;
import dev.baton.ai.GenerationUsage;
import dev.baton.ai.Hooks;
import dev.baton.ai.Message;
import dev.baton.ai.Middleware;
import dev.baton.ai.ModelResponse;
import dev.baton.ai.Part;
import dev.baton.ai.Role;
import dev.baton.ai.Tool;
import dev.baton.core.ActionContext;
import dev.baton.core.BatonException;
import dev.baton.core.Json;
import dev.baton.core.Status;
import dev.baton.testing.ProgrammableModel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** What a middleware can ask of a generate call through its {@link GenerateRun}. */
class GenerateRunTest {
  private final Baton baton = Baton.builder().build();
  private final ProgrammableModel model = ProgrammableModel.define(baton.registry(), "pm");
  private final List<String> heard = new CopyOnWriteArrayList<>();

  private UsageListener named(String name) {
    return (model, usage) -> heard.add(name + ":" + usage.totalTokens());
  }

  private static GenerationUsage total(int tokens) {
    return GenerationUsage.builder().totalTokens(tokens).build();
  }

  private static Middleware watching(Consumer<GenerateRun> registrations) {
    return Middleware.of(
        "watching",
        context -> {
          registrations.accept(GenerateRun.of(context).orElseThrow());
          return Hooks.NONE;
        });
  }

  @Test
  void listenersHearEveryCallUnderTheCallUntilItEndsAndNoLonger() throws Exception {
    ProgrammableModel helper = ProgrammableModel.define(baton.registry(), "helper");
    AtomicReference<ActionContext> toolContext = new AtomicReference<>();
    Tool<JsonNode, JsonNode> ask =
        baton.defineJsonTool(
            "ask",
            "Asks the helper",
            null,
            null,
            (ctx, in) -> {
              toolContext.set(ctx.context());
              return Json.nodes()
                  .stringNode(
                      baton
                          .generate(
                              ctx.context(),
                              GenerateOptions.builder().model("helper").prompt("?").build())
                          .text());
            });
    AtomicReference<GenerateRun> watched = new AtomicReference<>();
    model.respond(
        ModelResponse.of(
                new Message(Role.MODEL, List.of(Part.toolRequest("ask", "a1", Json.object()))),
                FinishReason.STOP)
            .withUsage(total(1)),
        ModelResponse.of(Message.model("ok"), FinishReason.STOP).withUsage(total(2)));
    helper.respond(ModelResponse.of(Message.model("42"), FinishReason.STOP).withUsage(total(40)));

    baton.generate(
        GenerateOptions.builder()
            .model("pm")
            .prompt("go")
            .tools(ask)
            .use(
                watching(
                    run -> {
                      run.listen(named("run"));
                      watched.set(run);
                    }))
            .build());

    assertThat(heard).containsExactly("run:1", "run:40", "run:2");
    // Work the call started and that outlives it (a background task, say) is no longer heard.
    CountDownLatch reported = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              UsageListeners.report(toolContext.get(), "m", total(99));
              reported.countDown();
            });
    assertThat(reported.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(heard).containsExactly("run:1", "run:40", "run:2");
    assertThatThrownBy(() -> watched.get().listen(named("late")))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aCheckStopsTheRunBeforeAModelCallKeepingTheConversationAndAmendingTheFinalMessage() {
    Middleware stopSecond =
        watching(
            run -> {
              run.checkModelCalls(
                  () ->
                      model.calls() == 1
                          ? stopWith("enough", Json.object().put("why", "test"))
                          : null);
              run.amendFinalMessage(m -> m.withFlag("amended"));
            });
    Tool<JsonNode, JsonNode> echo =
        baton.defineJsonTool("echo", "Echoes", null, null, (ctx, in) -> in);
    model.respond(
        ModelResponse.of(
                new Message(
                    Role.MODEL,
                    List.of(Part.text("working"), Part.toolRequest("echo", "e1", null))),
                FinishReason.STOP)
            .withUsage(total(3)));

    TestStop stopped =
        stop(GenerateOptions.builder().model("pm").prompt("go").tools(echo).use(stopSecond));

    assertThat(stopped).hasMessage("enough");
    assertThat(GenerateRun.stoppedWith(stopped)).containsSame(stopped.partialResponse());
    assertThat(stopped.details()).isEqualTo(Json.object().put("why", "test"));
    assertThat(model.calls()).isEqualTo(1);
    assertThat(stopped.partialResponse().text()).isEqualTo("working");
    assertThat(stopped.partialResponse().message().hasFlag("amended")).isTrue();
    assertThat(stopped.partialResponse().totalUsage()).isEqualTo(total(3));
    assertThat(stopped.partialResponse().history())
        .extracting(m -> m.role().wireName())
        .containsExactly("user", "model", "tool");
  }

  @Test
  void aNewRunStoppedBeforeItsFirstModelCallAnswersWithAnEmptyMessage() {
    Middleware stopAtOnce = watching(run -> run.checkModelCalls(() -> stopWith("no budget", null)));

    TestStop stopped =
        stop(
            GenerateOptions.builder()
                .model("pm")
                .messages(List.of(Message.user("hi"), Message.model("earlier answer")))
                .prompt("go")
                .use(stopAtOnce));

    assertThat(model.calls()).isZero();
    assertThat(stopped.partialResponse().message().content()).isEmpty();
    assertThat(stopped.partialResponse().history())
        .extracting(Message::text)
        .containsExactly("hi", "earlier answer", "go");
  }

  private TestStop stop(GenerateOptions.Builder options) {
    try {
      baton.generate(options.build());
    } catch (TestStop stopped) {
      return stopped;
    }
    throw new AssertionError("the run was not stopped");
  }

  private static GenerateRun.Stop stopWith(String message, @Nullable JsonNode details) {
    return partial -> new TestStop(message, details, partial);
  }

  /** A stop of the test's own: the loop stops with whatever exception the check makes. */
  private static final class TestStop extends BatonException {
    private static final long serialVersionUID = 1L;
    private final transient GenerateResponse partial;

    TestStop(String message, @Nullable JsonNode details, GenerateResponse partial) {
      super(Status.RESOURCE_EXHAUSTED, message, details, true, null);
      this.partial = partial;
    }

    GenerateResponse partialResponse() {
      return partial;
    }
  }
}
